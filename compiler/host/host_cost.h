// compiler/host/host_cost.h — what a step is estimated to cost on the host
// that runs it, for the partitioner's placement by cost (`accelc compile
// --placement cost`, compiler/driver/compile.h CompileOptions::hostCost).
//
// A step's time is the larger of its products' MACs at the host's rate and
// the bytes it reads and writes at the host's rate, plus a fixed cost per
// step, each on one thread. Generated kernels and reference kernels have
// their own rates; an op the generator covers (step_kernels.h
// generatesKernel) is assumed to get its generated kernel.
#ifndef ACCELC_COMPILER_HOST_HOST_COST_H_
#define ACCELC_COMPILER_HOST_HOST_COST_H_

#include <cstdint>
#include <string>

#include "runtime/ops.h"
#include "support/status.h"

namespace accelc::compiler::host {

/// One host's rates, on one thread.
struct HostSpeed {
  std::string name;            ///< how reasons name it ("x86-64")
  double macs = 0;             ///< generated kernels: int8 products, multiply-accumulates per second
  double bytes = 0;            ///< generated kernels: bytes read and written per second
  double referenceMacs = 0;    ///< the reference kernels' products
  double referenceBytes = 0;   ///< the reference kernels' other work
  double packBytes = 0;        ///< packing to and unpacking from the accelerator's blocked layout
  double step = 0;             ///< seconds per step, whatever it does
};

/// The rates of host `arch` ("x86", "aarch64" or "armv7"; docs/host-codegen.md
/// says where each figure comes from), or an error naming the hosts.
support::Expected<HostSpeed> hostSpeed(const std::string& arch);

/// Estimated seconds of a step of op `k` with `macs` product MACs that reads
/// and writes `bytes`, on `h`'s generated kernel (`generated`) or reference.
double hostSeconds(const HostSpeed& h, runtime::OpKind k, int64_t macs, int64_t bytes, bool generated);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_HOST_COST_H_
