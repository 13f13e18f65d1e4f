// tests/compiler/peer_test.cc — the reference engine against onnxruntime on the
// models the project ships (digits fp32 and int8) and on ResNet-18 (heavy).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sys/stat.h>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "support/npy.h"
#include "tests/compiler/peer_util.h"

namespace accelc::compiler {
namespace {

using namespace peer;  // NOLINT: test helpers

TEST(PeerTest, DigitsFp32MatchesOnnxruntime) {
  const std::string model = kSrc + "/models/digits/digits_fp32.onnx", x = kSrc + "/models/digits/test_x.npy";
  Tensor a = ours(model, x), b = ort(model, x, "logits", "fp32");
  EXPECT_LE(worst(a, b), 1e-4);
  EXPECT_EQ(a.dim(0), 360);
}

TEST(PeerTest, DigitsInt8AgreesOnEveryTestImage) {
  const std::string model = kSrc + "/models/digits/digits_int8.onnx", x = kSrc + "/models/digits/test_x.npy";
  Tensor a = ours(model, x), b = ort(model, x, "logits", "int8");
  // The logits leave the graph through DequantizeLinear: one step is its scale.
  auto g = importOnnx(model);
  const Node* last = nullptr;
  for (const Node& n : g->nodes)
    if (n.outputs[0] == g->outputs[0]) last = &n;
  ASSERT_TRUE(last && last->kind == OpKind::kDequantizeLinear);
  const Value& in = g->values[last->inputs[0]];
  ASSERT_EQ(in.quant.scale.size(), 1u);  // the importer annotates the quantized value
  const double step = in.quant.scale[0];
  ASSERT_GT(step, 0);
  Tensor labels = load(kSrc + "/models/digits/test_y.npy");
  int agree = 0, correct = 0;
  for (int64_t r = 0; r < a.dim(0); ++r) {
    agree += argmax(a, r) == argmax(b, r);
    correct += argmax(a, r) == labels.intAt(r);
  }
  EXPECT_EQ(agree, a.dim(0));
  for (int64_t i = 0; i < a.numel(); ++i) ASSERT_LE(std::abs(a.at(i) - b.at(i)), step * 1.0001) << "logit " << i;
  EXPECT_GE(correct, 350);  // 97.8 % of 360, as models/digits/README.md records
}

}  // namespace
}  // namespace accelc::compiler
