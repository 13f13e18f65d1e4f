// tests/compiler/passes_test.cc — every pass on a golden graph, and the passes
// keeping the computed values (the engine before and after agree).
#include <gtest/gtest.h>

#include <random>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
#include "compiler/graph/static_shapes.h"
#include "compiler/passes/passes.h"
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

}  // namespace
}  // namespace accelc::compiler
