// tests/hls/lint_test.cc — the Vitis HLS coding rules (hls/lint.h): a source
// that keeps them passes, and each kind of violation is caught at its line
// and column.
#include <gtest/gtest.h>

#include <fstream>
#include <utility>
#include <vector>

#include "hls/lint.h"
#include "tests/test_util.h"

namespace accelc::hls {
namespace {

// Keeps every rule: constant bounds, a trip count where the bound is an argument, every argument bound.
const char* const kClean = R"(#include <cstdint>
constexpr int kLanes = 4;
enum { kDepth = 8 };
static int32_t addAll(const int32_t* v, int n) {
  int32_t s = 0;
  for (int i = 0; i < n; ++i) {
#pragma HLS loop_tripcount min = 1 max = 64
    for (int j = 0; j < kLanes; ++j) s += v[i * kLanes + j];
  }
  for (int d = 0; d < kDepth; ++d) s += d;
  return s;
}
void top(const int32_t* in, int32_t* out, int n) {
#pragma HLS INTERFACE m_axi port = in
#pragma HLS INTERFACE m_axi port = out
#pragma HLS INTERFACE s_axilite port = n
  out[0] = addAll(in, n);
}
)";

/// The case's file: one per test, as ctest runs the tests in parallel processes.
std::string where() {
  return testing::tempDir() + "/lint_" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".cc";
}

/// kClean with each `from` replaced by its `to`, linted.
std::string lintEdits(const std::vector<std::pair<std::string, std::string>>& edits, const std::string& top = "top") {
  std::string s = kClean;
  for (const auto& [from, to] : edits) {
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
  }
  const std::string path = where();
  std::ofstream(path) << s;
  return lintHls(path, top, {}).str();
}

std::string lintEdited(const std::string& from, const std::string& to, const std::string& top = "top") {
  return lintEdits({{from, to}}, top);
}


TEST(HlsLintTest, ASourceThatKeepsTheRulesPasses) { EXPECT_EQ(lintEdited("", ""), "ok"); }

TEST(HlsLintTest, EachViolationIsCaughtAtItsLine) {
  EXPECT_EQ(lintEdited("  int32_t s = 0;\n", "  int32_t* s0 = new int32_t[4];\n  int32_t s = s0[0];\n"),
            where() + ":5:17: error: HLS rule: no dynamic memory: 'new'");
  EXPECT_EQ(lintEdits({{"#include <cstdint>\n", "#include <cstdint>\n#include <cstdlib>\n"},
                       {"  out[0] = addAll(in, n);\n", "  free(out);\n  out[0] = addAll(in, n);\n"}}),
            where() + ":18:3: error: HLS rule: no dynamic memory: 'free'");
  EXPECT_EQ(lintEdited("  return s;\n", "  return s + (n > 1 ? addAll(v, n - 1) : 0);\n"),
            where() + ":11:23: error: HLS rule: no recursion: 'addAll' calls 'addAll', which leads back to it");
  EXPECT_EQ(lintEdited("#include <cstdint>\n", "#include <cstdint>\n#include <vector>\nstd::vector<int> cache;\n"),
            where() + ":3:18: error: HLS rule: no STL containers: 'cache' is a std::vector");
  EXPECT_EQ(lintEdited("#pragma HLS loop_tripcount min = 1 max = 64\n", ""),
            where() + ":6:3: error: HLS rule: a loop whose bound is not a constant needs '#pragma HLS loop_tripcount' "
                      "in its body");
  EXPECT_EQ(lintEdited("#pragma HLS INTERFACE s_axilite port = n\n", ""),
            where() + ":13:47: error: HLS rule: top-level argument 'n' has no '#pragma HLS INTERFACE ... port=n'");
}

TEST(HlsLintTest, ATripCountInANestedLoopDoesNotCountForTheOuterOne) {
  EXPECT_EQ(lintEdited("#pragma HLS loop_tripcount min = 1 max = 64\n    for (int j = 0; j < kLanes; ++j) s += v[i * kLanes + j];",
                       "    for (int j = 0; j < kLanes; ++j) {\n#pragma HLS loop_tripcount min = 1 max = 64\n      s += v[i * kLanes + j];\n    }"),
            where() + ":6:3: error: HLS rule: a loop whose bound is not a constant needs '#pragma HLS loop_tripcount' "
                      "in its body");
  EXPECT_EQ(lintEdited("", "", "kernel"), where() + ": error: HLS rule: the top function 'kernel' is not defined in this file");
}

}  // namespace
}  // namespace accelc::hls
