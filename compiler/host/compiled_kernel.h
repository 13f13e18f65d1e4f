// compiler/host/compiled_kernel.h — one loop kernel compiled by the JIT and
// run by the runtime's runner (runtime/host_code.h): for tests and benches
// that time or check a kernel alone.
#ifndef ACCELC_COMPILER_HOST_COMPILED_KERNEL_H_
#define ACCELC_COMPILER_HOST_COMPILED_KERNEL_H_

#include <string>
#include <vector>

#include "compiler/host/jit.h"
#include "compiler/host/loop_ir.h"
#include "runtime/host_code.h"
#include "support/thread_pool.h"

namespace accelc::compiler::host {

/// How the runtime runs loop kernel `k` under `s` (its buffers, batch
/// dimensions and stages), its stages named `prefix` + "_s" + index.
runtime::KernelCode loopKernelCode(const LoopKernel& k, const KernelSchedule& s, const std::string& prefix);

class CompiledKernel {
 public:
  /// Compiles `k` under `s` with `jit`; `name` locates errors.
  static support::Expected<CompiledKernel> compile(HostJit& jit, const LoopKernel& k, const KernelSchedule& s,
                                                   const std::string& name);
  /// Runs the kernel: `io` holds one pointer per buffer (null for the
  /// temporaries, which it allocates). Stages marked parallel divide their
  /// outer loop over `pool` when one is given.
  void run(const std::vector<void*>& io, support::ThreadPool* pool) const { runLoopKernel(code_, fns_, io, pool, *scratch_); }
  const std::vector<LoopBuffer>& buffers() const { return code_.buffers; }

 private:
  runtime::KernelCode code_;
  std::vector<runtime::StageFn> fns_;
  std::shared_ptr<runtime::KernelScratch> scratch_ = std::make_shared<runtime::KernelScratch>();
};

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_COMPILED_KERNEL_H_
