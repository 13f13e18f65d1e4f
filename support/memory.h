// support/memory.h — the memory budget for allocations whose size comes
// from input (a model's shapes, a bundle's tensors, a file's header).
//
// Each such allocation is checked against the budget before it is made, so
// that a hostile size gives a located error instead of std::bad_alloc or the
// system's OOM killer. The budget is process-wide: the CLI sets it from
// --max-memory; it defaults to half of physical memory.
#ifndef ACCELC_SUPPORT_MEMORY_H_
#define ACCELC_SUPPORT_MEMORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "support/dtype.h"
#include "support/status.h"

namespace accelc::support {

/// Half of this machine's physical memory.
uint64_t defaultMemoryBudget();
/// The budget now in force, in bytes.
uint64_t memoryBudget();
/// Sets the budget (0: back to the default).
void setMemoryBudget(uint64_t bytes);

/// Ok when `bytes` fits the budget; else an error at `loc`: "WHAT needs N
/// bytes, more than the memory budget of M bytes (--max-memory)".
Status checkAllocation(uint64_t bytes, const std::string& what, const Location& loc);
/// The same for a tensor of `dtype` and `shape`, whose size is computed
/// with overflow checks (an overflowing size is over any budget).
Status checkTensorAllocation(DType dtype, const std::vector<int64_t>& shape, const std::string& what,
                             const Location& loc);

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_MEMORY_H_
