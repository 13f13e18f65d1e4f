// tests/lower/levels_util.h — one program on every level: fsim, the cycle
// model, the verilated RTL, the board driver on a virtual board and the HLS
// C++ in C-simulation, for the lowering tests.
#ifndef ACCELC_TESTS_LOWER_LEVELS_UTIL_H_
#define ACCELC_TESTS_LOWER_LEVELS_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "isa/program.h"
#include "runtime/deploy_device.h"
#include "runtime/sim_devices/hls_device.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/functional/fsim.h"
#include "tests/simulator/rtl_util.h"

namespace accelc::testing {

/// What one run on every level gave besides the output: fsim's counters and the cycle model's cycles.
struct LevelRun {
  isa::Counters counters;
  uint64_t cycles = 0;
};

/// Runs `p` after `writes` (byte address, bytes) on fsim, on the cycle model, on the verilated RTL and on
/// the HLS C++; returns fsim's `n` bytes at `out`, expects the cycle model's and the HLS engine's bytes and
/// counters to equal them, and the RTL's cycle count and DRAM the cycle model's (the virtual board's
/// too, on tiny and vta-default, whose Zynq IP is built in).
inline support::Expected<std::vector<uint8_t>> runOnLevels(
    const isa::Target& t, const isa::Program& p, const std::vector<std::pair<uint64_t, std::vector<uint8_t>>>& writes,
    uint64_t out, uint64_t n, LevelRun* ran = nullptr) {
  simulator::FunctionalSim sim(t);
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<simulator::CycleSim> cyc, simulator::CycleSim::create(t));
  ACCELC_TRY(sim.loadProgram(p));
  ACCELC_TRY(cyc->loadProgram(p));
  for (const auto& [addr, bytes] : writes) {
    ACCELC_TRY(sim.write(addr, bytes.data(), bytes.size()));
    ACCELC_TRY(cyc->write(addr, bytes.data(), bytes.size()));
  }
  RtlRun rtl;
  rtl.program = &p;
  rtl.before.resize(p.window);
  rtl.after.resize(p.window);
  ACCELC_TRY(cyc->read(0, rtl.before.data(), p.window));
  ACCELC_ASSIGN_OR_RETURN(isa::Counters c, sim.run(p, "test.bin"));
  ACCELC_ASSIGN_OR_RETURN(simulator::CycleStats cs, cyc->run(p, "test.bin"));
  rtl.cycles = cs.cycles;
  ACCELC_TRY(cyc->read(0, rtl.after.data(), p.window));
  expectRtlMatches(t, {rtl});
  // The board driver on a virtual board (the Zynq IP in its own process,
  // its buffers random at power-on), where the IP is built in.
  if (simulator::builtinAxiModel(t).isOk()) {
    ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Device> vb, runtime::makeDeployDevice("virtual:kv260", t, {}, p.window));
    ACCELC_TRY(vb->write(0, rtl.before.data(), p.window));
    ACCELC_ASSIGN_OR_RETURN(runtime::RunResult v, vb->run(p, "test.bin"));
    EXPECT_EQ(v.cycles.value_or(0), cs.cycles) << "the virtual board's cycle count differs from the cycle model's";
    std::vector<uint8_t> after(p.window);
    ACCELC_TRY(vb->read(0, after.data(), p.window));
    EXPECT_TRUE(after == rtl.after) << "the virtual board's DRAM differs from the cycle model's";
  }
  EXPECT_EQ(cs.counters, c) << "the cycle model's counters differ from fsim's";
  if (ran) ran->counters = c, ran->cycles = cs.cycles;
  std::vector<uint8_t> a(n), b(n);
  ACCELC_TRY(sim.read(out, a.data(), n));
  ACCELC_TRY(cyc->read(out, b.data(), n));
  EXPECT_EQ(b, a) << "the cycle model's output differs from fsim's";
  ::setenv("ACCELC_HLS_CACHE", (tempDir() + "/hls-cache").c_str(), 0);
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::HlsDevice> hls, runtime::HlsDevice::create(t));
  ACCELC_TRY(hls->loadProgram(p));
  for (const auto& [addr, bytes] : writes) ACCELC_TRY(hls->write(addr, bytes.data(), bytes.size()));
  ACCELC_ASSIGN_OR_RETURN(runtime::RunResult h, hls->run(p, "test.bin"));
  EXPECT_EQ(h.events.value_or(isa::Counters{}), c) << "the HLS engine's counters differ from fsim's";
  ACCELC_TRY(hls->read(out, b.data(), n));
  EXPECT_EQ(b, a) << "the HLS engine's output differs from fsim's";
  return a;
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_LOWER_LEVELS_UTIL_H_
