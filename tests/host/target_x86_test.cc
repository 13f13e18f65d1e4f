// tests/host/target_x86_test.cc — whole models compiled with --target x86
// (every node a host step, the float model kept float) and run on generated
// host code, against onnxruntime: ResNet-18, the coverage issue's CNNs and the
// transformer encoder (seeded random weights, exported by
// models/zoo/export_zoo.py into the build tree). Every convolution, matrix
// product and pool must run on a generated kernel, and the outputs agree with
// onnxruntime's within 1e-4 (relative above 1, absolute below). Heavy: a few
// seconds per model.
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

TEST(TargetX86Test, ResNet18MatchesOnnxruntime) { expectMatchesOnnxruntime({"resnet18", "logits"}); }

TEST(TargetX86Test, MobileNetV3SmallMatchesOnnxruntime) { expectMatchesOnnxruntime({"mobilenet_v3_small", "logits"}); }

TEST(TargetX86Test, MobileNetV2MatchesOnnxruntime) { expectMatchesOnnxruntime({"mobilenet_v2", "logits"}); }

TEST(TargetX86Test, SqueezeNetMatchesOnnxruntime) { expectMatchesOnnxruntime({"squeezenet1_0", "logits"}); }

TEST(TargetX86Test, ShuffleNetMatchesOnnxruntime) { expectMatchesOnnxruntime({"shufflenet_v2_x0_5", "logits"}); }

TEST(TargetX86Test, InceptionV3MatchesOnnxruntime) { expectMatchesOnnxruntime({"inception_v3", "logits"}); }

TEST(TargetX86Test, TransformerEncoderMatchesOnnxruntime) { expectMatchesOnnxruntime({"transformer_encoder", "out"}); }

}  // namespace
}  // namespace accelc::compiler
