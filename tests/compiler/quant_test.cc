// tests/compiler/quant_test.cc — quantization: requantization factors, the
// integer graph of the digits models, and its accuracy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
#include "compiler/passes/passes.h"
#include "compiler/quant/quantize.h"
#include "support/npy.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

Tensor load(const std::string& path) {
  auto a = support::readNpy(path);
  EXPECT_TRUE(a.isOk());
  Tensor t(a->dtype, a->shape);
  t.bytes() = a->data;
  return t;
}

/// Top-1 accuracy of `g` on the digits test split.
double accuracy(const Graph& g) {
  const std::string dir = testing::sourceDir() + "/models/digits/";
  auto out = runReferenceBatched(g, {load(dir + "test_x.npy")});
  EXPECT_TRUE(out.isOk()) << (out ? "" : out.diag().str());
  const Tensor labels = load(dir + "test_y.npy"), &logits = (*out)[0];
  int correct = 0;
  for (int64_t r = 0; r < logits.dim(0); ++r) {
    int64_t best = 0;
    for (int64_t j = 1; j < logits.dim(1); ++j)
      if (logits.at(r * logits.dim(1) + j) > logits.at(r * logits.dim(1) + best)) best = j;
    correct += best == labels.intAt(r);
  }
  return 100.0 * correct / static_cast<double>(logits.dim(0));
}

TEST(QuantTest, RequantFactorsAreShiftlessOrNormalized) {
  auto r = requantOf(0.75);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->mult, 3 << 29);
  EXPECT_EQ(r->shift, 0);
  r = requantOf(0.001);  // 2^31 · 0.001 keeps 21 bits: no shift
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->shift, 0);
  EXPECT_EQ(r->mult, 2147484);
  r = requantOf(1e-5);  // normalized
  ASSERT_TRUE(r.has_value());
  EXPECT_GE(r->mult, 1 << 30);
  EXPECT_NEAR(r->mult * std::ldexp(1.0, -31 - r->shift), 1e-5, 1e-14);
  EXPECT_FALSE(requantOf(1.5).has_value());
  EXPECT_FALSE(requantOf(0.0).has_value());
}

TEST(QuantTest, Int8ModelBecomesAnIntegerGraphAsAccurateAsIt) {
  auto g = importOnnx(testing::sourceDir() + "/models/digits/digits_int8.onnx");
  ASSERT_TRUE(g.isOk());
  ASSERT_TRUE(stripQdq(*g).isOk());
  std::vector<std::string> notes;
  auto q = quantizeGraph(*g, &notes);
  ASSERT_TRUE(q.isOk()) << q.diag().str();
  int qconv = 0, qgemm = 0;
  for (const Node& n : q->nodes) qconv += n.kind == OpKind::kQConv, qgemm += n.kind == OpKind::kQGemm;
  EXPECT_EQ(qconv, 2) << printGraph(*q, {true});
  EXPECT_EQ(qgemm, 1);
  const double acc = accuracy(*q);
  EXPECT_GE(acc, 97.0);
  RecordProperty("accuracy", std::to_string(acc));
  std::printf("digits int8 integer graph: %.2f%% (%zu nodes)\n", acc, q->nodes.size());
}

TEST(QuantTest, FloatModelCalibratedOnCalibNpy) {
  auto g = importOnnx(testing::sourceDir() + "/models/digits/digits_fp32.onnx");
  ASSERT_TRUE(g.isOk());
  const Tensor calib = load(testing::sourceDir() + "/models/digits/calib.npy");
  std::vector<std::vector<Tensor>> samples;
  for (int64_t i = 0; i < calib.dim(0); ++i) {
    Tensor t(support::DType::kFloat32, {1, 1, 8, 8});
    std::memcpy(t.bytes().data(), calib.bytes().data() + i * t.bytes().size(), t.bytes().size());
    samples.push_back({t});
  }
  ASSERT_TRUE(calibrate(*g, samples).isOk());
  auto q = quantizeGraph(*g);
  ASSERT_TRUE(q.isOk()) << q.diag().str();
  const double fp32 = accuracy(*g), int8 = accuracy(*q);
  EXPECT_GE(int8, fp32 - 1.0) << "fp32 " << fp32 << "%, int8 " << int8 << "%";
  std::printf("digits fp32 %.2f%%, calibrated int8 %.2f%%\n", fp32, int8);
}

}  // namespace
}  // namespace accelc::compiler
