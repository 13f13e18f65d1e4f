// compiler/host/compiled_kernel.cc — running compiled loop kernels.
#include "compiler/host/compiled_kernel.h"

namespace accelc::compiler::host {

support::Expected<CompiledKernel> CompiledKernel::compile(HostJit& jit, const LoopKernel& k, const KernelSchedule& s,
                                                          const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(std::vector<HostJit::StageFn> fns, jit.compile(k, s, name));
  CompiledKernel c;
  c.buffers_ = k.buffers;
  c.batch_ = k.batch;
  // Waking a worker costs some microseconds: a stage of fewer iterations of
  // its whole nest than this runs on the calling thread alone.
  constexpr double kParallelWork = 1 << 20;
  for (size_t i = 0; i < fns.size(); ++i) {
    double work = 1;
    for (const LoopAxis& a : k.stages[i].axes) work *= static_cast<double>(a.extent);
    c.stages_.push_back({fns[i], s.stages[i].outerIterations(k.stages[i]), s.stages[i].parallel && work >= kParallelWork});
  }
  return c;
}

void CompiledKernel::runBatch(size_t dim, std::vector<float*>& ptrs, support::ThreadPool* pool) const {
  if (dim == batch_.size()) {
    for (const Stage& s : stages_) {
      if (s.parallel && pool && s.iterations > 1)
        pool->parallelFor(s.iterations, [&](int64_t b, int64_t e) { s.fn(ptrs.data(), b, e); });
      else
        s.fn(ptrs.data(), 0, s.iterations);
    }
    return;
  }
  const BatchDim& d = batch_[dim];
  const std::vector<float*> base = ptrs;
  for (int64_t i = 0; i < d.count; ++i) {
    for (size_t b = 0; b < ptrs.size(); ++b) ptrs[b] = base[b] + i * d.stride[b];
    runBatch(dim + 1, ptrs, pool);
  }
  ptrs = base;
}

void CompiledKernel::run(const std::vector<float*>& io, support::ThreadPool* pool) const {
  std::vector<std::vector<float>> temps;
  std::vector<float*> ptrs = io;
  for (size_t b = 0; b < buffers_.size(); ++b)
    if (buffers_[b].role == LoopBuffer::Role::kTemp) {
      temps.emplace_back(static_cast<size_t>(buffers_[b].elements));
      ptrs[b] = temps.back().data();
    }
  runBatch(0, ptrs, pool);
}

}  // namespace accelc::compiler::host
