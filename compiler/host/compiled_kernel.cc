// compiler/host/compiled_kernel.cc — a loop kernel's runtime description, and one compiled alone.
#include "compiler/host/compiled_kernel.h"

namespace accelc::compiler::host {

runtime::KernelCode loopKernelCode(const LoopKernel& k, const KernelSchedule& s, const std::string& prefix) {
  // Waking a worker costs some microseconds: a stage of fewer iterations of
  // its whole nest than this runs on the calling thread alone.
  constexpr double kParallelWork = 1 << 16;
  runtime::KernelCode code;
  code.buffers = k.buffers;
  code.batch = k.batch;
  for (size_t i = 0; i < k.stages.size(); ++i) {
    double work = 1;
    for (const LoopAxis& a : k.stages[i].axes) work *= static_cast<double>(a.extent);
    code.stages.push_back({prefix + "_s" + std::to_string(i), s.stages[i].outerIterations(k.stages[i]),
                           s.stages[i].parallel && work >= kParallelWork, k.stages[i].constant});
  }
  return code;
}

support::Expected<CompiledKernel> CompiledKernel::compile(HostJit& jit, const LoopKernel& k, const KernelSchedule& s,
                                                          const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(std::vector<HostJit::StageFn> fns, jit.compile(k, s, name));
  CompiledKernel c;
  c.code_ = loopKernelCode(k, s, "");
  c.fns_ = std::move(fns);
  return c;
}

}  // namespace accelc::compiler::host
