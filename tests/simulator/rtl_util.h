// tests/simulator/rtl_util.h — runs a test bench that simulator/rtl verilated
// for a preset on a text input and returns its output; and runs programs on a
// preset's verilated accelerator with a DRAM window. Both are linked in.
#ifndef ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_
#define ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "isa/dram_image.h"
#include "isa/program.h"
#include "isa/target.h"
#include "simulator/rtl/builtin_models.h"
#include "simulator/rtl/rtl_sim.h"
#include "tests/test_util.h"

namespace accelc::testing {

/// The output of test bench `bench` (tests/simulator/rtl_tb/<bench>_tb.cc, linked
/// in) verilated for `preset`, run on `input`; a failed run is a test failure
/// and gives an empty string.
inline std::string runVerilated(const std::string& preset, const std::string& bench, const std::string& input) {
  auto tb = simulator::builtinRtlTestBench(bench, preset);
  EXPECT_TRUE(tb.isOk()) << tb.diag().str();
  if (!tb) return "";
  std::istringstream in(input);
  std::ostringstream out;
  const int rc = (*tb)(in, out);
  EXPECT_EQ(rc, 0) << bench << " for " << preset;
  return rc == 0 ? out.str() : std::string();
}

/// `p`'s DRAM window as it starts a run: zeros, then its segments (isa::DramImage).
inline std::vector<uint8_t> programImage(const isa::Program& p) {
  isa::DramImage image(p.window);
  EXPECT_TRUE(image.loadProgram(p).isOk());
  return image.bytes();
}

/// A program's run on the verilated accelerator: its DRAM window before the
/// run, and the cycle count and window the cycle model ended with.
struct RtlRun {
  const isa::Program* program = nullptr;
  std::vector<uint8_t> before, after;
  uint64_t cycles = 0;
};

/// Runs each of `runs` on `model` and expects its DRAM window afterwards to
/// equal the cycle model's, and its cycle count too when `sameCycles` (or
/// at least as many otherwise).
inline void expectRtlMatches(simulator::RtlModel& model, const isa::Target& t, const std::vector<RtlRun>& runs,
                             bool sameCycles = true) {
  for (size_t i = 0; i < runs.size(); ++i) {
    std::vector<uint8_t> dram = runs[i].before;
    simulator::RtlRunOptions o;
    o.cycleLimit = 4 * runs[i].cycles + 100;
    auto r = simulator::runOnRtl(model, t, *runs[i].program, dram, o, "program " + std::to_string(i));
    ASSERT_TRUE(r.isOk()) << r.diag().str();
    if (sameCycles)
      EXPECT_EQ(r->cycles, runs[i].cycles) << "program " << i << ": cycles";
    else
      EXPECT_GE(r->cycles, runs[i].cycles) << "program " << i << ": cycles";
    ASSERT_EQ(dram.size(), runs[i].after.size()) << "program " << i;
    size_t first = 0;
    while (first < dram.size() && dram[first] == runs[i].after[first]) ++first;
    EXPECT_EQ(first, dram.size()) << "program " << i << ": DRAM differs first at byte " << first;
  }
}

/// The same on the preset's verilated accelerator (linked in).
inline void expectRtlMatches(const isa::Target& t, const std::vector<RtlRun>& runs) {
  auto model = simulator::builtinRtlModel(t);
  ASSERT_TRUE(model.isOk()) << model.diag().str();
  expectRtlMatches(**model, t, runs);
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_SIMULATOR_RTL_UTIL_H_
