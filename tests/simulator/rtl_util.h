// tests/simulator/rtl_util.h — runs a verilated harness that simulator/rtl
// built for a preset, on a text input, and returns its output.
#ifndef ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_
#define ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/test_util.h"

namespace accelc::testing {

/// The output of build/simulator/rtl/<preset>/<model> run on `input`; a failed
/// run is a test failure and gives an empty string.
inline std::string runVerilated(const std::string& preset, const std::string& model, const std::string& input) {
  const std::string harness = std::string(ACCELC_BUILD_DIR) + "/simulator/rtl/" + preset + "/" + model;
  const std::string in = tempDir() + "/" + model + "_" + preset + ".in", out = in + ".out";
  std::ofstream(in) << input;
  const int rc = std::system((harness + " < " + in + " > " + out).c_str());
  EXPECT_EQ(rc, 0) << harness;
  return rc == 0 ? readFile(out) : std::string();
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_
