// tests/compiler/import_golden_test.cc — one small model per op family
// (tests/golden/import/*.onnx, made by make_models.py there): the import's
// graph text matches its golden, parses back to an equal graph, and runs on
// the reference engine with the shapes and dtypes the import gave its outputs.
#include <gtest/gtest.h>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

class ImportGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ImportGoldenTest, GraphTextMatchesRoundTripsAndRuns) {
  const std::string dir = testing::sourceDir() + "/tests/golden/import/";
  auto g = importOnnx(dir + GetParam() + ".onnx");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  g->model = GetParam() + ".onnx";  // the golden names no local path
  const std::string text = printGraph(*g);
  testing::expectGolden("import/" + GetParam() + ".txt", text);
  auto back = parseGraph(text, GetParam() + ".txt");
  ASSERT_TRUE(back.isOk()) << back.diag().str();
  EXPECT_EQ(printGraph(*back), text);
  std::vector<Tensor> inputs;
  for (int id : g->inputs) inputs.emplace_back(g->values[id].dtype, g->values[id].shape);
  auto out = runReference(*g, inputs);
  ASSERT_TRUE(out.isOk()) << out.diag().str();
  ASSERT_EQ(out->size(), g->outputs.size());
  for (size_t k = 0; k < out->size(); ++k) {
    const Value& v = g->values[g->outputs[k]];
    EXPECT_EQ((*out)[k].shape(), v.shape) << v.name;
    EXPECT_EQ((*out)[k].dtype(), v.dtype) << v.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Families, ImportGoldenTest,
                         ::testing::Values("activations", "logic", "reductions", "movement", "spatial", "recurrent",
                                           "dtypes", "losses"));

}  // namespace
}  // namespace accelc::compiler
