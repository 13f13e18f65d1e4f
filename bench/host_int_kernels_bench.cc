// bench/host_int_kernels_bench.cc — the generated int8 loop kernels
// (compiler/host/int_kernels.h) beside oneDNN's int8 primitives and the
// reference kernels, in one run: QConv over ResNet's 3x3 layer shapes and
// MobileNet's depthwise ones, QGemm, and the host steps of accelerator
// bundles (QuantizeLinear of a 224x224 image, the 7x7 stride-2 Im2col of
// ResNet's first convolution, DequantizeLinear of logits). One thread unless
// --threads N; the median of 20 runs after a warm-up.
//
// oneDNN (2.x, Debian's libdnnl-dev) runs s8 x s8 -> s8 convolutions and
// matrix products with a per-channel output scale, its activations in the
// layout it picks (as a compiler that keeps oneDNN's layouts between layers
// would) and the weights reordered once outside the timing. Ours read NCHW
// and OIHW and requantize exactly as isa/arith.h says (oneDNN rounds in
// float, so the outputs are not compared with it); their weights are a
// bundle's constants, packed on the first (warm-up) run as in a bundle.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>
#include <random>
#include <string>
#include <vector>

#include "bench/timing.h"
#include "compiler/host/compiled_kernel.h"
#include "compiler/host/int_kernels.h"
#include "compiler/host/step_kernels.h"
#include "runtime/ops.h"

namespace accelc {
namespace {

using compiler::host::CompiledKernel;
using compiler::host::KernelPlan;
using runtime::Shape;
using runtime::Tensor;
using support::DType;

using bench::medianMs;

Tensor randomTensor(DType t, const Shape& s, uint32_t seed, int32_t lo = -128, int32_t hi = 127) {
  Tensor x(t, s);
  std::mt19937 g(seed);
  std::uniform_int_distribution<int32_t> d(lo, hi);
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (t == DType::kInt32) x.data<int32_t>()[i] = d(g);
    else if (t == DType::kFloat32) x.data<float>()[i] = static_cast<float>(d(g)) / 37.0f;
    else x.data<int8_t>()[i] = static_cast<int8_t>(d(g));
  }
  return x;
}

/// The reference kernel's time for one run, and its output.
double referenceMs(runtime::OpKind op, const runtime::Attrs& a, const std::vector<const Tensor*>& in, Tensor& out) {
  std::vector<Tensor> ref(1);
  const auto t0 = std::chrono::steady_clock::now();
  (void)runtime::runOp(op, a, in, ref, support::Location());
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  out = std::move(ref[0]);
  return ms;
}

/// Our kernel's median ms on the inputs into `y`, and whether it gave the reference's bits.
std::pair<double, bool> ours(compiler::host::HostJit& jit, const std::optional<KernelPlan>& p,
                             const std::vector<const Tensor*>& in, const Tensor& want, support::ThreadPool* pool) {
  if (!p) std::fprintf(stderr, "no kernel\n"), std::exit(1);
  auto k = CompiledKernel::compile(jit, p->kernel, p->schedule, "bench");
  if (!k) std::fprintf(stderr, "%s\n", k.diag().str().c_str()), std::exit(1);
  Tensor y(want.dtype(), want.shape());
  std::vector<void*> io;
  for (const Tensor* t : in) io.push_back(const_cast<uint8_t*>(t->bytes().data()));
  io.push_back(y.bytes().data());
  io.resize(k->buffers().size(), nullptr);
  const double ms = medianMs([&] { k->run(io, pool); });
  return {ms, y.bytes() == want.bytes()};
}

/// oneDNN's s8 convolution (or, with k = 0, matrix product) with a per-channel output scale; its median ms.
double dnnlInt8(dnnl::engine& eng, dnnl::stream& s, int64_t c, int64_t h, int64_t m, int64_t k, int64_t stride,
                int64_t group) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  const int64_t pad = k / 2, oh = (h + 2 * pad - k) / stride + 1;
  const dnnl::memory::dims src = {1, c, h, h}, dst = {1, m, oh, oh};
  const dnnl::memory::dims wts = group == 1 ? dnnl::memory::dims{m, c, k, k}
                                            : dnnl::memory::dims{group, m / group, c / group, k, k};
  dnnl::primitive_attr attr;
  attr.set_output_scales(1 << 1, std::vector<float>(static_cast<size_t>(m), 0.01f));  // per output channel
  auto any = [](const dnnl::memory::dims& d) { return dnnl::memory::desc(d, dt::s8, tag::any); };
  dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, any(src),
                                    any(wts), any(dst), {stride, stride}, {pad, pad}, {pad, pad});
  dnnl::convolution_forward::primitive_desc pd(d, attr, eng);
  dnnl::memory srcM(pd.src_desc(), eng), wM(pd.weights_desc(), eng), dstM(pd.dst_desc(), eng);
  std::memset(srcM.get_data_handle(), 1, pd.src_desc().get_size());
  std::memset(wM.get_data_handle(), 1, pd.weights_desc().get_size());
  dnnl::convolution_forward conv(pd);
  return medianMs([&] {
    conv.execute(s, {{DNNL_ARG_SRC, srcM}, {DNNL_ARG_WEIGHTS, wM}, {DNNL_ARG_DST, dstM}});
    s.wait();
  });
}

