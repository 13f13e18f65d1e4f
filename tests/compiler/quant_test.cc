// tests/compiler/quant_test.cc — quantization: requantization factors, the
// integer graph of the digits models, and its accuracy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
#include "compiler/passes/channel_shuffle.h"
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

TEST(QuantTest, ABatchedMatMulTakesItsBiasAddAndADivisionByAConstantIsAMultiply) {
  // MatMul of a 3-D activation by constant weights, a bias Add and a division by 2: one QGemm between two
  // reshapes (the bias folded in) and one QMul, with no float node left but the boundary pair.
  auto g = parseGraph(R"(graph "bias"
input "x" : float32[1,4,8] quant(scale=[0.02], zero_point=[0], axis=-1, dtype=int8)
const "w" : float32[8,6] = hex:802906bfb429b53d792a85be07d4543ed3bc803e00735ebf0c4279bfbfc82c3fe76bf6bec60508bf29c57d3ff29973bdad442c3feab641bde1678e3e67e232bfea188a3e6f703c3f86e63d3dba0af73e7d86af3e45375fbfc136043f6b923a3e7e80cbbe3a1f70bf63263b3f4e3d5fbd6113e03ec0f3413fc244db3e3f9a573f6d1d57beb7101a3f08d5e2bd39055f3fd0fa413f781a4ebf4a623abf16e710bf6a536e3f91bd02be17b0813ecabfcbbe8d566d3cf3be69beecaa98be553b2e3e
const "b" : float32[6] = hex:348c2c3e89f34e3f8659ba3ec29e5b3f237a363fff627b3f
const "d" : float32[] = hex:00000040
node "mm" MatMul("x", "w") -> ("y" : float32[1,4,6])
node "add" Add("y", "b") -> ("z" : float32[1,4,6] quant(scale=[0.16], zero_point=[0], axis=-1, dtype=int8))
node "div" Div("z", "d") -> ("out" : float32[1,4,6] quant(scale=[0.08], zero_point=[0], axis=-1, dtype=int8))
output "out"
)", "bias");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  auto q = quantizeGraph(*g);
  ASSERT_TRUE(q.isOk()) << q.diag().str();
  std::vector<OpKind> kinds;
  for (const Node& n : q->nodes) kinds.push_back(n.kind);
  EXPECT_EQ(kinds, (std::vector<OpKind>{OpKind::kQuantizeLinear, OpKind::kReshape, OpKind::kQGemm, OpKind::kReshape,
                                        OpKind::kQMul, OpKind::kDequantizeLinear}))
      << printGraph(*q);
  Tensor x(support::DType::kFloat32, {1, 4, 8});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = static_cast<float>((i * 37 % 19) - 9) * 0.25f;
  auto want = runReference(*g, {x}), got = runReference(*q, {x});
  ASSERT_TRUE(want.isOk() && got.isOk());
  for (int64_t i = 0; i < x.numel() / 8 * 6; ++i)  // within a few output steps of the float graph
    EXPECT_NEAR((*got)[0].at(i), (*want)[0].at(i), 3 * 0.08) << i;
}

TEST(QuantTest, AnInt8ChannelShuffleBecomesAQConvThatCopiesEveryValueExactly) {
  // [1, 12, 4, 6]: 288 values cover every int8; shuffles of 3 groups of 4 and of 2 x 2 x 3 factors.
  auto g = parseGraph(R"(graph "shuffle"
input "x" : int8[1,12,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)
const "split" : int64[5] = hex:01000000000000000300000000000000040000000000000004000000000000000600000000000000
const "split3" : int64[6] = hex:010000000000000002000000000000000200000000000000030000000000000004000000000000000600000000000000
const "merge" : int64[4] = hex:01000000000000000c0000000000000004000000000000000600000000000000
node "s" Reshape("x", "split") -> ("s" : int8[1,3,4,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {allowzero=0}
node "t" Transpose("s") -> ("t" : int8[1,4,3,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {perm=[0,2,1,3,4]}
node "m" Reshape("t", "merge") -> ("y" : int8[1,12,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {allowzero=0}
node "s3" Reshape("y", "split3") -> ("s3" : int8[1,2,2,3,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {allowzero=0}
node "t3" Transpose("s3") -> ("t3" : int8[1,3,2,2,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {perm=[0,3,1,2,4,5]}
node "m3" Reshape("t3", "merge") -> ("z" : int8[1,12,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {allowzero=0}
output "z"
)", "shuffle");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  // Source channels of the first shuffle: output 3·a + b reads input 4·b + a.
  auto s = channelShuffleEndingAt(*g, 2);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->source, (std::vector<int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  Tensor x(support::DType::kInt8, {1, 12, 4, 6});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<int8_t>()[i] = static_cast<int8_t>((i * 181) % 256 - 128);
  auto want = runReference(*g, {x});
  ASSERT_TRUE(want.isOk()) << want.diag().str();
  Graph q = *g;
  std::vector<std::string> log;
  shuffleToConvs(q, &log);
  ASSERT_EQ(q.nodes.size(), 2u) << printGraph(q);
  EXPECT_EQ(q.nodes[0].kind, OpKind::kQConv);
  EXPECT_EQ(q.nodes[1].kind, OpKind::kQConv);
  EXPECT_EQ(log.size(), 2u);
  ASSERT_TRUE(verify(q).isOk());
  auto got = runReference(q, {x});
  ASSERT_TRUE(got.isOk()) << got.diag().str();
  EXPECT_EQ((*got)[0].bytes(), (*want)[0].bytes());

  // Read only by a Split of 5 and 7 channels: one QConv per part, of the part's rows of the permutation.
  auto split = parseGraph(R"(graph "split"
input "x" : int8[1,12,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)
const "split" : int64[5] = hex:01000000000000000300000000000000040000000000000004000000000000000600000000000000
const "merge" : int64[4] = hex:01000000000000000c0000000000000004000000000000000600000000000000
node "s" Reshape("x", "split") -> ("s" : int8[1,3,4,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {allowzero=0}
node "t" Transpose("s") -> ("t" : int8[1,4,3,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {perm=[0,2,1,3,4]}
node "m" Reshape("t", "merge") -> ("y" : int8[1,12,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {allowzero=0}
node "parts" Split("y") -> ("a" : int8[1,5,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8), "b" : int8[1,7,4,6] quant(scale=[0.05], zero_point=[-7], axis=-1, dtype=int8)) {axis=1, split=[5,7]}
output "a"
output "b"
)", "split");
  ASSERT_TRUE(split.isOk()) << split.diag().str();
  auto wantParts = runReference(*split, {x});
  ASSERT_TRUE(wantParts.isOk()) << wantParts.diag().str();
  q = *split;
  shuffleToConvs(q, nullptr);
  ASSERT_EQ(q.nodes.size(), 2u) << printGraph(q);
  EXPECT_EQ(q.nodes[0].name, "parts:0");
  EXPECT_EQ(q.nodes[1].name, "parts:1");
  auto gotParts = runReference(q, {x});
  ASSERT_TRUE(gotParts.isOk()) << gotParts.diag().str();
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ((*gotParts)[i].bytes(), (*wantParts)[i].bytes()) << "part " << i;
}

}  // namespace
}  // namespace accelc::compiler
