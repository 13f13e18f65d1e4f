// bench/host_kernels_bench.cc — the generated float32 loop kernels
// (compiler/host/nn_kernels.h) beside oneDNN, Halide's Adams2019-scheduled
// pipelines (bench/halide_peer.h) and the reference kernels, in one run: 3x3
// convolutions of ResNet's layer shapes, depthwise convolutions of
// MobileNet's, and matrix products; one thread unless --threads N; the
// median of 20 runs after a warm-up. --no-halide leaves Halide's column out
// (its autoscheduler takes minutes for the long reductions).
//
// oneDNN (2.x, Debian's libdnnl-dev) gets NCHW activations, as a host step
// holds them, and weights in the layout it picks (reordered once, outside the
// timing, as a compiler would for constants). Ours read NCHW and OIHW, and
// take the weights as constants, packed on the first run (the warm-up).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>
#include <random>
#include <string>
#include <vector>

#include "bench/halide_peer.h"
#include "bench/timing.h"
#include "compiler/host/compiled_kernel.h"
#include "compiler/host/nn_kernels.h"
#include "compiler/host/step_kernels.h"
#include "runtime/ops.h"

namespace accelc {
namespace {

using compiler::host::CompiledKernel;
using compiler::host::KernelPlan;
using runtime::Shape;
using runtime::Tensor;

using bench::medianMs;

Tensor randomTensor(const Shape& s, uint32_t seed) {
  Tensor t(support::DType::kFloat32, s);
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(g);
  return t;
}

struct ConvRow {
  const char* name;
  int64_t c, h, m, k, stride, group;
};

/// oneDNN's forward-inference convolution on NCHW activations; returns its median ms.
double dnnlConv(dnnl::engine& eng, dnnl::stream& s, const ConvRow& r, const Tensor& x, const Tensor& w, const Tensor& b,
                Tensor& y) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  const int64_t pad = r.k / 2, oh = y.dim(2);
  const dnnl::memory::dims src = {1, r.c, r.h, r.h}, dst = {1, r.m, oh, oh}, bias = {r.m};
  const dnnl::memory::dims wts = r.group == 1 ? dnnl::memory::dims{r.m, r.c, r.k, r.k}
                                              : dnnl::memory::dims{r.group, r.m / r.group, r.c / r.group, r.k, r.k};
  auto srcMd = dnnl::memory::desc(src, dt::f32, tag::nchw), dstMd = dnnl::memory::desc(dst, dt::f32, tag::nchw);
  auto wAny = dnnl::memory::desc(wts, dt::f32, tag::any), bMd = dnnl::memory::desc(bias, dt::f32, tag::x);
  dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, srcMd,
                                    wAny, bMd, dstMd, {r.stride, r.stride}, {pad, pad}, {pad, pad});
  dnnl::convolution_forward::primitive_desc pd(d, eng);
  dnnl::memory srcM(srcMd, eng, const_cast<float*>(x.data<float>())), dstM(dstMd, eng, y.data<float>());
  dnnl::memory bM(bMd, eng, const_cast<float*>(b.data<float>()));
  dnnl::memory wPlain(dnnl::memory::desc(wts, dt::f32, r.group == 1 ? tag::oihw : tag::goihw), eng,
                      const_cast<float*>(w.data<float>()));
  dnnl::memory wM(pd.weights_desc(), eng);
  dnnl::reorder(wPlain, wM).execute(s, wPlain, wM);
  s.wait();
  dnnl::convolution_forward conv(pd);
  return medianMs([&] {
    conv.execute(s, {{DNNL_ARG_SRC, srcM}, {DNNL_ARG_WEIGHTS, wM}, {DNNL_ARG_BIAS, bM}, {DNNL_ARG_DST, dstM}});
    s.wait();
  });
}

