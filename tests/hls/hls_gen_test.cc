// tests/hls/hls_gen_test.cc — the generated HLS C++: its sources keep the
// Vitis HLS coding rules, its parameter header is reviewed as a golden file,
// and the C-simulation shim detects a deadlock when every task is blocked.
#include <gtest/gtest.h>

#include "hls/hls_gen.h"
#include "hls/lint.h"
#include "support/yaml.h"
#include "tests/test_util.h"

namespace accelc::hls {
namespace {

/// The project of `preset` and the C-simulation headers, in folders of their own.
std::string writeProject(const std::string& preset) {
  const std::string dir = testing::tempDir() + "/hls-gen-" + preset;
  EXPECT_TRUE(writeHls(testing::presetTarget(preset), dir).isOk());
  EXPECT_TRUE(support::makeDirs(dir + "/csim"));
  for (const auto& [name, text] : csimSources()) EXPECT_TRUE(support::writeTextFile(dir + "/csim/" + name, text).isOk());
  return dir;
}

TEST(HlsGenTest, TheSourcesKeepTheVitisCodingRules) {
  for (const char* preset : {"tiny", "vta-default"}) {
    const std::string dir = writeProject(preset);
    support::Status st = lintHls(dir + "/accelc_accel.cpp", "accelc_top", {dir, dir + "/csim"});
    EXPECT_TRUE(st.isOk()) << preset << ": " << st.diag().str();
    st = lintHls(dir + "/accelc_arith_ops.h", "", {});
    EXPECT_TRUE(st.isOk()) << preset << ": " << st.diag().str();
  }
}

TEST(HlsGenTest, TheParametersOfVtaDefaultAreTheGoldenOnes) {
  testing::expectGolden("hls/accelc_params.vta-default.h", hlsParams(testing::presetTarget("vta-default")));
}

TEST(HlsGenTest, TheArithmeticIsTheSimulatorsFileItself) {
  const std::string dir = writeProject("tiny");
  EXPECT_EQ(testing::readFile(dir + "/accelc_arith_ops.h"), testing::readFile(testing::sourceDir() + "/isa/arith_ops.h"));
  for (const std::string& f : hlsFiles()) EXPECT_TRUE(support::isRegularFile(dir + "/" + f)) << f;
}

TEST(HlsGenTest, AHwspecOfOtherTypesIsRefusedNamingTheKey) {
  hwspec::HwSpec hw = testing::presetTarget("tiny").spec;
  hw.accType = hwspec::ElemType::kInt8;
  support::Status st = hlsSupports(hw);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.diag().str().find("int32 accumulators"), std::string::npos) << st.diag().str();
}

}  // namespace
}  // namespace accelc::hls
