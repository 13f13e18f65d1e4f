// tests/driver/pipeline_test.cc — the compiler as a pipeline of named passes:
// the list in order, and a golden text of every pass's result on the digits
// CNN compiled for vta-default.
#include "compiler/driver/pipeline.h"

#include <gtest/gtest.h>

#include "compiler/frontend/compile_model.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

const std::string kDigits = testing::sourceDir() + "/models/digits/digits_int8.onnx";

/// The text of pass `name` when the digits CNN compiles for vta-default, the
/// checkout's folder written as <source> (the graph names its model's path).
std::string dumpOf(const std::string& name) {
  std::string dump;
  CompileOptions o;
  o.dumpAfter = name, o.dump = &dump;
  auto b = compileModel(kDigits, testing::presetTarget("vta-default"), o);
  EXPECT_TRUE(b.isOk()) << (b ? "" : b.diag().str());
  const std::string src = testing::sourceDir();
  for (size_t at = dump.find(src); at != std::string::npos; at = dump.find(src, at))
    dump.replace(at, src.size(), "<source>");
  return dump;
}

TEST(PipelineTest, ListsEveryPassInOrder) {
  std::string names;
  for (const PipelinePass& p : compilePipeline()) names += p.name + "\n";
  testing::expectGolden("pipeline/passes.txt", names);
}

TEST(PipelineTest, EveryPassHasATextForm) {
  for (const PipelinePass& p : compilePipeline()) {
    const std::string dump = dumpOf(p.name);
    EXPECT_EQ(dump.rfind("# after " + p.name + "\n", 0), 0u) << p.name;
    EXPECT_GT(dump.size(), ("# after " + p.name + "\n").size()) << p.name << " printed nothing";
  }
}

TEST(PipelineTest, TheBackEndsPassesPrintTheirResults) {
  for (const char* name : {"quantize", "im2col", "trial-borders", "partition", "move-clamps", "infer-borders",
                           "build-steps", "plan-dram", "lower", "emit", "finish-bundle"})
    testing::expectGolden(std::string("pipeline/") + name + ".txt", dumpOf(name));
}

TEST(PipelineTest, AnUnknownPassIsRefusedBeforeAnyPassRuns) {
  std::string dump;
  CompileOptions o;
  o.dumpAfter = "lowr", o.dump = &dump;
  auto b = compileModel(testing::sourceDir() + "/models/digits/missing.onnx", testing::presetTarget("tiny"), o);
  ASSERT_FALSE(b.isOk());
  EXPECT_EQ(b.diag().str().rfind("error: --dump-after 'lowr': no such pass; the passes are: fold-constants, ", 0), 0u)
      << b.diag().str();
}

}  // namespace
}  // namespace accelc::compiler
