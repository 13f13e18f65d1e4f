// tests/deploy/deploy_sim_test.cc — the C API with every engine's device
// (accelc_runtime_c_sim): digits on the cycle model, the verilated RTL and
// the HLS C++ in C-simulation gives `accelc run`'s bits on each, and the
// cycles `accelc run` reports on the timed ones.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "runtime/include/accelc_runtime.h"
#include "tests/deploy/deploy_util.h"

namespace {

using namespace accelc::testing::deploy;

/// The accelerator cycles `accelc run` printed ("N cycles on the accelerator"), 0 when it printed none.
uint64_t printedCycles(const std::string& text) {
  std::smatch m;
  return std::regex_search(text, m, std::regex("([0-9]+) cycles on the accelerator")) ? std::stoull(m[1]) : 0;
}

class SimDeviceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SimDeviceTest, TheCApiRunsDigitsAsAccelcRunDoes) {
  const std::string device = GetParam();
  const Digits& d = digits();
  const Out r = sh(kAccelc + " run " + d.bundle + " --engine " + device + " --input input=" + kInput + " --output " +
                   own("run"));
  ASSERT_EQ(r.rc, 0) << r.text;
  const uint64_t cycles = printedCycles(r.text);
  EXPECT_EQ(cycles > 0, device != "hls") << r.text;  // the C-simulation is untimed
  accelc_bundle* b = nullptr;
  ASSERT_EQ(accelc_bundle_open(d.bundle.c_str(), &b), ACCELC_OK) << accelc_last_error();
  accelc_session* s = nullptr;
  ASSERT_EQ(accelc_session_create(b, device.c_str(), nullptr, &s), ACCELC_OK) << accelc_last_error();
  const std::vector<float> x = inputFloats();
  ASSERT_EQ(accelc_session_set_input(s, 0, x.data(), x.size() * sizeof(float)), ACCELC_OK) << accelc_last_error();
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(accelc_session_run(s), ACCELC_OK) << accelc_last_error();
    std::vector<uint8_t> y(d.logits.size());
    ASSERT_EQ(accelc_session_get_output(s, 0, y.data(), y.size()), ACCELC_OK) << accelc_last_error();
    EXPECT_EQ(y, d.logits) << "run " << run;
    EXPECT_EQ(accelc_session_cycles(s), cycles) << "run " << run;
    uint64_t perStep = 0;
    for (int i = 0; i < accelc_session_step_count(s); ++i) {
      accelc_step_timing t;
      ASSERT_EQ(accelc_session_step(s, i, &t), ACCELC_OK);
      perStep += t.cycles;
    }
    EXPECT_EQ(perStep, cycles) << "run " << run;
  }
  accelc_session_destroy(s);
  accelc_bundle_close(b);
}

INSTANTIATE_TEST_SUITE_P(Engines, SimDeviceTest, ::testing::Values("cycle", "rtl", "hls"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(SimDeviceTest, AnUnknownDeviceIsRefusedNamingTheEngines) {
  accelc_bundle* b = nullptr;
  ASSERT_EQ(accelc_bundle_open(digits().bundle.c_str(), &b), ACCELC_OK) << accelc_last_error();
  accelc_session* s = nullptr;
  EXPECT_EQ(accelc_session_create(b, "gpu", nullptr, &s), ACCELC_ERROR_DEVICE);
  EXPECT_EQ(s, nullptr);
  EXPECT_NE(std::string(accelc_last_error()).find("unknown engine 'gpu': expected fsim, cycle, rtl or hls"),
            std::string::npos)
      << accelc_last_error();
  accelc_bundle_close(b);
}

}  // namespace
