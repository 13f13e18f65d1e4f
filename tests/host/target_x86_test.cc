// tests/host/target_x86_test.cc — whole models compiled with --target x86
// (every node a host step, the float model kept float) and run on generated
// host code, against onnxruntime: ResNet-18, the coverage issue's CNNs and the
// transformer encoder (seeded random weights, exported by
// models/zoo/export_zoo.py into the build tree). Every convolution, matrix
// product and pool must run on a generated kernel, and the outputs agree with
// onnxruntime's within 1e-4 (relative above 1, absolute below). Quantized
// with --quantize, and on the accelerator with their host steps generated,
// the models give the bits of the same bundle on reference kernels. Heavy: a
// few seconds per model.
#include <gtest/gtest.h>

#include "compiler/frontend/compile_model.h"
#include "compiler/host/step_kernels.h"
#include "runtime/executor.h"
#include "runtime/fsim_device.h"
#include "tests/compiler/zoo_util.h"

namespace accelc::compiler {
namespace {

using namespace peer;  // NOLINT: test helpers

bool needsKernel(runtime::OpKind k) {
  using runtime::OpKind;
  return k == OpKind::kConv || k == OpKind::kGemm || k == OpKind::kMatMul || k == OpKind::kMaxPool ||
         k == OpKind::kAveragePool || k == OpKind::kGlobalAveragePool;
}

void expectMatchesOnnxruntime(const ZooModel& m) {
  ASSERT_TRUE(exported(m)) << testing::readFile(m.log());
  const isa::Target t = testing::presetTarget("vta-default");
  CompileOptions o;
  o.hostTarget = "x86";
  auto b = compileModel(m.model(), t, o);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  for (const runtime::Step& s : b->steps) ASSERT_EQ(s.kind, runtime::Step::Kind::kHost) << s.name;
  auto jit = host::HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.status().str();
  auto kernels = host::generatedHostKernels(*b, **jit, m.name, std::make_shared<support::ThreadPool>(2));
  ASSERT_TRUE(kernels.isOk()) << kernels.status().str();
  runtime::FsimDevice memory(t);
  auto ex = runtime::Executor::create(*b, memory, m.name, std::move(*kernels));
  ASSERT_TRUE(ex.isOk()) << ex.status().str();
  auto ours = (*ex)->run({load(m.input())});
  ASSERT_TRUE(ours.isOk()) << ours.diag().str();
  int generated = 0;
  for (size_t i = 0; i < b->steps.size(); ++i) {
    const bool jitted = (*ex)->stats().stepKernel[i] != runtime::kReferenceKernel;
    generated += jitted;
    if (needsKernel(b->steps[i].op)) {
      EXPECT_TRUE(jitted) << b->steps[i].name << " (" << runtime::opInfo(b->steps[i].op).name
                          << ") ran on its reference kernel";
    }
  }
  std::printf("%s: %d of %zu host steps on generated kernels\n", m.name.c_str(), generated, b->steps.size());
  const std::string out = kTmp + "/ort-x86-" + m.name;
  const std::string cmd = "node " + kSrc + "/tools/ort/run_ort.js " + m.model() + " " + out + " input=" + m.input();
  ASSERT_EQ(shLogged(cmd, m.log()), 0) << testing::readFile(m.log());
  const Tensor theirs = load(out + "/" + m.output + ".npy");
  ASSERT_EQ((*ours)[0].numel(), theirs.numel());
  Tensor mine = (*ours)[0];
  mine.reshape(theirs.shape());
  EXPECT_LE(worst(mine, theirs), 1e-4);
}

/// Runs `b` on fsim with `kernels` (none: every host step on its reference kernel); the outputs and the steps' kernels.
std::pair<std::vector<Tensor>, std::vector<std::string>> runOn(const runtime::Bundle& b, runtime::HostKernels kernels,
                                                               const std::string& name, const Tensor& input) {
  runtime::FsimDevice memory(testing::presetTarget("vta-default"));
  auto ex = runtime::Executor::create(b, memory, name, std::move(kernels));
  EXPECT_TRUE(ex.isOk()) << ex.status().str();
  if (!ex) return {};
  auto out = (*ex)->run({input});
  EXPECT_TRUE(out.isOk()) << out.diag().str();
  if (!out) return {};
  return {*out, (*ex)->stats().stepKernel};
}

/// `m` compiled as `o` asks gives the same bits with its host steps generated as on their reference kernels;
/// every step of an integer op, quantization or copy runs on a generated kernel.
void expectGeneratedIntegerStepsAreExact(const ZooModel& m, CompileOptions o) {
  ASSERT_TRUE(exported(m)) << testing::readFile(m.log());
  o.calibrate = m.input();
  auto b = compileModel(m.model(), testing::presetTarget("vta-default"), o);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  auto jit = host::HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.status().str();
  auto kernels = host::generatedHostKernels(*b, **jit, m.name, std::make_shared<support::ThreadPool>(2));
  ASSERT_TRUE(kernels.isOk()) << kernels.status().str();
  const Tensor input = load(m.input());
  const auto [ours, used] = runOn(*b, std::move(*kernels), m.name, input);
  const auto [reference, _] = runOn(*b, {}, m.name, input);
  ASSERT_EQ(ours.size(), reference.size());
  for (size_t i = 0; i < ours.size(); ++i) EXPECT_EQ(ours[i].bytes(), reference[i].bytes()) << m.name << " output " << i;
  int host = 0, generated = 0;
  for (size_t i = 0; i < b->steps.size(); ++i) {
    if (b->steps[i].kind != runtime::Step::Kind::kHost) continue;
    ++host, generated += used[i] != runtime::kReferenceKernel;
    const runtime::OpKind k = b->steps[i].op;
    using runtime::OpKind;
    if (k == OpKind::kQConv || k == OpKind::kQGemm || k == OpKind::kQAdd || k == OpKind::kQuantizeLinear ||
        k == OpKind::kDequantizeLinear || k == OpKind::kIm2col || k == OpKind::kFlatten || k == OpKind::kQHardSwish ||
        k == OpKind::kQHardSigmoid || k == OpKind::kQMul || k == OpKind::kQClip || k == OpKind::kQConcat) {
      EXPECT_NE(used[i], runtime::kReferenceKernel) << b->steps[i].name << " ran on its reference kernel";
    }
  }
  std::printf("%s: %d of %d host steps on generated kernels, the reference kernels' bits\n", m.name.c_str(), generated, host);
}

TEST(TargetX86Test, QuantizedResNet18OnTheHostIsTheReferenceBitForBit) {
  CompileOptions o;
  o.hostTarget = "x86", o.quantize = true;
  expectGeneratedIntegerStepsAreExact({"resnet18", "logits"}, o);
}

TEST(TargetX86Test, QuantizedMobileNetV2OnTheHostIsTheReferenceBitForBit) {
  CompileOptions o;
  o.hostTarget = "x86", o.quantize = true;
  expectGeneratedIntegerStepsAreExact({"mobilenet_v2", "logits"}, o);
}

// QHardSwish, QHardSigmoid and QMul (the squeeze-and-excitation gate), and SqueezeNet's QConcats.
TEST(TargetX86Test, QuantizedMobileNetV3AndSqueezeNetOnTheHostAreTheReferenceBitForBit) {
  CompileOptions o;
  o.hostTarget = "x86", o.quantize = true;
  expectGeneratedIntegerStepsAreExact({"mobilenet_v3_small", "logits"}, o);
  expectGeneratedIntegerStepsAreExact({"squeezenet1_0", "logits"}, o);
}

TEST(TargetX86Test, AcceleratorBundlesHostStepsAreTheReferenceBitForBit) {
  expectGeneratedIntegerStepsAreExact({"resnet18", "logits"}, CompileOptions{});
  expectGeneratedIntegerStepsAreExact({"mobilenet_v2", "logits"}, CompileOptions{});
}

TEST(TargetX86Test, ResNet18MatchesOnnxruntime) { expectMatchesOnnxruntime({"resnet18", "logits"}); }

TEST(TargetX86Test, MobileNetV3SmallMatchesOnnxruntime) { expectMatchesOnnxruntime({"mobilenet_v3_small", "logits"}); }

TEST(TargetX86Test, MobileNetV2MatchesOnnxruntime) { expectMatchesOnnxruntime({"mobilenet_v2", "logits"}); }

TEST(TargetX86Test, SqueezeNetMatchesOnnxruntime) { expectMatchesOnnxruntime({"squeezenet1_0", "logits"}); }

TEST(TargetX86Test, ShuffleNetMatchesOnnxruntime) { expectMatchesOnnxruntime({"shufflenet_v2_x0_5", "logits"}); }

TEST(TargetX86Test, InceptionV3MatchesOnnxruntime) { expectMatchesOnnxruntime({"inception_v3", "logits"}); }

// models/forms/make_gathers.py: Gather at a scalar index and at indices in runs, and a Split, run as
// generated copies; the output is onnxruntime's within the float rules.
TEST(TargetX86Test, GathersAndSplitsRunAsGeneratedCopies) {
  const std::string model = kSrc + "/models/forms/gathers.onnx", input = kSrc + "/models/forms/gathers_input.npy";
  CompileOptions o;
  o.hostTarget = "x86";
  auto b = compileModel(model, testing::presetTarget("vta-default"), o);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  auto jit = host::HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.status().str();
  auto kernels = host::generatedHostKernels(*b, **jit, "gathers");
  ASSERT_TRUE(kernels.isOk()) << kernels.status().str();
  const auto [out, used] = runOn(*b, std::move(*kernels), "gathers", load(input));
  ASSERT_EQ(out.size(), 1u);
  int copies = 0;
  for (size_t i = 0; i < b->steps.size(); ++i) {
    EXPECT_NE(used[i], runtime::kReferenceKernel) << b->steps[i].name << " ran on its reference kernel";
    copies += b->steps[i].op == runtime::OpKind::kGather || b->steps[i].op == runtime::OpKind::kSplit;
  }
  EXPECT_EQ(copies, 3);
  Tensor mine = out[0];
  const Tensor theirs = ort(model, input, "out", "gathers");
  mine.reshape(theirs.shape());
  EXPECT_LE(worst(mine, theirs), 1e-5);
}

TEST(TargetX86Test, TransformerEncoderMatchesOnnxruntime) { expectMatchesOnnxruntime({"transformer_encoder", "out"}); }

}  // namespace
}  // namespace accelc::compiler
