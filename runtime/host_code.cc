// runtime/host_code.cc — running generated host kernels (see host_code.h).
#include "runtime/host_code.h"

namespace accelc::runtime {

namespace {

using support::error;
using support::Location;

/// Runs the stages at every batch point from dimension `dim` on; `once`
/// stages run only where `first` holds (the first point of the first run).
void runBatch(const KernelCode& k, const std::vector<StageFn>& fns, size_t dim, std::vector<void*>& ptrs,
              support::ThreadPool* pool, bool first) {
  if (dim == k.batch.size()) {
    for (size_t i = 0; i < fns.size(); ++i) {
      const StageCode& s = k.stages[i];
      if (s.once && !first) continue;
      const StageFn fn = fns[i];
      if (s.parallel && pool && s.iterations > 1)
        pool->parallelFor(s.iterations, [&](int64_t b, int64_t e) { fn(ptrs.data(), b, e); });
      else
        fn(ptrs.data(), 0, s.iterations);
    }
    return;
  }
  const BatchDim& d = k.batch[dim];
  const std::vector<void*> base = ptrs;
  for (int64_t i = 0; i < d.count; ++i) {
    for (size_t b = 0; b < ptrs.size(); ++b)
      ptrs[b] = static_cast<char*>(base[b]) + i * d.stride[b] * support::dtypeBytes(k.buffers[b].type);
    runBatch(k, fns, dim + 1, ptrs, pool, first && i == 0);
  }
  ptrs = base;
}

/// Fails unless the inputs have the element counts and types the kernel was
/// compiled for (a chain's are float32; a loop kernel's present inputs are its
/// first buffers, in order).
support::Status checkInputs(const std::vector<const Tensor*>& inputs, const KernelCode& k, const std::string& where) {
  bool ok = inputs.size() == k.sizes.size();
  size_t present = 0;
  for (size_t i = 0; ok && i < inputs.size(); ++i) {
    if (!inputs[i]) {
      ok = k.sizes[i] < 0;
      continue;
    }
    const support::DType want = k.chain.empty() ? k.buffers[present++].type : support::DType::kFloat32;
    ok = inputs[i]->dtype() == want && inputs[i]->numel() == k.sizes[i];
  }
  if (ok) return support::Status::ok();
  return error(Location::file(where), "the generated kernel expects inputs of the compiled types and shapes");
}

/// `given` when it already has the type and shape (the caller's memory from an
/// earlier run), else a new tensor.
Tensor reuse(Tensor& given, support::DType type, const Shape& shape) {
  if (given.dtype() == type && given.shape() == shape) return std::move(given);
  return Tensor(type, shape);
}

HostKernel chainKernel(ChainFn fn, const KernelCode& k, const std::string& kind, const std::string& where) {
  HostKernel h{kind, [fn, k, where](const std::vector<const Tensor*>& inputs, std::vector<Tensor>& outputs) -> support::Status {
                 ACCELC_TRY(checkInputs(inputs, k, where));
                 Tensor out = reuse(outputs[0], support::DType::kFloat32, k.outputs[0]);
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
  auto scratch = std::make_shared<KernelScratch>();
  HostKernel h{kind, [fns = std::move(fns), k, where, pool, scratch](const std::vector<const Tensor*>& inputs,
                                                                     std::vector<Tensor>& outputs) -> support::Status {
                 ACCELC_TRY(checkInputs(inputs, k, where));
                 std::vector<Tensor> out;
                 for (size_t i = 0; i < k.outputs.size(); ++i)
                   out.push_back(reuse(outputs[i], kernelOutputType(k, i), k.outputs[i]));
                 std::vector<void*> io;
                 for (const Tensor* t : inputs)
                   if (t) io.push_back(const_cast<uint8_t*>(t->bytes().data()));  // the kernel only reads its inputs
                 for (Tensor& t : out) io.push_back(t.bytes().data());
                 io.resize(k.buffers.size(), nullptr);
                 runLoopKernel(k, fns, io, pool.get(), *scratch);
                 for (size_t i = 0; i < out.size(); ++i) outputs[i] = std::move(out[i]);
                 return support::Status::ok();
               }};
  h.fuses = k.fuses;
  return h;
}

}  // namespace

const std::vector<CpuFeature>& x86Features() {
  static const std::vector<CpuFeature> kFeatures = {
      {"sse4.2", "sse4_2"},
      {"avx", "avx"},
      {"avx2", "avx2"},
      {"fma", "fma"},
      {"f16c", "f16c"},
      {"bmi", "bmi1"},
      {"bmi2", "bmi2"},
      {"avx512f", "avx512f"},
      {"avx512cd", "avx512cd"},
      {"avx512bw", "avx512bw"},
      {"avx512dq", "avx512dq"},
      {"avx512vl", "avx512vl"},
      {"avx512vnni", "avx512_vnni"},
      {"avx512bf16", "avx512_bf16"},
      {"avx512vbmi", "avx512vbmi"},
      {"avx512vbmi2", "avx512_vbmi2"},
      {"avx512ifma", "avx512ifma"},
      {"avx512bitalg", "avx512_bitalg"},
      {"avx512vpopcntdq", "avx512_vpopcntdq"},
      {"avx512fp16", "avx512_fp16"},
      {"avxvnni", "avx_vnni"},
      {"amx-tile", "amx_tile"},
      {"amx-int8", "amx_int8"},
  };
  return kFeatures;
}

support::DType kernelOutputType(const KernelCode& k, size_t i) {
  for (const KernelBuffer& b : k.buffers)
    if (b.role == KernelBuffer::Role::kOutput && i-- == 0) return b.type;
  return support::DType::kFloat32;
}

bool kernelBufferType(support::DType t) {
  return t == support::DType::kFloat32 || t == support::DType::kInt8 || t == support::DType::kUint8 ||
         t == support::DType::kInt32 || t == support::DType::kInt64;
}

void* KernelScratch::at(size_t i, int64_t bytes) {
  if (blocks_.size() <= i) blocks_.resize(i + 1);
  Block& b = blocks_[i];
  if (b.bytes < bytes) {
    // Rounded up so that the start can move to a 64-byte boundary; new[] leaves the bytes untouched.
    b.data.reset(new uint8_t[static_cast<size_t>(bytes + 64)]);
    b.bytes = bytes;
  }
  const uintptr_t p = reinterpret_cast<uintptr_t>(b.data.get());
  return reinterpret_cast<void*>((p + 63) & ~uintptr_t{63});
}

void runLoopKernel(const KernelCode& k, const std::vector<StageFn>& fns, const std::vector<void*>& io,
                   support::ThreadPool* pool, KernelScratch& scratch) {
  std::lock_guard<std::mutex> hold(scratch.mutex());
  std::vector<void*> ptrs = io;
  for (size_t b = 0; b < k.buffers.size(); ++b)
    if (k.buffers[b].role == KernelBuffer::Role::kTemp)
      ptrs[b] = scratch.at(b, k.buffers[b].elements * support::dtypeBytes(k.buffers[b].type));
  runBatch(k, fns, 0, ptrs, pool, !scratch.primed);
  scratch.primed = true;
}

namespace {

void writeShape(support::ByteWriter& w, const std::vector<int64_t>& v) {
  w.u64(v.size());
  for (int64_t x : v) w.i64(x);
}

support::Expected<std::vector<int64_t>> readShape(support::ByteReader& r, const char* what) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t n, r.count(what));
  std::vector<int64_t> v;
  for (uint64_t i = 0; i < n; ++i) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t x, r.le(8, what));
    v.push_back(static_cast<int64_t>(x));
  }
  return v;
}

