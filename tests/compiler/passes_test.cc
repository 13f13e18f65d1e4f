// tests/compiler/passes_test.cc — every pass on a golden graph, and the passes
// keeping the computed values (the engine before and after agree).
#include "compiler/passes/passes.h"

#include <gtest/gtest.h>

#include <random>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
#include "compiler/graph/static_shapes.h"
#include "compiler/passes/pad_concat.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

Graph load(const std::string& name) {
  const std::string path = testing::sourceDir() + "/tests/golden/passes/" + name + ".in.txt";
  auto g = parseGraph(testing::readFile(path), name + ".in.txt");
  EXPECT_TRUE(g.isOk()) << (g ? "" : g.diag().str());
  return *g;
}

std::vector<Tensor> randomInputs(const Graph& g, uint64_t seed) {
  std::mt19937 rng(static_cast<uint32_t>(seed));
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<Tensor> in;
  for (int id : g.inputs) {
    Tensor t(g.values[id].dtype, g.values[id].shape);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
    in.push_back(std::move(t));
  }
  return in;
}

class PassGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PassGoldenTest, RewritesAsTheGoldenSaysAndKeepsTheValues) {
  Graph g = load(GetParam());
  const std::vector<Tensor> in = randomInputs(g, 1);
  auto before = runReference(g, in);
  ASSERT_TRUE(before.isOk()) << before.diag().str();
  ASSERT_TRUE(runPipeline(g, {GetParam()}).isOk());
  testing::expectGolden("passes/" + GetParam() + ".out.txt", printGraph(g));
  auto after = runReference(g, in);
  ASSERT_TRUE(after.isOk()) << after.diag().str();
  ASSERT_EQ(after->size(), before->size());
  for (size_t o = 0; o < after->size(); ++o)
    for (int64_t i = 0; i < (*after)[o].numel(); ++i)
      EXPECT_NEAR((*after)[o].at(i), (*before)[o].at(i), 1e-5) << "output " << o << " element " << i;
}

