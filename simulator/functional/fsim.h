// simulator/functional/fsim.h — the functional simulator: bit-exact, concurrent.
//
// fsim runs a program the way the hardware would order it, without timing:
// fetch reads the instruction stream from DRAM in order and dispatches each
// instruction into the command queue of its unit (load, compute, store; each
// `queues.command_depth` deep), stalling while that queue is full. A unit runs
// the instruction at the head of its queue once the tokens it pops are there
// and the queues it pushes to have room (`queues.token_depth`). The program
// ends when FINISH has run and every unit is idle; tokens left in a queue then
// are an error. When nothing can move before that, the run stops with a
// deadlock diagnostic naming each blocked unit, its instruction and the
// queue it waits on; the token rules and their diagnostics are isa/tokens.h's.
// A race checker (race.h) reports any shared-buffer
// access that no token chain orders. A run stops with a located error at
// its limits (isa/run_limits.h): instructions retired and micro-op
// applications, each checked before the instruction that would pass it.
//
// The device interface — write, read, run — is the seam the runtime uses:
// DRAM persists across runs, so constants and programs are written once.
#ifndef ACCELC_SIMULATOR_FUNCTIONAL_FSIM_H_
#define ACCELC_SIMULATOR_FUNCTIONAL_FSIM_H_

#include <cstdint>
#include <memory>
#include <string>

#include "isa/counters.h"
#include "isa/dram_image.h"
#include "isa/program.h"
#include "isa/run_limits.h"
#include "isa/target.h"
#include "simulator/functional/state.h"
#include "support/status.h"

namespace accelc::simulator {

/// Options of a functional simulation.
struct FsimOptions {
  bool checkRaces = true;  ///< run the race checker (costs a little speed)
  isa::RunLimits limits;   ///< instructions and micro-op applications per run; progress
  bool checkDefined = false;  ///< --check-defined: reading an SRAM entry nothing wrote since reset is an error
};

/// One simulated device for one target.
class FunctionalSim {
 public:
  explicit FunctionalSim(const isa::Target& t, FsimOptions options = {});
  ~FunctionalSim();
  FunctionalSim(const FunctionalSim&) = delete;
  FunctionalSim& operator=(const FunctionalSim&) = delete;

  const isa::Target& target() const { return t_; }
  /// Copies bytes into DRAM at byte offset `addr` (the window grows to fit).
  support::Status write(uint64_t addr, const void* data, uint64_t n) { return dram_.write(addr, data, n); }
  /// Where `n` bytes at `addr` lie in DRAM, to write in place (isa::DramImage::writable).
  support::Expected<uint8_t*> writable(uint64_t addr, uint64_t n) { return dram_.writable(addr, n); }
  /// Where `n` bytes at `addr` lie in DRAM, to read in place (isa::DramImage::readable).
  support::Expected<const uint8_t*> readable(uint64_t addr, uint64_t n) const { return dram_.readable(addr, n); }
  /// Copies bytes out of DRAM; an error when outside the window.
  support::Status read(uint64_t addr, void* out, uint64_t n) const { return dram_.read(addr, out, n); }
  /// Sizes the window for `p` and writes its segments (text, micro-ops, constants).
  support::Status loadProgram(const isa::Program& p) { return dram_.loadProgram(p); }
  /// Runs `p`, whose segments are in DRAM (loadProgram); `name` locates errors.
  support::Expected<isa::Counters> run(const isa::Program& p, const std::string& name);
  /// The on-chip state after a run (for tests).
  const Srams& srams() const { return *srams_; }

 private:
  isa::Target t_;                ///< the hardware
  FsimOptions options_;          ///< checks to run
  isa::DramImage dram_;          ///< the DRAM window
  std::unique_ptr<Srams> srams_; ///< on-chip buffers
};

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_FUNCTIONAL_FSIM_H_
