// simulator/rtl/rtl_sim.h — runs programs on a verilated accelerator.
//
// The harness (simulator/rtl/core_main.cc, verilated with the RTL into one
// executable) answers the DRAM port's beats from a DRAM window exactly as the
// contract says and runs one program per request. This library speaks its
// text protocol: it sends the window before a run and reads back the cycle
// count and the window after. Building the harness for a hwspec is the
// runtime's (runtime/sim_devices/rtl_device.h): the RTL comes from hls/.
#ifndef ACCELC_SIMULATOR_RTL_RTL_SIM_H_
#define ACCELC_SIMULATOR_RTL_RTL_SIM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::simulator {

/// The harness's C++ source, to verilate with the RTL (top module accelc_core).
const std::string& rtlHarnessSource();

/// Options of one run.
struct RtlRunOptions {
  uint64_t cycleLimit = 4000000000ull;  ///< a run still going after this many cycles is reported stuck
  std::string vcd;                      ///< waveform file (a harness verilated with --trace)
  bool stats = false;                   ///< time the simulation itself (RtlResult::seconds)
};

/// What a run returns.
struct RtlResult {
  uint64_t cycles = 0;   ///< the cycle count
  double seconds = 0.0;  ///< wall time of the simulation alone, without loading DRAM (with RtlRunOptions::stats)
};

/// One program for the harness: its DRAM window before the run (text
/// included), and the cycles after which the run counts as stuck.
struct HarnessRun {
  const isa::Program* program = nullptr;
  const std::vector<uint8_t>* dram = nullptr;
  uint64_t cycleLimit = 0;
};

/// The harness's standard input for `runs`, run in order (the protocol that
/// simulator/rtl/core_main.cc describes).
std::string harnessInput(const isa::Target& t, const std::vector<HarnessRun>& runs);

/// Two lower-case hex digits per byte: how the harness writes DRAM windows.
std::string hexOf(const std::vector<uint8_t>& bytes);

/// Runs `p` (its text already in `dram`) on the harness executable `harness`;
/// `dram` is the DRAM window before the run and after it. `name` locates
/// diagnostics.
support::Expected<RtlResult> runOnRtl(const std::string& harness, const isa::Target& t, const isa::Program& p,
                                      std::vector<uint8_t>& dram, const RtlRunOptions& o, const std::string& name);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_RTL_RTL_SIM_H_
