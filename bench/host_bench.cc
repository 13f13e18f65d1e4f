// bench/host_bench.cc — generated host kernels beside the reference kernels:
// fused elementwise chains compiled by the ORC JIT (compiler/host) against the
// same computation on the runtime's reference kernels, op by op, on one
// million float32 elements, one thread; the median of 20 runs after a warm-up.
// The reference runs include allocating each op's output, as host steps do;
// the generated kernel writes into a buffer allocated once.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "bench/timing.h"
#include "compiler/host/jit.h"
#include "runtime/ops.h"

namespace accelc {
namespace {

using compiler::host::EwKernel;
using compiler::host::EwOp;
using runtime::OpKind;
using runtime::Tensor;

using bench::medianMs;

Tensor op(OpKind k, const std::vector<const Tensor*>& in) {
  std::vector<Tensor> out(1);
  (void)runtime::runOp(k, runtime::defaultAttrs(k), in, out, support::Location());
  return out[0];
}

int run() {
  auto jit = compiler::host::HostJit::create();
  if (!jit) return std::fprintf(stderr, "%s\n", jit.diag().str().c_str()), 1;
  const int64_t n = 1 << 20;
  Tensor a(support::DType::kFloat32, {n}), b(support::DType::kFloat32, {n}), out(support::DType::kFloat32, {n});
  std::mt19937 g(1);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  for (int64_t i = 0; i < n; ++i) a.data<float>()[i] = d(g), b.data<float>()[i] = d(g);
  Tensor half(support::DType::kFloat32, {1}), one(support::DType::kFloat32, {1}), r2(support::DType::kFloat32, {1});
  half.data<float>()[0] = 0.5f, one.data<float>()[0] = 1.0f, r2.data<float>()[0] = 1.4142135f;
  struct Row {
    const char* name;
    std::function<void(EwKernel&)> build;
    std::function<void()> reference;
  };
  const std::vector<Row> rows = {
      {"Add -> Relu", [](EwKernel& k) { k.unary(EwOp::kRelu, k.binary(EwOp::kAdd, k.input(0), k.input(1))); },
       [&] {
         const Tensor s = op(OpKind::kAdd, {&a, &b});
         (void)op(OpKind::kRelu, {&s});
       }},
      {"Sigmoid", [](EwKernel& k) { k.unary(EwOp::kSigmoid, k.input(0)); }, [&] { (void)op(OpKind::kSigmoid, {&a}); }},
      {"Mul -> Add -> Clip", [](EwKernel& k) { k.clip(k.binary(EwOp::kAdd, k.binary(EwOp::kMul, k.input(0), k.input(1)), k.input(0)), 0.0f, 6.0f); },
       [&] {
         const Tensor m = op(OpKind::kMul, {&a, &b}), s = op(OpKind::kAdd, {&m, &a});
         Tensor lo(support::DType::kFloat32, {1}), hi(support::DType::kFloat32, {1});
         lo.data<float>()[0] = 0.0f, hi.data<float>()[0] = 6.0f;
         (void)op(OpKind::kClip, {&s, &lo, &hi});
       }},
      {"Gelu (erf form)",
       [](EwKernel& k) {
         const int x = k.input(0);
         k.binary(EwOp::kMul, k.binary(EwOp::kMul, x, k.constant(0.5f)),
                  k.binary(EwOp::kAdd, k.constant(1.0f), k.unary(EwOp::kErf, k.binary(EwOp::kDiv, x, k.constant(1.4142135f)))));
       },
       [&] {
         const Tensor q = op(OpKind::kDiv, {&a, &r2}), e = op(OpKind::kErf, {&q}), h = op(OpKind::kMul, {&a, &half}),
                      p = op(OpKind::kAdd, {&one, &e});
         (void)op(OpKind::kMul, {&h, &p});
       }}};
  std::printf("%-20s %12s %12s %8s   (%lld float32 elements, 1 thread, CPU %s, %s)\n", "chain", "reference ms",
              "jit ms", "speedup", static_cast<long long>(n), (*jit)->cpu().c_str(),
              (*jit)->usesAvx512() ? "with AVX-512" : "without AVX-512");
  for (const Row& r : rows) {
    EwKernel k;
    k.numInputs = 2;
    r.build(k);
    auto fn = (*jit)->compile(k, {16, 2}, r.name);
    if (!fn) return std::fprintf(stderr, "%s\n", fn.diag().str().c_str()), 1;
    const float* in[] = {a.data<float>(), b.data<float>()};
    const double ref = medianMs(r.reference), gen = medianMs([&] { (*fn)(in, out.data<float>(), n); });
    std::printf("%-20s %12.3f %12.3f %7.1fx\n", r.name, ref, gen, ref / gen);
  }
  return 0;
}

}  // namespace
}  // namespace accelc

int main() { return accelc::run(); }
