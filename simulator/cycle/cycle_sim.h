// simulator/cycle/cycle_sim.h — the cycle model of the accelerator (SystemC).
//
// Fetch and the load, compute and store units are SystemC threads; the DRAM
// port (simulator/timing/dram_port.h) is shared state they consult. Time moves
// only by waits of whole cycles, at the granularity of instructions and DMAs.
// The arithmetic is the functional simulator's Datapath and its race checker,
// so DRAM contents and diagnostics are fsim's. The timing rules are those of
// docs/microarchitecture.md: fetch reads the text in bursts through the port
// and dispatches one instruction per cycle into command queues; a command or
// token pushed in cycle t is visible in t + 1; a unit starts its head
// instruction once its command and tokens are visible and its pushes have
// room, runs GEMM and ALU for their formula (simulator/timing/timing.h) and
// LOAD and STORE through the port, and pushes its tokens in the cycle it ends;
// FINISH waits for the load and store units and retires one cycle later.
// The model is elaborated once per process, for one HwSpec; every wait also
// waits on an abort event, so that a run that deadlocks or fails leaves the
// model ready for the next program. Errors return as diagnostics.
#ifndef ACCELC_SIMULATOR_CYCLE_CYCLE_SIM_H_
#define ACCELC_SIMULATOR_CYCLE_CYCLE_SIM_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/counters.h"
#include "isa/program.h"
#include "isa/run_limits.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::simulator {

/// One instruction's stay on its unit, for traces.
struct TraceSlice {
  int unit = 0;            ///< 0 load, 1 compute, 2 store
  uint64_t pc = 0;         ///< the instruction
  isa::Opcode opcode = isa::Opcode::kFinish;
  uint64_t start = 0, end = 0;  ///< cycles from the run's start
};

/// The span of one label of the program (a layer): from the first cycle any
/// of its instructions started to the cycle the last one ended.
struct LabelCycles {
  std::string name;
  uint64_t first = 0, last = 0;  ///< cycles from the run's start; last == first when none ran
};

/// What one run measured.
struct CycleStats {
  isa::Counters counters;            ///< the functional counts (as fsim's)
  uint64_t cycles = 0;               ///< cycle FINISH retired in, plus one
  std::array<uint64_t, 3> busy{};    ///< per unit (load, compute, store): cycles executing
  std::array<uint64_t, 3> tokenWait{};  ///< per unit: cycles a visible command waited on tokens
  std::array<uint64_t, 3> dramStall{};  ///< per unit: cycles its DMAs took beyond their time alone on the port
  uint64_t fetchWait = 0;            ///< cycles fetch waited for instruction data from DRAM
  std::vector<LabelCycles> labels;   ///< per label of the program, in its order
  std::vector<TraceSlice> slices;    ///< every instruction, when tracing
};

/// A device that runs programs on the cycle model.
class CycleSim {
 public:
  /// The model for `t`; an error when this process already elaborated it for another HwSpec.
  static support::Expected<std::unique_ptr<CycleSim>> create(const isa::Target& t);
  ~CycleSim();
  CycleSim(const CycleSim&) = delete;
  CycleSim& operator=(const CycleSim&) = delete;

  const isa::Target& target() const { return t_; }
  /// Writes `n` bytes at `addr` into DRAM.
  support::Status write(uint64_t addr, const void* data, uint64_t n);
  /// Where `n` bytes at `addr` lie in DRAM, to write in place (isa::DramImage::writable).
  support::Expected<uint8_t*> writable(uint64_t addr, uint64_t n);
  /// Where `n` bytes at `addr` lie in DRAM, to read in place (isa::DramImage::readable).
  support::Expected<const uint8_t*> readable(uint64_t addr, uint64_t n) const;
  /// Reads `n` bytes at `addr` from DRAM.
  support::Status read(uint64_t addr, void* out, uint64_t n) const;
  /// Writes a program's segments into DRAM.
  support::Status loadProgram(const isa::Program& p);
  /// Runs a loaded program to FINISH; `name` locates diagnostics.
  support::Expected<CycleStats> run(const isa::Program& p, const std::string& name);
  /// Whether runs record a TraceSlice per instruction.
  void trace(bool on) { trace_ = on; }
  /// The cycle limit of each run (isa/run_limits.h) and its progress reports.
  void limits(const isa::RunLimits& l) { limits_ = l; }
  /// --check-defined from now on: reading an SRAM entry that nothing wrote
  /// since this device was made is an error (as on fsim).
  void checkDefined();

 private:
  explicit CycleSim(const isa::Target& t);
  struct State;
  isa::Target t_;                 ///< the target (a copy: callers may pass temporaries)
  std::unique_ptr<State> state_;  ///< DRAM and on-chip buffers
  bool trace_ = false;            ///< record slices
  isa::RunLimits limits_;         ///< maxCycles and progress
};

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_CYCLE_CYCLE_SIM_H_