void writeKernel(support::ByteWriter& w, const KernelCode& k) {
  w.u32(k.step), w.u32(k.fuses);
  w.u64(k.outputs.size());
  for (const Shape& o : k.outputs) writeShape(w, o);
  writeShape(w, k.sizes);
  w.str(k.chain);
  w.u64(k.buffers.size());
  for (const KernelBuffer& b : k.buffers)
    w.str(b.name), w.i64(b.elements), w.u8(static_cast<uint8_t>(b.role)), w.u8(static_cast<uint8_t>(b.type));
  w.u64(k.batch.size());
  for (const BatchDim& d : k.batch) w.i64(d.count), writeShape(w, d.stride);
  w.u64(k.stages.size());
  for (const StageCode& s : k.stages)
    w.str(s.symbol), w.i64(s.iterations), w.u8(static_cast<uint8_t>((s.parallel ? 1 : 0) | (s.once ? 2 : 0)));
}

support::Status readKernel(support::ByteReader& r, KernelCode& k) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t step, r.le(4, "kernel step"));
  ACCELC_ASSIGN_OR_RETURN(uint64_t fuses, r.le(4, "kernel fuses"));
  k.step = static_cast<uint32_t>(step), k.fuses = static_cast<uint32_t>(fuses);
  ACCELC_ASSIGN_OR_RETURN(uint64_t no, r.count("kernel outputs"));
  if (no == 0) return r.bad("a kernel without outputs");
  k.outputs.resize(no);
  for (Shape& o : k.outputs) {
    ACCELC_ASSIGN_OR_RETURN(o, readShape(r, "kernel output"));
  }
  ACCELC_ASSIGN_OR_RETURN(k.sizes, readShape(r, "kernel inputs"));
  ACCELC_ASSIGN_OR_RETURN(k.chain, r.str("kernel chain"));
  ACCELC_ASSIGN_OR_RETURN(uint64_t nb, r.count("kernel buffers"));
  for (uint64_t i = 0; i < nb; ++i) {
    KernelBuffer b;
    ACCELC_ASSIGN_OR_RETURN(b.name, r.str("buffer name"));
    ACCELC_ASSIGN_OR_RETURN(uint64_t n, r.le(8, "buffer elements"));
    ACCELC_ASSIGN_OR_RETURN(uint64_t role, r.le(1, "buffer role"));
    if (role > 2) return r.bad("buffer role " + std::to_string(role));
    ACCELC_ASSIGN_OR_RETURN(uint64_t type, r.le(1, "buffer type"));
    if (type >= static_cast<uint64_t>(support::kDTypeCount) || !kernelBufferType(static_cast<support::DType>(type)))
      return r.bad("buffer type " + std::to_string(type));
    b.elements = static_cast<int64_t>(n), b.role = static_cast<KernelBuffer::Role>(role);
    b.type = static_cast<support::DType>(type);
    k.buffers.push_back(std::move(b));
  }
  ACCELC_ASSIGN_OR_RETURN(uint64_t nd, r.count("kernel batch"));
  for (uint64_t i = 0; i < nd; ++i) {
    BatchDim d;
    ACCELC_ASSIGN_OR_RETURN(uint64_t count, r.le(8, "batch count"));
    d.count = static_cast<int64_t>(count);
    ACCELC_ASSIGN_OR_RETURN(d.stride, readShape(r, "batch strides"));
    k.batch.push_back(std::move(d));
  }
  ACCELC_ASSIGN_OR_RETURN(uint64_t ns, r.count("kernel stages"));
  for (uint64_t i = 0; i < ns; ++i) {
    StageCode s;
    ACCELC_ASSIGN_OR_RETURN(s.symbol, r.str("stage symbol"));
    ACCELC_ASSIGN_OR_RETURN(uint64_t it, r.le(8, "stage iterations"));
    ACCELC_ASSIGN_OR_RETURN(uint64_t flags, r.le(1, "stage flags"));
    if (flags > 3) return r.bad("stage flags " + std::to_string(flags));
    s.iterations = static_cast<int64_t>(it), s.parallel = (flags & 1) != 0, s.once = (flags & 2) != 0;
    if (s.iterations < 1) return r.bad("stage iterations");
    k.stages.push_back(std::move(s));
  }
  return support::Status::ok();
}

}  // namespace

