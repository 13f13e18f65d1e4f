// tests/compiler/passes_test.cc — every pass on a golden graph, and the passes
// keeping the computed values (the engine before and after agree).
#include <gtest/gtest.h>

#include <random>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
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
                         ::testing::Values("fold-constants", "fold-shapes", "remove-identity", "fold-batchnorm"),
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
            "fold-batchnorm");
}

}  // namespace
}  // namespace accelc::compiler
