// runtime/host_code.cc — running generated host kernels (see host_code.h).
#include "runtime/host_code.h"

namespace accelc::runtime {

namespace {

using support::error;
using support::Location;

void runBatch(const KernelCode& k, const std::vector<StageFn>& fns, size_t dim, std::vector<float*>& ptrs,
              support::ThreadPool* pool) {
  if (dim == k.batch.size()) {
    for (size_t i = 0; i < fns.size(); ++i) {
      const StageCode& s = k.stages[i];
      const StageFn fn = fns[i];
      if (s.parallel && pool && s.iterations > 1)
        pool->parallelFor(s.iterations, [&](int64_t b, int64_t e) { fn(ptrs.data(), b, e); });
      else
        fn(ptrs.data(), 0, s.iterations);
    }
    return;
  }
  const BatchDim& d = k.batch[dim];
  const std::vector<float*> base = ptrs;
  for (int64_t i = 0; i < d.count; ++i) {
    for (size_t b = 0; b < ptrs.size(); ++b) ptrs[b] = base[b] + i * d.stride[b];
    runBatch(k, fns, dim + 1, ptrs, pool);
  }
  ptrs = base;
}

/// Fails unless the inputs have the element counts the kernel was compiled for.
support::Status checkInputs(const std::vector<const Tensor*>& inputs, const std::vector<int64_t>& sizes,
                            const std::string& where) {
  bool ok = inputs.size() == sizes.size();
  for (size_t i = 0; ok && i < inputs.size(); ++i)
    ok = inputs[i] ? inputs[i]->dtype() == support::DType::kFloat32 && inputs[i]->numel() == sizes[i] : sizes[i] < 0;
  if (ok) return support::Status::ok();
  return error(Location::file(where), "the generated kernel expects float32 inputs of the compiled shapes");
}

HostKernel chainKernel(ChainFn fn, const KernelCode& k, const std::string& kind, const std::string& where) {
  HostKernel h{kind, [fn, k, where](const std::vector<const Tensor*>& inputs, std::vector<Tensor>& outputs) -> support::Status {
                 ACCELC_TRY(checkInputs(inputs, k.sizes, where));
                 Tensor out(support::DType::kFloat32, k.output);
                 std::vector<const float*> ptrs;  // the chain numbers the present inputs
                 for (const Tensor* t : inputs)
                   if (t) ptrs.push_back(t->data<float>());
                 fn(ptrs.data(), out.data<float>(), out.numel());
                 outputs[0] = std::move(out);
                 return support::Status::ok();
               }};
  h.fuses = k.fuses;
  return h;
}

HostKernel loopKernel(std::vector<StageFn> fns, const KernelCode& k, const std::string& kind, const std::string& where,
                      std::shared_ptr<support::ThreadPool> pool) {
  HostKernel h{kind, [fns = std::move(fns), k, where, pool](const std::vector<const Tensor*>& inputs,
                                                            std::vector<Tensor>& outputs) -> support::Status {
                 ACCELC_TRY(checkInputs(inputs, k.sizes, where));
                 Tensor out(support::DType::kFloat32, k.output);
                 std::vector<float*> io;
                 for (const Tensor* t : inputs)
                   if (t) io.push_back(const_cast<float*>(t->data<float>()));  // the kernel only reads its inputs
                 io.push_back(out.data<float>());
                 io.resize(k.buffers.size(), nullptr);
                 runLoopKernel(k, fns, io, pool.get());
                 outputs[0] = std::move(out);
                 return support::Status::ok();
               }};
  h.fuses = k.fuses;
  return h;
}

}  // namespace

void runLoopKernel(const KernelCode& k, const std::vector<StageFn>& fns, const std::vector<float*>& io,
                   support::ThreadPool* pool) {
  std::vector<std::vector<float>> temps;
  std::vector<float*> ptrs = io;
  for (size_t b = 0; b < k.buffers.size(); ++b)
    if (k.buffers[b].role == KernelBuffer::Role::kTemp) {
      temps.emplace_back(static_cast<size_t>(k.buffers[b].elements));
      ptrs[b] = temps.back().data();
    }
  runBatch(k, fns, 0, ptrs, pool);
}

std::string hostCodeProblem(const HostCode& code, size_t steps) {
  for (const KernelCode& k : code.kernels) {
    const std::string at = "host kernel of step " + std::to_string(k.step);
    if (static_cast<size_t>(k.step) + k.fuses >= steps) return at + ": past the bundle's " + std::to_string(steps) + " steps";
    if (k.chain.empty() == k.stages.empty()) return at + ": neither a chain nor a loop kernel";
    size_t inputs = 0, outputs = 0;
    for (const KernelBuffer& b : k.buffers) {
      inputs += b.role == KernelBuffer::Role::kInput, outputs += b.role == KernelBuffer::Role::kOutput;
      if (b.elements < 1) return at + ": buffer '" + b.name + "' holds no elements";
    }
    size_t present = 0;
    for (int64_t s : k.sizes) present += s >= 0;
    if (k.chain.empty() && (outputs != 1 || inputs != present))
      return at + ": its buffers do not match its " + std::to_string(present) + " inputs and one output";
    for (const BatchDim& d : k.batch)
      if (d.stride.size() != k.buffers.size() || d.count < 1) return at + ": a batch dimension does not fit its buffers";
  }
  return "";
}

support::Expected<HostKernels> hostKernelsOf(const HostCode& code,
                                             const std::function<void*(const std::string&)>& resolve,
                                             const std::string& kind, std::shared_ptr<support::ThreadPool> pool,
                                             const std::string& name) {
  HostKernels kernels;
  for (const KernelCode& k : code.kernels) {
    const std::string where = name + ": host kernel of step " + std::to_string(k.step);
    auto find = [&](const std::string& symbol) -> support::Expected<void*> {
      void* p = resolve(symbol);
      if (!p) return error(Location::file(name), "the host code has no symbol '" + symbol + "'");
      return p;
    };
    if (!k.chain.empty()) {
      ACCELC_ASSIGN_OR_RETURN(void* fn, find(k.chain));
      kernels[k.step] = chainKernel(reinterpret_cast<ChainFn>(fn), k, kind, where);
      continue;
    }
    std::vector<StageFn> fns;
    for (const StageCode& s : k.stages) {
      ACCELC_ASSIGN_OR_RETURN(void* fn, find(s.symbol));
      fns.push_back(reinterpret_cast<StageFn>(fn));
    }
    kernels[k.step] = loopKernel(std::move(fns), k, kind, where, pool);
  }
  return kernels;
}

}  // namespace accelc::runtime
