// tests/compiler/zoo_test.cc — the model zoo (MobileNet-v3, DeepLabV3, a small
// ViT, a small U-Net, an LSTM classifier, MobileNet-v2, MNASNet, SqueezeNet,
// Inception-v3, DenseNet-121, a transformer encoder; seeded random weights, exported by
// models/zoo/export_zoo.py and cached in the build tree) on the reference
// engine against onnxruntime. Heavy: a few seconds per model.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/compiler/zoo_util.h"

namespace accelc::compiler {
namespace {

using namespace peer;  // NOLINT: test helpers

/// Exports `m`, runs it on the reference engine and on onnxruntime, and
/// expects the outputs to agree within 1e-4 (relative above 1, absolute below).
void expectMatchesOnnxruntime(const ZooModel& m) {
  ASSERT_TRUE(exported(m)) << testing::readFile(m.log());
  auto g = importOnnx(m.model());
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  ASSERT_EQ(g->outputs.size(), 1u);
  EXPECT_EQ(g->values[g->outputs[0]].name, m.output);
  auto ours = runReferenceBatched(*g, {load(m.input())});
  ASSERT_TRUE(ours.isOk()) << ours.diag().str();
  const std::string out = kTmp + "/ort-zoo-" + m.name;
  const std::string cmd =
      "node " + kSrc + "/tools/ort/run_ort.js --batch-of 1 " + m.model() + " " + out + " input=" + m.input();
  ASSERT_EQ(shLogged(cmd, m.log()), 0) << testing::readFile(m.log());
  const Tensor theirs = load(out + "/" + m.output + ".npy");
  ASSERT_EQ((*ours)[0].shape(), theirs.shape());
  EXPECT_LE(worst((*ours)[0], theirs), 1e-4);
}

TEST(ZooTest, MobileNetV3SmallMatchesOnnxruntime) { expectMatchesOnnxruntime({"mobilenet_v3_small", "logits"}); }

TEST(ZooTest, DeepLabV3MobileNetMatchesOnnxruntime) { expectMatchesOnnxruntime({"deeplabv3_mobilenet", "out"}); }

TEST(ZooTest, TinyVisionTransformerMatchesOnnxruntime) { expectMatchesOnnxruntime({"vit_tiny", "logits"}); }

TEST(ZooTest, SmallUNetWithTransposedConvolutionsMatchesOnnxruntime) {
  expectMatchesOnnxruntime({"unet_small", "logits"});
}

TEST(ZooTest, TwoLayerLstmClassifierMatchesOnnxruntime) { expectMatchesOnnxruntime({"lstm_classifier", "logits"}); }

TEST(ZooTest, MobileNetV2MatchesOnnxruntime) { expectMatchesOnnxruntime({"mobilenet_v2", "logits"}); }

TEST(ZooTest, MnasNetMatchesOnnxruntime) { expectMatchesOnnxruntime({"mnasnet0_5", "logits"}); }

TEST(ZooTest, SqueezeNetMatchesOnnxruntime) { expectMatchesOnnxruntime({"squeezenet1_0", "logits"}); }

TEST(ZooTest, InceptionV3MatchesOnnxruntime) { expectMatchesOnnxruntime({"inception_v3", "logits"}); }

TEST(ZooTest, DenseNet121MatchesOnnxruntime) { expectMatchesOnnxruntime({"densenet121", "logits"}); }

TEST(ZooTest, TransformerEncoderMatchesOnnxruntime) { expectMatchesOnnxruntime({"transformer_encoder", "out"}); }

}  // namespace
}  // namespace accelc::compiler
