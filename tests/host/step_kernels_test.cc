// tests/host/step_kernels_test.cc — a bundle's host steps on generated code:
// the steps with a chain (float elementwise ops, Gelu in both forms, a
// broadcast scalar) run on the JIT, the others on their reference kernels,
// and the outputs are the all-reference run's within the host-code rule
// (erf, tanh and exp are vector polynomials there); a step without a
// chain keeps its reference kernel, and a kernel for a step that is not a
// host step is refused.
#include "compiler/host/step_kernels.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/executor.h"
#include "runtime/fsim_device.h"
#include "tests/host/host_rule.h"
#include "tests/host/host_util.h"

namespace accelc::compiler::host {
namespace {

using runtime::OpKind;
using runtime::Tensor;

/// How many of `got`'s floats lie further than `bound` from `want`'s.
int outside(const Tensor& got, const Tensor& want, float bound) {
  int bad = 0;
  for (int64_t i = 0; i < want.numel(); ++i) bad += std::fabs(got.data<float>()[i] - want.data<float>()[i]) > bound;
  return bad;
}

/// Σ|terms| of an output of hostBundle's chain: its inputs, which no op of it scales by much more than one,
/// and the output itself.
Tensor chainTerms(const std::vector<Tensor>& in, const Tensor& out) {
  Tensor t = out;
  for (int64_t i = 0; i < t.numel(); ++i)
    t.data<float>()[i] =
        std::fabs(out.data<float>()[i]) + std::fabs(in[0].data<float>()[i]) + std::fabs(in[1].data<float>()[0]);
  return t;
}

/// A bundle of host steps only: s = x + y (y one element), g = Gelu(s), t = Gelu_tanh(g), u = Sigmoid(t), o = Neg(u)
/// (Neg has no generated kernel).
runtime::Bundle hostBundle(const isa::Target& t) {
  runtime::GeluAttrs tanhForm;
  tanhForm.approximate = runtime::GeluApprox::kTanh;
  const runtime::Shape shape = {3, 37};
  return testing::hostOnlyBundle(
      t, {{"x", shape}, {"y", {1}}, {"s", shape}, {"g", shape}, {"t", shape}, {"u", shape}, {"o", shape}}, {0, 1}, {6},
      {testing::hostStep("/s", OpKind::kAdd, runtime::defaultAttrs(OpKind::kAdd), {0, 1}, {2}),
       testing::hostStep("/g", OpKind::kGelu, runtime::defaultAttrs(OpKind::kGelu), {2}, {3}),
       testing::hostStep("/t", OpKind::kGelu, tanhForm, {3}, {4}),
       testing::hostStep("/u", OpKind::kSigmoid, runtime::defaultAttrs(OpKind::kSigmoid), {4}, {5}),
       testing::hostStep("/o", OpKind::kNeg, runtime::defaultAttrs(OpKind::kNeg), {5}, {6})});
}

TEST(StepKernelsTest, HostStepsWithAChainRunOnTheJitWithinTheRuleOfTheReference) {
  const isa::Target t = testing::presetTarget("tiny");
  const runtime::Bundle b = hostBundle(t);
  auto jit = HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.diag().str();
  auto kernels = generatedHostKernels(b, **jit, "host.acx");
  ASSERT_TRUE(kernels.isOk()) << kernels.diag().str();
  // Add, both Gelus and Sigmoid fuse into one chain; Neg keeps its reference kernel.
  ASSERT_EQ(kernels->size(), 1u);
  EXPECT_EQ(kernels->at(0).fuses, 3u);
  EXPECT_EQ(kernels->count(4), 0u);
  const std::vector<Tensor> in = testing::randomInputs(b, 3, -3.0f, 3.0f);
  const testing::HostRun a = testing::runOnce(b, t, *kernels, in), r = testing::runOnce(b, t, {}, in);
  ASSERT_EQ(a.outputs.size(), 1u);
  ASSERT_EQ(r.outputs.size(), 1u);
  testing::expectClose(a.outputs[0], r.outputs[0], chainTerms(in, r.outputs[0]), "o");
  const std::vector<std::string>& kinds = a.stats.stepKernel;
  ASSERT_EQ(kinds.size(), 5u);
  EXPECT_EQ(kinds[0].rfind("jit x86-64", 0), 0u) << kinds[0];
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(kinds[i], kinds[0] + " (fused)");
  EXPECT_EQ(kinds[4], runtime::kReferenceKernel);
  for (const std::string& k : r.stats.stepKernel) EXPECT_EQ(k, runtime::kReferenceKernel);
}

TEST(StepKernelsTest, AValueReadOutsideTheRunStopsTheFusion) {
  const isa::Target t = testing::presetTarget("tiny");
  runtime::Bundle b = hostBundle(t);
  b.outputs.push_back(3);  // g, the first Gelu's output, is now read outside the run
  auto jit = HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.diag().str();
  auto kernels = generatedHostKernels(b, **jit, "host.acx");
  ASSERT_TRUE(kernels.isOk()) << kernels.diag().str();
  ASSERT_EQ(kernels->size(), 2u);  // Add -> Gelu, then Gelu_tanh -> Sigmoid
  EXPECT_EQ(kernels->at(0).fuses, 1u);
  EXPECT_EQ(kernels->at(2).fuses, 1u);
  const std::vector<Tensor> in = testing::randomInputs(b, 3, -3.0f, 3.0f);
  const testing::HostRun a = testing::runOnce(b, t, *kernels, in), r = testing::runOnce(b, t, {}, in);
  ASSERT_EQ(a.outputs.size(), 2u);
  ASSERT_EQ(r.outputs.size(), 2u);
  for (size_t i = 0; i < 2; ++i)
    testing::expectClose(a.outputs[i], r.outputs[i], chainTerms(in, r.outputs[i]), "output");
  runtime::HostKernels overlapping = *kernels;
  overlapping[1] = overlapping[0];  // step 1 is fused into step 0's kernel
  runtime::FsimDevice d3(t);
  auto e = runtime::Executor::create(b, d3, "host.acx", overlapping);
  ASSERT_FALSE(e.isOk());
  EXPECT_EQ(e.diag().str(), "host.acx: error: step 1 has a kernel and is fused into step 0's");
}

TEST(StepKernelsTest, ElementwiseStepsFuseIntoAConvolutionsEpilogue) {
  const isa::Target t = testing::presetTarget("tiny");
  const runtime::Bundle b = testing::convBundle(t, false);
  auto jit = HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.diag().str();
  auto kernels = generatedHostKernels(b, **jit, "conv.acx");
  ASSERT_TRUE(kernels.isOk()) << kernels.diag().str();
  ASSERT_EQ(kernels->size(), 1u);
  EXPECT_EQ(kernels->at(0).fuses, 2u);
  const std::vector<Tensor> in = testing::randomInputs(b, 5, -1.0f, 1.0f);
  const testing::HostRun a = testing::runOnce(b, t, *kernels, in), r = testing::runOnce(b, t, {}, in);
  ASSERT_EQ(a.outputs.size(), 1u);
  ASSERT_EQ(r.outputs.size(), 1u);
  // The convolution sums in another order: each output within 1e-5 of the 55 terms' magnitude (at most 2 each).
  EXPECT_EQ(outside(a.outputs[0], r.outputs[0], 1e-5f * 55 * 2), 0);
  EXPECT_EQ(a.stats.stepKernel[2].find("(fused)") != std::string::npos, true);
}

TEST(StepKernelsTest, ABiasBroadcastOverRowsFusesIntoAProductsEpilogue) {
  // y = MatMul(x, w), z = y + bias (the output's last dimension), o = Relu(z): one kernel, for products whose B
  // is read as it is (10 rows) and packed into panels (70 rows: 16 of its 20 columns in panels and the last 4 a
  // tail product, each taking the chain).
  const isa::Target t = testing::presetTarget("tiny");
  for (const int64_t rows : {5, 35}) {
    const runtime::Shape x = {2, rows, 7}, y = {2, rows, 20};
    const runtime::Bundle b = testing::hostOnlyBundle(
        t, {{"x", x}, {"w", {7, 20}}, {"bias", {20}}, {"y", y}, {"z", y}, {"o", y}}, {0, 1, 2}, {5},
        {testing::hostStep("/mm", OpKind::kMatMul, runtime::defaultAttrs(OpKind::kMatMul), {0, 1}, {3}),
         testing::hostStep("/add", OpKind::kAdd, runtime::defaultAttrs(OpKind::kAdd), {3, 2}, {4}),
         testing::hostStep("/relu", OpKind::kRelu, runtime::defaultAttrs(OpKind::kRelu), {4}, {5})});
    auto jit = HostJit::create();
    ASSERT_TRUE(jit.isOk()) << jit.diag().str();
    auto kernels = generatedHostKernels(b, **jit, "mm.acx");
    ASSERT_TRUE(kernels.isOk()) << kernels.diag().str();
    ASSERT_EQ(kernels->size(), 1u) << rows;
    EXPECT_EQ(kernels->at(0).fuses, 2u) << rows;
    const std::vector<Tensor> in = testing::randomInputs(b, 7, -1.0f, 1.0f);
    const testing::HostRun a = testing::runOnce(b, t, *kernels, in), r = testing::runOnce(b, t, {}, in);
    ASSERT_EQ(a.outputs.size(), 1u);
    // The product sums in another order: each output within 1e-5 of its 7 terms and the bias (at most 1 each).
    EXPECT_EQ(outside(a.outputs[0], r.outputs[0], 1e-5f * 8), 0) << rows;
  }
}

TEST(StepKernelsTest, ARunWhoseBroadcastCannotFuseIsCutBeforeIt) {
  // y = MatMul(x [2, 8, 16], w), r = Relu(y), o = r + pos [8, 24]: pos repeats every 192 outputs, but the
  // product's rows (its batches merged) move the output by 24, so it cannot be read in the epilogue; the run
  // is cut before the Add (MatMul with its Relu, then the Add), not dropped to the MatMul alone.
  const isa::Target t = testing::presetTarget("tiny");
  const runtime::Shape y = {2, 8, 24};
  const runtime::Bundle b = testing::hostOnlyBundle(
      t, {{"x", {2, 8, 16}}, {"w", {16, 24}}, {"pos", {8, 24}}, {"y", y}, {"r", y}, {"o", y}}, {0, 1, 2}, {5},
      {testing::hostStep("/mm", OpKind::kMatMul, runtime::defaultAttrs(OpKind::kMatMul), {0, 1}, {3}),
       testing::hostStep("/relu", OpKind::kRelu, runtime::defaultAttrs(OpKind::kRelu), {3}, {4}),
       testing::hostStep("/add", OpKind::kAdd, runtime::defaultAttrs(OpKind::kAdd), {4, 2}, {5})});
  auto jit = HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.diag().str();
  auto kernels = generatedHostKernels(b, **jit, "cut.acx");
  ASSERT_TRUE(kernels.isOk()) << kernels.diag().str();
  ASSERT_EQ(kernels->size(), 2u);
  EXPECT_EQ(kernels->at(0).fuses, 1u);
  EXPECT_EQ(kernels->count(2), 1u);
  const std::vector<Tensor> in = testing::randomInputs(b, 9, -1.0f, 1.0f);
  const testing::HostRun a = testing::runOnce(b, t, *kernels, in), r = testing::runOnce(b, t, {}, in);
  EXPECT_EQ(outside(a.outputs[0], r.outputs[0], 1e-5f * 17), 0);
}

TEST(StepKernelsTest, AKernelForAStepThatIsNotAHostStepIsRefused) {
  const isa::Target t = testing::presetTarget("tiny");
  const runtime::Bundle b = hostBundle(t);
  runtime::HostKernels wrong;
  wrong[9] = runtime::HostKernel{"jit", nullptr};
  runtime::FsimDevice d(t);
  auto e = runtime::Executor::create(b, d, "host.acx", wrong);
  ASSERT_FALSE(e.isOk());
  EXPECT_EQ(e.diag().str(), "host.acx: error: a host kernel for step 9, which is not a host step");
}

}  // namespace
}  // namespace accelc::compiler::host
