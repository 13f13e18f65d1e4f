// tests/compiler/resnet18_test.cc — ResNet-18 (seeded random weights, exported
// by models/resnet18/export_resnet18.py and cached in the build tree) on the
// reference engine against onnxruntime. Heavy: about ten seconds.
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

}  // namespace
}  // namespace accelc::compiler
