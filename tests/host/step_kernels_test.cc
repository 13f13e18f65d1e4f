// tests/host/step_kernels_test.cc — a bundle's host steps on generated code:
// the steps with a chain (float elementwise ops, Gelu in both forms, a
// broadcast scalar) run on the JIT, the others on their reference kernels,
// and the outputs are the all-reference run's bit for bit; a step without a
// chain keeps its reference kernel, and a kernel for a step that is not a
// host step is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "compiler/host/step_kernels.h"
#include "runtime/executor.h"
#include "runtime/fsim_device.h"
#include "tests/test_util.h"

namespace accelc::compiler::host {
namespace {

using runtime::OpKind;
using runtime::Step;
using runtime::Tensor;

/// A bundle of host steps only: s = x + y (y one element), g = Gelu(s), t = Gelu_tanh(g), u = Sigmoid(t), o = Neg(u)
/// (Neg has no generated kernel).
runtime::Bundle hostBundle(const isa::Target& t) {
  runtime::Bundle b;
  b.hash = t.hash;
  const runtime::Shape shape = {3, 37};
  const char* names[] = {"x", "y", "s", "g", "t", "u", "o"};
  for (int i = 0; i < 7; ++i) {
    runtime::TensorSlot s;
    s.name = names[i];
    s.addr = static_cast<uint64_t>(i) * 4096;
    s.shape = i == 1 ? runtime::Shape{1} : shape;
    b.tensors.push_back(s);
  }
  b.window = 7 * 4096;
  b.inputs = {0, 1};
  b.outputs = {6};
  auto step = [&](OpKind op, std::vector<int> in, int out, runtime::Attrs attrs) {
    Step s;
    s.kind = Step::Kind::kHost, s.name = "/" + std::string(names[out]), s.op = op, s.attrs = std::move(attrs);
    s.inputs = std::move(in), s.outputs = {out};
    b.steps.push_back(s);
  };
  runtime::GeluAttrs tanhForm;
  tanhForm.approximate = runtime::GeluApprox::kTanh;
  step(OpKind::kAdd, {0, 1}, 2, runtime::defaultAttrs(OpKind::kAdd));
  step(OpKind::kGelu, {2}, 3, runtime::defaultAttrs(OpKind::kGelu));
  step(OpKind::kGelu, {3}, 4, tanhForm);
  step(OpKind::kSigmoid, {4}, 5, runtime::defaultAttrs(OpKind::kSigmoid));
  step(OpKind::kNeg, {5}, 6, runtime::defaultAttrs(OpKind::kNeg));
  return b;
}

std::vector<Tensor> inputs() {
  Tensor x(support::DType::kFloat32, {3, 37}), y(support::DType::kFloat32, {1});
  std::mt19937 g(3);
  std::uniform_real_distribution<float> d(-3.0f, 3.0f);
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = d(g);
  y.data<float>()[0] = 0.25f;
  return {x, y};
}

TEST(StepKernelsTest, HostStepsWithAChainRunOnTheJitAndGiveTheReferencesBits) {
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
  runtime::FsimDevice d1(t), d2(t);
  auto generated = runtime::Executor::create(b, d1, "host.acx", *kernels);
  auto reference = runtime::Executor::create(b, d2, "host.acx");
  ASSERT_TRUE(generated.isOk() && reference.isOk());
  auto a = (*generated)->run(inputs());
  auto r = (*reference)->run(inputs());
  ASSERT_TRUE(a.isOk()) << a.diag().str();
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  EXPECT_EQ((*a)[0].bytes(), (*r)[0].bytes());
  const std::vector<std::string> kinds = (*generated)->stats().stepKernel;
  ASSERT_EQ(kinds.size(), 5u);
  EXPECT_EQ(kinds[0].rfind("jit x86-64", 0), 0u) << kinds[0];
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(kinds[i], kinds[0] + " (fused)");
  EXPECT_EQ(kinds[4], runtime::kReferenceKernel);
  for (const std::string& k : (*reference)->stats().stepKernel) EXPECT_EQ(k, runtime::kReferenceKernel);
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
  runtime::FsimDevice d1(t), d2(t);
  auto generated = runtime::Executor::create(b, d1, "host.acx", *kernels);
  auto reference = runtime::Executor::create(b, d2, "host.acx");
  ASSERT_TRUE(generated.isOk() && reference.isOk());
  auto a = (*generated)->run(inputs());
  auto r = (*reference)->run(inputs());
  ASSERT_TRUE(a.isOk() && r.isOk());
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ((*a)[i].bytes(), (*r)[i].bytes());
  runtime::HostKernels overlapping = *kernels;
  overlapping[1] = overlapping[0];  // step 1 is fused into step 0's kernel
  runtime::FsimDevice d3(t);
  auto e = runtime::Executor::create(b, d3, "host.acx", overlapping);
  ASSERT_FALSE(e.isOk());
  EXPECT_EQ(e.diag().str(), "host.acx: error: step 1 has a kernel and is fused into step 0's");
}

/// A bundle of host steps: y = Conv(x, w, bias), r = Relu(y), o = Add(r, skip).
runtime::Bundle convBundle(const isa::Target& t) {
  runtime::Bundle b;
  b.hash = t.hash;
  const char* names[] = {"x", "w", "bias", "skip", "y", "r", "o"};
  const runtime::Shape shapes[] = {{1, 6, 9, 9}, {8, 6, 3, 3}, {8}, {1, 8, 9, 9}, {1, 8, 9, 9}, {1, 8, 9, 9}, {1, 8, 9, 9}};
  for (int i = 0; i < 7; ++i) {
    runtime::TensorSlot s;
    s.name = names[i], s.shape = shapes[i], s.addr = static_cast<uint64_t>(i) * 8192;
    b.tensors.push_back(s);
  }
  b.window = 7 * 8192;
  b.inputs = {0, 1, 2, 3};
  b.outputs = {6};
  runtime::ConvAttrs conv;
  conv.pads = {1, 1, 1, 1};
  b.steps.push_back(Step{Step::Kind::kHost, "/conv", -1, OpKind::kConv, conv, {0, 1, 2}, {4}});
  b.steps.push_back(Step{Step::Kind::kHost, "/relu", -1, OpKind::kRelu, runtime::NoAttrs{}, {4}, {5}});
  b.steps.push_back(Step{Step::Kind::kHost, "/add", -1, OpKind::kAdd, runtime::NoAttrs{}, {5, 3}, {6}});
  return b;
}

TEST(StepKernelsTest, ElementwiseStepsFuseIntoAConvolutionsEpilogue) {
  const isa::Target t = testing::presetTarget("tiny");
  const runtime::Bundle b = convBundle(t);
  auto jit = HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.diag().str();
  auto kernels = generatedHostKernels(b, **jit, "conv.acx");
  ASSERT_TRUE(kernels.isOk()) << kernels.diag().str();
  ASSERT_EQ(kernels->size(), 1u);
  EXPECT_EQ(kernels->at(0).fuses, 2u);
  std::vector<Tensor> in;
  std::mt19937 g(5);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (int i = 0; i < 4; ++i) {
    Tensor x(support::DType::kFloat32, b.tensors[static_cast<size_t>(i)].shape);
    for (int64_t k = 0; k < x.numel(); ++k) x.data<float>()[k] = d(g);
    in.push_back(x);
  }
  runtime::FsimDevice d1(t), d2(t);
  auto generated = runtime::Executor::create(b, d1, "conv.acx", *kernels);
  auto reference = runtime::Executor::create(b, d2, "conv.acx");
  ASSERT_TRUE(generated.isOk() && reference.isOk());
  auto a = (*generated)->run(in);
  auto r = (*reference)->run(in);
  ASSERT_TRUE(a.isOk()) << a.diag().str();
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  // The convolution sums in another order: each output within 1e-5 of the 55 terms' magnitude (at most 2 each).
  int bad = 0;
  for (int64_t i = 0; i < (*r)[0].numel(); ++i)
    bad += std::fabs((*a)[0].data<float>()[i] - (*r)[0].data<float>()[i]) > 1e-5f * 55 * 2;
  EXPECT_EQ(bad, 0);
  EXPECT_EQ((*generated)->stats().stepKernel[2].find("(fused)") != std::string::npos, true);
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