double dnnlMatmulInt8(dnnl::engine& eng, dnnl::stream& s, int64_t m, int64_t k, int64_t n) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::primitive_attr attr;
  attr.set_output_scales(1 << 1, std::vector<float>(static_cast<size_t>(n), 0.01f));
  auto aMd = dnnl::memory::desc({m, k}, dt::s8, tag::ab), bAny = dnnl::memory::desc({k, n}, dt::s8, tag::any);
  auto yMd = dnnl::memory::desc({m, n}, dt::s8, tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(aMd, bAny, yMd), attr, eng);
  dnnl::memory aM(aMd, eng), bM(pd.weights_desc(), eng), yM(yMd, eng);
  std::memset(aM.get_data_handle(), 1, aMd.get_size());
  std::memset(bM.get_data_handle(), 1, pd.weights_desc().get_size());
  dnnl::matmul mm(pd);
  return medianMs([&] {
    mm.execute(s, {{DNNL_ARG_SRC, aM}, {DNNL_ARG_WEIGHTS, bM}, {DNNL_ARG_DST, yM}});
    s.wait();
  });
}

void row(const std::string& name, double gop, double peer, double us, bool same, double refMs) {
  std::printf("%-34s %9.3f %9s %9.3f %8s %9.2f   %s\n", name.c_str(), gop, peer > 0 ? std::to_string(peer).substr(0, 6).c_str() : "-", us,
              peer > 0 ? (std::to_string(us / peer).substr(0, 4) + "x").c_str() : "-", refMs,
              same ? "(the reference's bits)" : "(DIFFERS from the reference)");
}