void writeHostCode(support::ByteWriter& w, const HostCode& code) {
  w.str(code.triple), w.str(code.cpu);
  w.u64(code.features.size());
  for (const std::string& f : code.features) w.str(f);
  w.bytes(code.library);
  w.u64(code.libraryHash);
  w.u64(code.kernels.size());
  for (const KernelCode& k : code.kernels) writeKernel(w, k);
}

support::Status readHostCode(support::ByteReader& r, HostCode& code) {
  ACCELC_ASSIGN_OR_RETURN(code.triple, r.str("host code triple"));
  ACCELC_ASSIGN_OR_RETURN(code.cpu, r.str("host code CPU"));
  ACCELC_ASSIGN_OR_RETURN(uint64_t nf, r.count("host code features"));
  for (uint64_t i = 0; i < nf; ++i) {
    ACCELC_ASSIGN_OR_RETURN(std::string f, r.str("feature"));
    code.features.push_back(std::move(f));
  }
  ACCELC_ASSIGN_OR_RETURN(code.library, r.bytes("host library"));
  ACCELC_ASSIGN_OR_RETURN(code.libraryHash, r.le(8, "host library hash"));
  ACCELC_ASSIGN_OR_RETURN(uint64_t nk, r.count("host kernels"));
  for (uint64_t i = 0; i < nk; ++i) {
    KernelCode k;
    ACCELC_TRY(readKernel(r, k));
    code.kernels.push_back(std::move(k));
  }
  return support::Status::ok();
}

std::string hostCodeProblem(const HostCode& code, const std::vector<std::vector<Shape>>& stepOutputs) {
  const size_t steps = stepOutputs.size();
  for (const KernelCode& k : code.kernels) {
    const std::string at = "host kernel of step " + std::to_string(k.step);
    if (static_cast<size_t>(k.step) + k.fuses >= steps) return at + ": past the bundle's " + std::to_string(steps) + " steps";
    if (k.outputs != stepOutputs[k.step + k.fuses]) return at + ": its outputs are not its step's";
    if (k.chain.empty() == k.stages.empty()) return at + ": neither a chain nor a loop kernel";
    size_t inputs = 0, outputs = 0;
    for (const KernelBuffer& b : k.buffers) {
      inputs += b.role == KernelBuffer::Role::kInput, outputs += b.role == KernelBuffer::Role::kOutput;
      if (b.elements < 1) return at + ": buffer '" + b.name + "' holds no elements";
    }
    size_t present = 0;
    for (int64_t s : k.sizes) present += s >= 0;
    if (k.chain.empty() ? outputs != k.outputs.size() || inputs != present : k.outputs.size() != 1)
      return at + ": its buffers do not match its " + std::to_string(present) + " inputs and " +
             std::to_string(k.outputs.size()) + " outputs";
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