INSTANTIATE_TEST_SUITE_P(Passes, PassGoldenTest,
                         ::testing::Values("fold-constants", "fold-shapes", "remove-identity", "fold-batchnorm",
                                           "fuse-activations", "pool-forms", "fold-channel-shuffles"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(PassTest, DefaultPipelineKeepsDigitsOutputs) {
  auto g = importOnnx(testing::sourceDir() + "/models/digits/digits_int8.onnx");
  ASSERT_TRUE(g.isOk());
  Graph opt = *g;
  ASSERT_TRUE(runPipeline(opt, defaultPipeline()).isOk());
  EXPECT_LT(opt.nodes.size(), g->nodes.size());
  for (const Node& n : opt.nodes) EXPECT_NE(n.kind, OpKind::kConstant) << n.name;
  const std::vector<Tensor> in = randomInputs(*g, 2);
  auto a = runReference(*g, in), b = runReference(opt, in);
  ASSERT_TRUE(a.isOk() && b.isOk());
  EXPECT_EQ((*a)[0].bytes(), (*b)[0].bytes());
}

TEST(PassTest, DumpAfterSeesEveryRunAndUnknownPassesAreNamed) {
  Graph g = load("remove-identity");
  std::vector<std::string> seen;
  ASSERT_TRUE(runPipeline(g, {"remove-identity", "fold-constants"}, [&](const std::string& n, const Graph&) {
                seen.push_back(n);
              }).isOk());
  EXPECT_EQ(seen, (std::vector<std::string>{"remove-identity", "fold-constants"}));
  EXPECT_EQ(runPipeline(g, {"fold-everything"}).str(),
            "error: unknown pass 'fold-everything'; the passes are: fold-constants, fold-shapes, remove-identity, "
            "fold-batchnorm, fuse-activations, pool-forms, fold-channel-shuffles");
}


/// Parses a graph given as text in the test.
Graph parse(const std::string& text) {
  auto g = parseGraph(text, "test.txt");
  EXPECT_TRUE(g.isOk()) << (g ? "" : g.diag().str());
  return g ? *g : Graph();
}

// Exporters compute a Reshape's target from Shape, Gather, Unsqueeze, Concat,
// and Equal/Where (replacing 0s); on a static input it folds to a constant.
TEST(PassesTest, ShapeArithmeticFoldsToAConstant) {
  Graph g = parse(R"(graph "shape-arith"
input "x" : float32[2,3,4]
const "i0" : int64[] = hex:0000000000000000
const "zero" : int64[1] = hex:0000000000000000
const "minus1" : int64[1] = hex:ffffffffffffffff
const "ax" : int64[1] = hex:0000000000000000
node "shape" Shape("x") -> ("s" : int64[3]) {start=0, end=9223372036854775807}
node "g" Gather("s", "i0") -> ("n" : int64[]) {axis=0}
node "u" Unsqueeze("n", "ax") -> ("n1" : int64[1]) {axes=[]}
node "cat" Concat("n1", "zero", "minus1") -> ("t" : int64[3]) {axis=0}
node "eq" Equal("t", "zero") -> ("isz" : bool[3])
node "fill" Where("isz", "minus1", "t") -> ("t2" : int64[3])
node "r" Reshape("x", "t2") -> ("y" : float32[2,3,4]) {allowzero=0}
output "y"
)");
  EXPECT_TRUE(checkStaticShapes(g).isOk());  // Shape reads only the static shape
  ASSERT_TRUE(runPipeline(g, defaultPipeline()).isOk());
  ASSERT_EQ(g.nodes.size(), 1u) << printGraph(g);
  EXPECT_EQ(g.nodes[0].kind, OpKind::kReshape);
  const Tensor* target = g.values[g.nodes[0].inputs[1]].constant ? &*g.values[g.nodes[0].inputs[1]].constant : nullptr;
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->intAt(0), 2);
  EXPECT_EQ(target->intAt(1), -1);
  EXPECT_EQ(target->intAt(2), -1);
  EXPECT_TRUE(checkStaticShapes(g).isOk());
}

TEST(PassesTest, AShapeFromInputValuesIsALocatedErrorAtCompileTime) {
  Graph g = parse(R"(graph "dyn"
input "x" : float32[4]
input "k" : int64[1]
node "top" TopK("x", "k") -> ("v" : float32[2], "i" : int64[2]) {axis=-1, largest=1, sorted=1}
output "v"
)");
  support::Status st = checkStaticShapes(g);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.str().find("dyn:top: error: TopK: the output shape depends on the values of input 1 'k'"),
            std::string::npos)
      << st.str();
}

TEST(PassesTest, ValuesComputedFromShapesAloneAreStatic) {
  Graph g = parse(R"(graph "static"
input "x" : float32[2,3]
const "one" : int64[] = hex:0100000000000000
node "size" Size("x") -> ("n" : int64[])
node "add" Add("n", "one") -> ("n1" : int64[])
node "zero" Sub("n", "n") -> ("z" : int64[])
node "range" Range("z", "n1", "one") -> ("r" : int64[7])
output "r"
)");
  EXPECT_TRUE(checkStaticShapes(g).isOk());
}

/// A random int8 or int32 constant of `shape`, values in [lo, hi].
Tensor randomConstant(support::DType t, const Shape& shape, std::mt19937& rng, int32_t lo, int32_t hi) {
  Tensor c(t, shape);
  std::uniform_int_distribution<int32_t> d(lo, hi);
  for (int64_t i = 0; i < c.numel(); ++i) {
    if (t == support::DType::kInt32)
      c.data<int32_t>()[i] = d(rng);
    else
      c.data<int8_t>()[i] = static_cast<int8_t>(d(rng));
  }
  return c;
}

