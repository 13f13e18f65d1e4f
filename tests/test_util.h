// tests/test_util.h — helpers shared by the test suites.
#ifndef ACCELC_TESTS_TEST_UTIL_H_
#define ACCELC_TESTS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "hwspec/hwspec.h"
#include "isa/target.h"

namespace accelc::testing {

/// The repository root (set by CMake).
inline std::string sourceDir() { return ACCELC_SOURCE_DIR; }
/// A scratch directory for this test binary.
inline std::string tempDir() { return ACCELC_TEMP_DIR; }

/// The target of a bundled preset; fails the test when it does not load.
inline isa::Target presetTarget(const std::string& name) {
  auto spec = hwspec::loadHwSpec(name);
  EXPECT_TRUE(spec.isOk()) << (spec ? "" : spec.diag().str());
  auto t = isa::loadTarget(*spec);
  EXPECT_TRUE(t.isOk()) << (t ? "" : t.diag().str());
  return *t;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Compares `actual` with the golden file `tests/golden/NAME`; with
/// ACCELC_UPDATE_GOLDEN=1 in the environment it rewrites the file instead.
inline void expectGolden(const std::string& name, const std::string& actual) {
  const std::string path = sourceDir() + "/tests/golden/" + name;
  if (std::getenv("ACCELC_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(readFile(path), actual) << "golden file " << path
                                    << " differs; rerun with ACCELC_UPDATE_GOLDEN=1 if the change is intended";
}

/// Names parameterized tests after their preset ("vta-default" -> vta_default).
struct PresetName {
  std::string operator()(const ::testing::TestParamInfo<std::string>& info) const {
    std::string n = info.param;
    for (char& c : n)
      if (c == '-') c = '_';
    return n;
  }
};

}  // namespace accelc::testing

/// Runs every TEST_P of `Suite` once per general-purpose preset.
#define ACCELC_INSTANTIATE_FOR_PRESETS(Suite)                                                              \
  INSTANTIATE_TEST_SUITE_P(Presets, Suite, ::testing::Values(std::string("tiny"), std::string("vta-default"), \
                                                             std::string("wide")),                         \
                           ::accelc::testing::PresetName())

/// Runs every TEST_P of `Suite` once per preset the RTL is verilated for: the
/// general-purpose ones and ice40 (an FPGA-sized core whose ALU has no mulq,
/// which the compiler's requantization needs).
#define ACCELC_INSTANTIATE_FOR_RTL_PRESETS(Suite)                                                          \
  INSTANTIATE_TEST_SUITE_P(Presets, Suite, ::testing::Values(std::string("tiny"), std::string("vta-default"), \
                                                             std::string("wide"), std::string("ice40")),   \
                           ::accelc::testing::PresetName())

#endif  // ACCELC_TESTS_TEST_UTIL_H_
