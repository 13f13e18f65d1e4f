// tests/simulator/cycle_runs.h — programs run on the SystemC cycle model, as
// the references that the verilated accelerators are held to (rtl_util.h).
#ifndef ACCELC_TESTS_SIMULATOR_CYCLE_RUNS_H_
#define ACCELC_TESTS_SIMULATOR_CYCLE_RUNS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "simulator/cycle/cycle_sim.h"
#include "tests/simulator/rtl_util.h"

namespace accelc::testing {

/// Each of `programs` on a fresh cycle model (fresh DRAM and buffers, the
/// same elaborated model): its DRAM window before, and its cycles and window
/// after. A failed run is a test failure and ends the list.
inline std::vector<RtlRun> cycleModelRuns(const isa::Target& t, const std::vector<isa::Program>& programs) {
  std::vector<RtlRun> runs;
  for (size_t i = 0; i < programs.size(); ++i) {
    const isa::Program& p = programs[i];
    RtlRun r;
    r.program = &p;
    r.before = programImage(p);
    auto sim = simulator::CycleSim::create(t);
    EXPECT_TRUE(sim.isOk()) << sim.diag().str();
    if (!sim || !(*sim)->loadProgram(p).isOk()) return runs;
    auto stats = (*sim)->run(p, "test.bin");
    EXPECT_TRUE(stats.isOk()) << "program " << i << ": " << stats.diag().str();
    if (!stats) return runs;
    r.cycles = stats->cycles;
    r.after.resize(p.window);
    EXPECT_TRUE((*sim)->read(0, r.after.data(), r.after.size()).isOk());
    runs.push_back(std::move(r));
  }
  return runs;
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_SIMULATOR_CYCLE_RUNS_H_