double dnnlMatmul(dnnl::engine& eng, dnnl::stream& s, int64_t m, int64_t k, int64_t n, const Tensor& a, const Tensor& b,
                  Tensor& y) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  auto aMd = dnnl::memory::desc({m, k}, dt::f32, tag::ab), bAny = dnnl::memory::desc({k, n}, dt::f32, tag::any);
  auto yMd = dnnl::memory::desc({m, n}, dt::f32, tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(aMd, bAny, yMd), eng);
  dnnl::memory aM(aMd, eng, const_cast<float*>(a.data<float>())), yM(yMd, eng, y.data<float>());
  dnnl::memory bPlain(dnnl::memory::desc({k, n}, dt::f32, tag::ab), eng, const_cast<float*>(b.data<float>()));
  dnnl::memory bM(pd.weights_desc(), eng);
  dnnl::reorder(bPlain, bM).execute(s, bPlain, bM);
  s.wait();
  dnnl::matmul mm(pd);
  return medianMs([&] {
    mm.execute(s, {{DNNL_ARG_SRC, aM}, {DNNL_ARG_WEIGHTS, bM}, {DNNL_ARG_DST, yM}});
    s.wait();
  });
}

/// Our kernel's median ms on `io` (inputs, output).
double ours(compiler::host::HostJit& jit, const KernelPlan& p, std::vector<void*> io, support::ThreadPool* pool) {
  auto k = CompiledKernel::compile(jit, p.kernel, p.schedule, "bench");
  if (!k) {
    std::fprintf(stderr, "%s\n", k.diag().str().c_str());
    std::exit(1);
  }
  io.resize(k->buffers().size(), nullptr);
  return medianMs([&] { k->run(io, pool); });
}

double maxDiff(const Tensor& a, const Tensor& b) {
  double d = 0;
  for (int64_t i = 0; i < a.numel(); ++i) d = std::max(d, std::fabs(double{a.data<float>()[i]} - b.data<float>()[i]));
  return d;
}

