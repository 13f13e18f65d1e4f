// tests/compiler/resnet18_test.cc — ResNet-18 (seeded random weights, exported
// by models/resnet18/export_resnet18.py and cached in the build tree) on the
// reference engine against onnxruntime. Heavy: about ten seconds.
#include <cstring>
#include <set>

#include "compiler/driver/compile.h"
#include "compiler/graph/graph_text.h"
#include "runtime/executor.h"
#include "tests/compiler/peer_util.h"

namespace accelc::compiler {
namespace {

using namespace peer;  // NOLINT: test helpers

TEST(PeerTest, ResNet18MatchesOnnxruntime) {
  const std::string dir = std::string(ACCELC_BUILD_DIR) + "/models", model = dir + "/resnet18.onnx",
                    x = dir + "/resnet18_input.npy";
  struct stat st;
  if (::stat(model.c_str(), &st) != 0) {
    ::mkdir(dir.c_str(), 0755);
    ASSERT_EQ(sh("/usr/bin/python3 " + kSrc + "/models/resnet18/export_resnet18.py " + model + " " + x), 0)
        << testing::readFile(kTmp + "/peer.log");
  }
  Tensor a = ours(model, x), b = ort(model, x, "logits", "resnet18");
  EXPECT_LE(worst(a, b), 1e-4);
}

TEST(PeerTest, ResNet18CompiledForVtaDefaultIsBitExactOnFsim) {
  const std::string dir = std::string(ACCELC_BUILD_DIR) + "/models", model = dir + "/resnet18.onnx",
                    x = dir + "/resnet18_input.npy";
  struct stat st;
  if (::stat(model.c_str(), &st) != 0) {
    ::mkdir(dir.c_str(), 0755);
    ASSERT_EQ(sh("/usr/bin/python3 " + kSrc + "/models/resnet18/export_resnet18.py " + model + " " + x), 0);
  }
  // Calibrate on the test input and a shifted copy of it.
  Tensor in = load(x), calib(support::DType::kFloat32, {2, 3, 224, 224});
  std::memcpy(calib.bytes().data(), in.bytes().data(), in.bytes().size());
  for (int64_t i = 0; i < in.numel(); ++i) calib.data<float>()[in.numel() + i] = in.data<float>()[i] * 0.5f + 0.1f;
  const std::string calibPath = kTmp + "/resnet18_calib.npy";
  ASSERT_TRUE(support::writeNpy(calibPath, {calib.dtype(), calib.shape(), calib.bytes()}).isOk());
  CompileOptions o;
  o.calibrate = calibPath;
  isa::Target t = testing::presetTarget("vta-default");
  auto b = compileModel(model, t, o);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  int accel = 0;
  for (const runtime::Step& s : b->steps) accel += s.kind == runtime::Step::Kind::kAccel;
  EXPECT_EQ(accel, 31);  // 20 convolutions, the max pool, 8 residual additions, the average pool, the classifier
  runtime::FsimDevice device(t);
  auto e = runtime::Executor::create(*b, device, "resnet18.acx");
  ASSERT_TRUE(e.isOk()) << e.diag().str();
  std::set<uint64_t> blockedAt;  // blocked intermediates of one layout share memory by lifetime
  size_t blocked = 0;
  for (const runtime::TensorSlot& s : b->tensors)
    if (s.blocked) blockedAt.insert(s.addr), ++blocked;
  EXPECT_LT(blockedAt.size(), blocked);
  // Two inferences in a row: memory shared between tensors holds nothing stale.
  auto onFsim = (*e)->runBatched({calib});
  ASSERT_TRUE(onFsim.isOk()) << onFsim.diag().str();
  auto g = parseGraph(b->graphText, "graph");
  ASSERT_TRUE(g.isOk());
  auto ref = runReferenceBatched(*g, {calib});
  ASSERT_TRUE(ref.isOk());
  EXPECT_EQ((*onFsim)[0].bytes(), (*ref)[0].bytes());
}

}  // namespace
}  // namespace accelc::compiler
