// tests/simulator/rtl_util.h — runs a verilated harness that simulator/rtl
// built for a preset, on a text input, and returns its output; and runs
// programs on the verilated accelerator with a DRAM window.
#ifndef ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_
#define ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "isa/program.h"
#include "isa/target.h"
#include "simulator/rtl/rtl_sim.h"
#include "tests/test_util.h"

namespace accelc::testing {

/// The output of build/simulator/rtl/<preset>/<model> run on `input`; a failed
/// run is a test failure and gives an empty string.
inline std::string runVerilated(const std::string& preset, const std::string& model, const std::string& input) {
  const std::string harness = std::string(ACCELC_BUILD_DIR) + "/simulator/rtl/" + preset + "/" + model;
  // The process id keeps tests that run at once (ctest -j) apart.
  const std::string in = tempDir() + "/" + model + "_" + preset + "_" + std::to_string(::getpid()) + ".in", out = in + ".out";
  std::ofstream(in) << input;
  const int rc = std::system((harness + " < " + in + " > " + out).c_str());
  EXPECT_EQ(rc, 0) << harness;
  std::string got = rc == 0 ? readFile(out) : std::string();
  std::remove(in.c_str());
  std::remove(out.c_str());
  return got;
}

/// A program's run on the verilated accelerator: its DRAM window before the
/// run, and the cycle count and window the cycle model ended with.
struct RtlRun {
  const isa::Program* program = nullptr;
  std::vector<uint8_t> before, after;
  uint64_t cycles = 0;
};

/// Runs each of `runs` on build/simulator/rtl/<preset>/core and expects its
/// cycle count and DRAM window afterwards to equal the cycle model's.
inline void expectRtlMatches(const isa::Target& t, const std::vector<RtlRun>& runs) {
  std::vector<simulator::HarnessRun> input;
  for (const RtlRun& r : runs) input.push_back({r.program, &r.before, 2 * r.cycles + 100});
  std::istringstream got(runVerilated(t.spec.name, "core", simulator::harnessInput(t, input)));
  for (size_t i = 0; i < runs.size(); ++i) {
    std::string cycles, dram;
    std::getline(got, cycles);
    EXPECT_EQ(cycles, std::to_string(runs[i].cycles)) << "program " << i << ": cycles";
    if (cycles != std::to_string(runs[i].cycles)) continue;
    std::getline(got, dram);
    const std::string want = simulator::hexOf(runs[i].after);
    ASSERT_EQ(dram.size(), want.size()) << "program " << i;
    size_t first = 0;
    while (first < dram.size() && dram[first] == want[first]) ++first;
    EXPECT_EQ(first, dram.size()) << "program " << i << ": DRAM differs first at byte " << first / 2;
  }
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_