int run(int threads, bool halide) {
  auto jit = compiler::host::HostJit::create();
  if (!jit) return std::fprintf(stderr, "%s\n", jit.diag().str().c_str()), 1;
  const compiler::host::CpuShape cpu = compiler::host::jitCpuShape(**jit);
  support::ThreadPool pool(threads);
  omp_set_num_threads(threads);  // oneDNN's threads are OpenMP's
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  std::printf("float32, %d thread(s), CPU %s%s; times are medians of 20 runs in ms\n", threads, (*jit)->cpu().c_str(),
              (*jit)->usesAvx512() ? " with AVX-512" : "");
  std::printf("%-34s %9s %9s %9s %9s %8s %9s\n", "kernel", "GFLOP", "oneDNN", "Halide", "accelc", "ratio", "reference");
  const ConvRow convs[] = {
      {"conv3x3 64->64 @56 (layer1)", 64, 56, 64, 3, 1, 1},
      {"conv3x3 128->128 @28 (layer2)", 128, 28, 128, 3, 1, 1},
      {"conv3x3 256->256 @14 (layer3)", 256, 14, 256, 3, 1, 1},
      {"conv3x3 512->512 @7 (layer4)", 512, 7, 512, 3, 1, 1},
      {"conv3x3 64->128 @56 s2", 64, 56, 128, 3, 2, 1},
      {"depthwise3x3 144 @56", 144, 56, 144, 3, 1, 144},
      {"depthwise3x3 384 @14", 384, 14, 384, 3, 1, 384},
      {"depthwise5x5 576 @14 s2", 576, 14, 576, 5, 2, 576},
      {"depthwise3x3 16 @112 s2", 16, 112, 16, 3, 2, 16},
      {"depthwise3x3 72 @56 s2", 72, 56, 72, 3, 2, 72},
      {"conv3x3 3->16 @224 s2 (stem)", 3, 224, 16, 3, 2, 1},
      {"conv7x7 3->64 @224 s2 (ResNet stem)", 3, 224, 64, 7, 2, 1},
  };
  for (const ConvRow& r : convs) {
    runtime::ConvAttrs a;
    a.strides = {r.stride, r.stride}, a.pads = {r.k / 2, r.k / 2, r.k / 2, r.k / 2}, a.group = r.group;
    const Tensor x = randomTensor({1, r.c, r.h, r.h}, 1), w = randomTensor({r.m, r.c / r.group, r.k, r.k}, 2),
                 b = randomTensor({r.m}, 3);
    std::vector<Tensor> ref(1);
    const auto t0 = std::chrono::steady_clock::now();
    (void)runtime::runOp(runtime::OpKind::kConv, a, {&x, &w, &b}, ref, support::Location());
    const double refMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    Tensor y1(support::DType::kFloat32, ref[0].shape()), y2(support::DType::kFloat32, ref[0].shape());
    const double dn = dnnlConv(eng, strm, r, x, w, b, y1);
    Tensor y3(support::DType::kFloat32, ref[0].shape());
    const double hl = halide ? bench::halideConv(x, w, b, r.stride, r.group, threads, y3) : 0.0;
    auto plan = compiler::host::convPlan(a, x.shape(), w.shape(), true, cpu, true);  // a model's weights are constants
    const double us = ours(**jit, *plan,
                           {const_cast<float*>(x.data<float>()), const_cast<float*>(w.data<float>()),
                            const_cast<float*>(b.data<float>()), y2.data<float>()},
                           &pool);
    const double oh = ref[0].dim(2);
    const double gflop = 2.0 * r.m * oh * oh * (r.c / r.group) * r.k * r.k * 1e-9;
    std::printf("%-34s %9.3f %9.3f %9.3f %9.3f %7.2fx %9.1f   (max |diff| %.1e vs oneDNN, %.1e vs Halide, %.1e vs reference)\n",
                r.name, gflop, dn, hl, us, us / dn, refMs, maxDiff(y1, y2), maxDiff(y3, y2), maxDiff(ref[0], y2));
  }
  const int64_t mats[][3] = {{1, 512, 1000}, {128, 768, 768}, {512, 512, 512}, {196, 1152, 256}};
  for (const auto& mk : mats) {
    const int64_t m = mk[0], k = mk[1], n = mk[2];
    const Tensor A = randomTensor({m, k}, 4), B = randomTensor({k, n}, 5);
    Tensor y1(support::DType::kFloat32, {m, n}), y2(support::DType::kFloat32, {m, n});
    std::vector<Tensor> ref(1);
    const auto t0 = std::chrono::steady_clock::now();
    (void)runtime::runOp(runtime::OpKind::kMatMul, runtime::NoAttrs{}, {&A, &B}, ref, support::Location());
    const double refMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const double dn = dnnlMatmul(eng, strm, m, k, n, A, B, y1);
    Tensor y3(support::DType::kFloat32, {m, n});
    const double hl = halide ? bench::halideMatmul(A, B, threads, y3) : 0.0;
    auto plan = compiler::host::matmulPlan(A.shape(), B.shape(), {m, n}, cpu, true);
    const double us = ours(**jit, *plan, {const_cast<float*>(A.data<float>()), const_cast<float*>(B.data<float>()), y2.data<float>()}, &pool);
    const std::string name = "matmul " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
    std::printf("%-34s %9.3f %9.3f %9.3f %9.3f %7.2fx %9.1f   (max |diff| %.1e vs oneDNN, %.1e vs Halide, %.1e vs reference)\n",
                name.c_str(), 2.0 * m * k * n * 1e-9, dn, hl, us, us / dn, refMs, maxDiff(y1, y2), maxDiff(y3, y2),
                maxDiff(ref[0], y2));
  }
  return 0;
}

}  // namespace
}  // namespace accelc

int main(int argc, char** argv) {
  const int threads = accelc::bench::threadsOption(argc, argv);
  ::setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1);  // Halide's thread pool, read when it starts
  bool halide = true;
  for (int i = 1; i < argc; ++i) halide = halide && std::string(argv[i]) != "--no-halide";
  return accelc::run(threads, halide);
}