TEST(PassesTest, ConcatPaddingKeepsEveryValue) {
  // x -> QConv a (6 channels), QConv b (5): joined into 11 channels, which a 3x3 and a 1x1 QConv read. With
  // blocks of 4, a is computed to 8 channels and the readers' weights spread over 13.
  Graph g;
  g.model = "pad";
  std::mt19937 rng(7);
  auto value = [&](const std::string& name, const Shape& s) {
    Value v;
    v.name = name, v.dtype = support::DType::kInt8, v.shape = s;
    v.quant.scale = {0.05f}, v.quant.zeroPoint = {-3};
    return g.addValue(std::move(v));
  };
  auto constant = [&](const std::string& name, support::DType t, const Shape& s, int32_t lo, int32_t hi) {
    Value v;
    v.name = name, v.dtype = t, v.shape = s, v.constant = randomConstant(t, s, rng, lo, hi);
    return g.addValue(std::move(v));
  };
  auto conv = [&](const std::string& name, int x, int64_t m, int64_t c, int64_t k, int y) {
    runtime::QConvAttrs a;
    a.padValue = -3, a.zeroPoint = -3;
    if (k == 3) a.pads = {1, 1, 1, 1};
    Node n;
    n.kind = OpKind::kQConv, n.name = name, n.attrs = a, n.outputs = {y};
    n.inputs = {x, constant(name + ".w", support::DType::kInt8, {m, c, k, k}, -128, 127),
                constant(name + ".b", support::DType::kInt32, {m}, -3000, 3000),
                constant(name + ".m", support::DType::kInt32, {m}, 1 << 29, (1 << 30) + (1 << 29)),
                constant(name + ".s", support::DType::kInt32, {m}, 4, 8)};
    g.nodes.push_back(std::move(n));
  };
  const int x = value("x", {1, 4, 3, 3});
  g.inputs = {x};
  const int a = value("a", {1, 6, 3, 3}), b = value("b", {1, 5, 3, 3}), y = value("y", {1, 11, 3, 3});
  const int z = value("z", {1, 7, 3, 3}), z2 = value("z2", {1, 2, 3, 3});
  conv("A", x, 6, 4, 1, a);
  conv("B", x, 5, 4, 3, b);
  runtime::QConcatAttrs ca;
  ca.axis = 1, ca.zeros = {-3, -3}, ca.mults = {1 << 23, 1 << 23}, ca.zeroPoint = -3;
  Node cat;
  cat.kind = OpKind::kQConcat, cat.name = "C", cat.attrs = ca, cat.inputs = {a, b}, cat.outputs = {y};
  g.nodes.push_back(std::move(cat));
  conv("R", y, 7, 11, 3, z);
  conv("R2", y, 2, 11, 1, z2);
  g.outputs = {z, z2};
  ASSERT_TRUE(verify(g).isOk()) << verify(g).diag().str();
  const Tensor in = randomConstant(support::DType::kInt8, {1, 4, 3, 3}, rng, -128, 127);
  auto want = runReference(g, {in});
  ASSERT_TRUE(want.isOk()) << want.diag().str();
  std::vector<std::string> log;
  padConcatChannels(g, testing::presetTarget("tiny").spec, &log);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(g.values[static_cast<size_t>(a)].shape, (Shape{1, 8, 3, 3}));
  EXPECT_EQ(g.values[static_cast<size_t>(y)].shape, (Shape{1, 13, 3, 3}));
  ASSERT_TRUE(verify(g).isOk()) << verify(g).diag().str();
  auto got = runReference(g, {in});
  ASSERT_TRUE(got.isOk()) << got.diag().str();
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ((*got)[i].bytes(), (*want)[i].bytes()) << "output " << i;
  // An input read by another node too, or a reader that is no convolution, leaves the Concat as it is.
  runtime::PoolAttrs one;
  one.kernelShape = {1, 1};
  const int a2 = value("a2", {1, 8, 3, 3});
  Graph shared = g;
  Node reread;
  reread.kind = OpKind::kMaxPool, reread.name = "A2", reread.attrs = one, reread.inputs = {a}, reread.outputs = {a2};
  shared.nodes.insert(shared.nodes.begin() + 1, reread);
  shared.outputs.push_back(a2);
  log.clear();
  padConcatChannels(shared, testing::presetTarget("wide").spec, &log);
  EXPECT_TRUE(log.empty());
  Node pool;
  pool.kind = OpKind::kMaxPool, pool.name = "P", pool.inputs = {y};
  runtime::PoolAttrs pa;
  pa.kernelShape = {1, 1};
  pool.attrs = pa;
  pool.outputs = {value("p", {1, 13, 3, 3})};
  g.nodes.push_back(std::move(pool));
  g.outputs.push_back(g.nodes.back().outputs[0]);
  log.clear();
  padConcatChannels(g, testing::presetTarget("wide").spec, &log);
  EXPECT_TRUE(log.empty());
}

}  // namespace
}  // namespace accelc::compiler
