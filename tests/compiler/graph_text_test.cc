// tests/compiler/graph_text_test.cc — the Graph IR text form and the verifier.
#include <gtest/gtest.h>

#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

TEST(GraphTextTest, ImportedModelsRoundTrip) {
  for (const char* m : {"digits_fp32.onnx", "digits_int8.onnx"}) {
    auto g = importOnnx(testing::sourceDir() + "/models/digits/" + m);
    ASSERT_TRUE(g.isOk()) << g.diag().str();
    const std::string text = printGraph(*g);
    auto back = parseGraph(text, "g.txt");
    ASSERT_TRUE(back.isOk()) << back.diag().str();
    EXPECT_TRUE(*back == *g) << m;
    EXPECT_EQ(printGraph(*back), text);
  }
}

TEST(GraphTextTest, HandWrittenGraphParsesAndRuns) {
  const char* text = R"(graph "tiny"
input "x" : float32[1,4]
const "w" : float32[2,4] = hex:0000803f0000803f0000803f0000803f000000400000004000000040000000c0
node "mm" Gemm("x", "w", _) -> ("y" : float32[1,2]) {alpha=1, beta=1, transA=0, transB=1}
node "act" Relu("y") -> ("z" : float32[1,2])
output "z"
)";
  auto g = parseGraph(text, "tiny.txt");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  EXPECT_EQ(printGraph(*g), text);
}

TEST(GraphTextTest, ErrorsAreLocated) {
  auto bad = [](const std::string& body) {
    auto g = parseGraph("graph \"m\"\ninput \"x\" : float32[2]\n" + body, "m.txt");
    return g ? std::string("ok") : g.diag().str();
  };
  EXPECT_EQ(bad("node \"n\" Frob(\"x\") -> (\"y\" : float32[2])\n"), "m.txt:3:10: error: unknown op 'Frob'");
  EXPECT_EQ(bad("node \"n\" Relu(\"q\") -> (\"y\" : float32[2])\n"), "m.txt:3:15: error: unknown value 'q'");
  EXPECT_EQ(bad("node \"n\" Relu(\"x\") -> (\"y\" : float32[2]) {alpha=1}\n"), "m.txt:3:43: error: unknown attribute 'alpha'");
  EXPECT_EQ(bad("node \"n\" Relu(\"x\") -> (\"y\" : float31[2])\n"),
            "m.txt:3:30: error: expected a dtype (int8, uint8, int32, int64, float32, bool, float64, float16, int16, uint16), "
            "found 'float31'");
  EXPECT_EQ(bad("node \"n\" Add(\"x\") -> (\"y\" : float32[2])\n"), "m:n: error: Add has 1 inputs; expected 2 to 2");
  EXPECT_EQ(bad("output \"x\"\nnode \"n\" Relu(\"x\") -> (\"x\" : float32[2])\n"), "m.txt:4:24: error: value 'x' is defined twice");
}

}  // namespace
}  // namespace accelc::compiler