int run(int threads) {
  auto jit = compiler::host::HostJit::create();
  if (!jit) return std::fprintf(stderr, "%s\n", jit.diag().str().c_str()), 1;
  const compiler::host::CpuShape cpu = compiler::host::jitCpuShape(**jit);
  support::ThreadPool pool(threads);
  omp_set_num_threads(threads);  // oneDNN's threads are OpenMP's
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  std::printf("int8, %d thread(s), CPU %s%s%s; times are medians of 20 runs in ms (the reference: one run)\n", threads,
              (*jit)->cpu().c_str(), (*jit)->usesAvx512() ? " with AVX-512" : "", (*jit)->usesAmx() ? " and AMX" : "");
  // oneDNN picks its kernels by the same CPU: with AMX it uses AMX's tiles too.
  std::printf("oneDNN's ISA here: %s\n", (static_cast<unsigned>(dnnl::get_effective_cpu_isa()) &
                                          static_cast<unsigned>(dnnl::cpu_isa::avx512_core_amx)) ==
                                                 static_cast<unsigned>(dnnl::cpu_isa::avx512_core_amx)
                                             ? "AMX"
                                             : "not AMX");
  std::printf("%-34s %9s %9s %9s %8s %9s\n", "kernel", "GOP", "oneDNN", "accelc", "ratio", "reference");
  struct ConvRow {
    const char* name;
    int64_t c, h, m, k, stride, group;
  };
  const ConvRow convs[] = {
      {"qconv3x3 64->64 @56 (layer1)", 64, 56, 64, 3, 1, 1},     {"qconv3x3 128->128 @28 (layer2)", 128, 28, 128, 3, 1, 1},
      {"qconv3x3 256->256 @14 (layer3)", 256, 14, 256, 3, 1, 1}, {"qconv3x3 512->512 @7 (layer4)", 512, 7, 512, 3, 1, 1},
      {"qdepthwise3x3 144 @56", 144, 56, 144, 3, 1, 144},        {"qdepthwise3x3 384 @14", 384, 14, 384, 3, 1, 384},
  };
  for (const ConvRow& r : convs) {
    runtime::QConvAttrs a;
    a.strides = {r.stride, r.stride}, a.pads = {r.k / 2, r.k / 2, r.k / 2, r.k / 2}, a.group = r.group, a.zeroPoint = 1;
    const Tensor x = randomTensor(DType::kInt8, {1, r.c, r.h, r.h}, 1), w = randomTensor(DType::kInt8, {r.m, r.c / r.group, r.k, r.k}, 2);
    const Tensor b = randomTensor(DType::kInt32, {r.m}, 3, -1000, 1000), mult = randomTensor(DType::kInt32, {r.m}, 4, 1 << 30, (1 << 30) + 99999);
    const Tensor sh = randomTensor(DType::kInt32, {r.m}, 5, 8, 12);
    const std::vector<const Tensor*> in = {&x, &w, &b, &mult, &sh};
    Tensor want;
    const double refMs = referenceMs(runtime::OpKind::kQConv, a, in, want);
    const double dn = dnnlInt8(eng, strm, r.c, r.h, r.m, r.k, r.stride, r.group);
    const auto [ms, same] = ours(**jit, compiler::host::qconvPlan(runtime::OpKind::kQConv, a, x.shape(), w.shape(), cpu, true), in, want, &pool);
    const double oh = static_cast<double>(want.dim(2));
    row(r.name, 2.0 * r.m * oh * oh * (r.c / r.group) * r.k * r.k * 1e-9, dn, ms, same, refMs);
  }
  for (const auto& mk : {std::array<int64_t, 3>{1, 512, 1000}, {128, 768, 768}, {196, 1152, 256}}) {
    const int64_t m = mk[0], k = mk[1], n = mk[2];
    runtime::QConvAttrs a;
    const Tensor x = randomTensor(DType::kInt8, {m, k}, 6), w = randomTensor(DType::kInt8, {n, k}, 7);
    const Tensor b = randomTensor(DType::kInt32, {n}, 8), mult = randomTensor(DType::kInt32, {n}, 9, 1 << 30, (1 << 30) + 99999);
    const Tensor sh = randomTensor(DType::kInt32, {n}, 10, 8, 12);
    const std::vector<const Tensor*> in = {&x, &w, &b, &mult, &sh};
    Tensor want;
    const double refMs = referenceMs(runtime::OpKind::kQGemm, a, in, want);
    const double dn = dnnlMatmulInt8(eng, strm, m, k, n);
    const auto [ms, same] = ours(**jit, compiler::host::qconvPlan(runtime::OpKind::kQGemm, a, x.shape(), w.shape(), cpu, true), in, want, &pool);
    row("qgemm " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n), 2.0 * m * k * n * 1e-9, dn, ms, same,
        refMs);
  }
  {  // the host steps of an accelerator bundle for ResNet-18
    const Tensor img = randomTensor(DType::kFloat32, {1, 3, 224, 224}, 11), scale = Tensor::of<float>({}, {0.0187f});
    const Tensor zp = Tensor::of<int8_t>({}, {3});
    runtime::AxisAttrs axis;
    Tensor q;
    double refMs = referenceMs(runtime::OpKind::kQuantizeLinear, axis, {&img, &scale, &zp}, q);
    auto [ms, same] = ours(**jit, compiler::host::quantizePlan(axis, img.shape(), {}, DType::kInt8, cpu), {&img, &scale, &zp}, q, &pool);
    row("QuantizeLinear 1x3x224x224", 0, 0, ms, same, refMs);
    runtime::Im2colAttrs a;
    a.kernelShape = {7, 7}, a.strides = {2, 2}, a.pads = {3, 3, 3, 3}, a.padValue = 3;
    Tensor col;
    refMs = referenceMs(runtime::OpKind::kIm2col, a, {&q}, col);
    std::tie(ms, same) = ours(**jit, compiler::host::im2colPlan(a, q.shape(), cpu), {&q}, col, &pool);
    row("Im2col 7x7 s2 of 1x3x224x224", 0, 0, ms, same, refMs);
    const Tensor logits = randomTensor(DType::kInt8, {1, 1000}, 12);
    Tensor f;
    refMs = referenceMs(runtime::OpKind::kDequantizeLinear, axis, {&logits, &scale, &zp}, f);
    std::tie(ms, same) = ours(**jit, compiler::host::dequantizePlan(axis, logits.shape(), DType::kInt8, {}, true, cpu),
                              {&logits, &scale, &zp}, f, &pool);
    row("DequantizeLinear 1x1000", 0, 0, ms, same, refMs);
  }
  return 0;
}

}  // namespace
}  // namespace accelc

int main(int argc, char** argv) {
  const int threads = accelc::bench::threadsOption(argc, argv);
  return accelc::run(threads);
}
