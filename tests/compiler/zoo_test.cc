// tests/compiler/zoo_test.cc — the model zoo (MobileNet-v3, DeepLabV3, a small
// ViT, a small U-Net, an LSTM classifier; seeded random weights, exported by
// models/zoo/export_zoo.py and cached in the build tree) on the reference
// engine against onnxruntime. Heavy: a few seconds per model.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/compiler/peer_util.h"

namespace accelc::compiler {
namespace {

using namespace peer;  // NOLINT: test helpers

const std::string kZoo = std::string(ACCELC_BUILD_DIR) + "/models/zoo";

/// One exported model: where its files are and what its output is called.
struct ZooModel {
  std::string name;    ///< the NAME of export_zoo.py
  std::string output;  ///< the graph's only output
  std::string model() const { return kZoo + "/" + name + ".onnx"; }
  std::string input() const { return kZoo + "/" + name + "_input.npy"; }
  std::string log() const { return kTmp + "/zoo-" + name + ".log"; }
};

/// Runs `cmd` with its output in `log` (one log per model: tests run in parallel).
int shLogged(const std::string& cmd, const std::string& log) {
  return std::system((cmd + " > '" + log + "' 2>&1").c_str());
}

/// Exports the model and its input into the build tree unless both are there.
/// Tests run in parallel: each exports into a folder of its own and renames
/// the files into place, so no test reads a file another is still writing.
bool exported(const ZooModel& m) {
  struct stat st;
  if (::stat(m.model().c_str(), &st) == 0 && ::stat(m.input().c_str(), &st) == 0) return true;
  ::mkdir((std::string(ACCELC_BUILD_DIR) + "/models").c_str(), 0755);
  ::mkdir(kZoo.c_str(), 0755);
  const std::string own = kZoo + "/export-" + m.name + "-" + std::to_string(::getpid()),
                    model = own + "/" + m.name + ".onnx", input = own + "/" + m.name + "_input.npy";
  ::mkdir(own.c_str(), 0755);
  const std::string cmd =
      "/usr/bin/python3 " + kSrc + "/models/zoo/export_zoo.py " + m.name + " " + model + " " + input;
  const bool ok = shLogged(cmd, m.log()) == 0 && std::rename(input.c_str(), m.input().c_str()) == 0 &&
                  std::rename(model.c_str(), m.model().c_str()) == 0;
  shLogged("rm -rf '" + own + "'", "/dev/null");  // the folder of a failed export
  return ok;
}

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

}  // namespace
}  // namespace accelc::compiler
