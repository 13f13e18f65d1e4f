// simulator/rtl/rtl_model.h — a verilated accelerator, as a C++ object.
//
// simulator/rtl/core_model.cc wraps the model Verilator builds from
// hls/rtl/accelc_core.sv (top accelc_core, prefix ACCELC_RTL_TOP) and answers
// its DRAM port's beats from a DRAM window exactly as the contract says. The
// build links one such model per test preset (builtin_models.h); the runtime
// verilates one for any other hwspec into a shared library and loads it
// (rtl_sim.h, loadRtlModel). This header is all the two sides share, so it
// holds no library code.
#ifndef ACCELC_SIMULATOR_RTL_RTL_MODEL_H_
#define ACCELC_SIMULATOR_RTL_RTL_MODEL_H_

#include <cstdint>
#include <iosfwd>

namespace accelc::simulator {

/// How a run ended.
struct RtlOutcome {
  enum Kind {
    kDone,           ///< `done` rose in cycle `cycles`, and the cycle register agrees
    kStuck,          ///< no `done` within the cycle limit
    kOutOfWindow,    ///< a beat at byte `addr` left the DRAM window
    kCycleRegister,  ///< `done` rose in cycle `cycles` but the cycle register read `addr`
    kIllegal,        ///< fetch stopped at instruction `addr`: an opcode or buffer the ISA does not have
    // The Zynq IP's faults (axi_run.h), with fetch's pc in `addr` (for the
    // others than kIllegal, how far fetch had got, not the burst's instruction).
    kWindowFault,    ///< a burst past DRAM_WINDOW
    kAxiError,       ///< an AXI response was SLVERR or DECERR
    kMisaligned,     ///< a burst did not start on a beat
    kProtocol,       ///< the IP broke the AXI protocol (a WLAST off a burst's last beat, a burst across 4 KiB, an unanswered register access)
  };
  Kind kind = kDone;
  uint64_t cycles = 0;   ///< the cycle the run ended in, counted from the cycle after start
  uint64_t addr = 0;     ///< see Kind
  double seconds = 0.0;  ///< wall time of the simulation alone
};

/// One verilated accelerator. Each run starts it from reset with zeroed
/// buffers, as the simulators start.
class RtlModel {
 public:
  virtual ~RtlModel() = default;
  /// Runs the program whose `count` instructions start at byte `textAddr` of
  /// the DRAM window `dram` (`size` bytes, changed in place by the run's
  /// writes), for at most `limit` cycles.
  virtual RtlOutcome run(uint8_t* dram, uint64_t size, uint64_t textAddr, uint64_t count, uint64_t limit) = 0;
  /// Writes the next run's waveform to `vcdPath`; false when the model was
  /// verilated without --trace.
  virtual bool traceNextRun(const char* vcdPath) = 0;
  /// Bytes of one DRAM port beat.
  virtual uint64_t beatBytes() const = 0;
};

/// The factory a model's shared library exports (extern "C"); the caller
/// owns the model.
using RtlModelFactory = RtlModel* (*)();

/// A test bench of one part of the accelerator (tests/simulator/rtl_tb/*_tb.cc): it
/// reads its stimulus from `in`, writes what the part did to `out`, and
/// returns 0, or non-zero for bad input or a part that never answered.
using RtlTestBench = int (*)(std::istream& in, std::ostream& out);

/// The name of that factory in a shared library the runtime verilates.
inline constexpr const char* kRtlModelFactorySymbol = "accelc_rtl_create_Vaccelc_model";

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_RTL_RTL_MODEL_H_
