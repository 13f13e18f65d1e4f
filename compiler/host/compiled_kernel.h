// compiler/host/compiled_kernel.h — a loop kernel compiled by the JIT, and
// how it runs over its batch dimensions and a thread pool.
#ifndef ACCELC_COMPILER_HOST_COMPILED_KERNEL_H_
#define ACCELC_COMPILER_HOST_COMPILED_KERNEL_H_

#include <string>
#include <vector>

#include "compiler/host/jit.h"
#include "compiler/host/loop_ir.h"
#include "support/thread_pool.h"

namespace accelc::compiler::host {

class CompiledKernel {
 public:
  /// Compiles `k` under `s` with `jit`; `name` locates errors.
  static support::Expected<CompiledKernel> compile(HostJit& jit, const LoopKernel& k, const KernelSchedule& s,
                                                   const std::string& name);
  /// Runs the kernel: `io` holds one pointer per buffer (null for the
  /// temporaries, which it allocates). Stages marked parallel divide their
  /// outer loop over `pool` when one is given.
  void run(const std::vector<float*>& io, support::ThreadPool* pool) const;
  const std::vector<LoopBuffer>& buffers() const { return buffers_; }

 private:
  struct Stage {
    HostJit::StageFn fn = nullptr;
    int64_t iterations = 1;  ///< of the outer loop
    bool parallel = false;   ///< divided over the pool: marked parallel, with enough work to pay for the threads' wake-up
  };
  void runBatch(size_t dim, std::vector<float*>& ptrs, support::ThreadPool* pool) const;

  std::vector<LoopBuffer> buffers_;
  std::vector<BatchDim> batch_;
  std::vector<Stage> stages_;
};

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_COMPILED_KERNEL_H_
