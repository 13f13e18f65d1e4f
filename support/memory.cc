// support/memory.cc — the process's memory budget.
#include "support/memory.h"

#include <unistd.h>

#include <atomic>

namespace accelc::support {

namespace {

std::atomic<uint64_t> gBudget{0};  ///< 0: the default

}  // namespace

uint64_t defaultMemoryBudget() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t{4} << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2;
}

uint64_t memoryBudget() {
  const uint64_t b = gBudget.load();
  return b ? b : defaultMemoryBudget();
}

void setMemoryBudget(uint64_t bytes) { gBudget.store(bytes); }

Status checkAllocation(uint64_t bytes, const std::string& what, const Location& loc) {
  if (bytes <= memoryBudget()) return Status::ok();
  return error(loc, what + " needs " + std::to_string(bytes) + " bytes, more than the memory budget of " +
                        std::to_string(memoryBudget()) + " bytes (--max-memory)");
}

Status checkTensorAllocation(DType dtype, const std::vector<int64_t>& shape, const std::string& what,
                             const Location& loc) {
  const std::string desc = what + " (" + dtypeName(dtype) + " " + shapeStr(shape) + ")";
  std::optional<int64_t> n = checkedShapeElements(shape);
  int64_t bytes = 0;
  if (!n || __builtin_mul_overflow(*n, dtypeBytes(dtype), &bytes))
    return error(loc, desc + " has more bytes than a 64-bit size holds");
  return checkAllocation(static_cast<uint64_t>(bytes), desc, loc);
}

}  // namespace accelc::support
