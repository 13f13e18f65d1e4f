// simulator/rtl/rtl_sim.h — runs programs on a verilated accelerator.
//
// A model (rtl_model.h) comes either linked into the program (the test
// presets', builtin_models.h) or from a shared library that the runtime
// verilates for a hwspec (runtime/sim_devices/rtl_device.h) from accelc rtl's
// sources and the harness sources here; loadRtlModel opens such a library.
// runOnRtl turns a model's outcome into a result or a located diagnostic.
#ifndef ACCELC_SIMULATOR_RTL_RTL_SIM_H_
#define ACCELC_SIMULATOR_RTL_RTL_SIM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "isa/program.h"
#include "isa/target.h"
#include "simulator/rtl/rtl_model.h"
#include "support/status.h"

namespace accelc::simulator {

/// The harness's sources as (path, text): simulator/rtl/core_model.cc and the
/// header it includes, to verilate with the RTL (top module accelc_core,
/// prefix Vaccelc_model) into a shared library.
const std::vector<std::pair<std::string, std::string>>& rtlHarnessSources();
/// The Zynq IP's harness: simulator/rtl/axi_harness.cc, the AXI memory it
/// answers the master from and their headers, to verilate with the RTL of
/// `accelc rtl --axi` (top module accelc_axi, prefix Vaccelc_model).
const std::vector<std::pair<std::string, std::string>>& axiHarnessSources();

/// The factory `symbol` of the shared library `path` (a verilated model's),
/// loaded for the rest of the process; an error naming the library when
/// it cannot be loaded or lacks the symbol.
support::Expected<void*> loadModelFactory(const std::string& path, const char* symbol);

/// The model in the shared library `path` (built from rtlHarnessSources());
/// the library stays loaded for the rest of the process.
support::Expected<std::unique_ptr<RtlModel>> loadRtlModel(const std::string& path);

/// Options of one run.
struct RtlRunOptions {
  uint64_t cycleLimit = 4000000000ull;  ///< a run still going after this many cycles is reported stuck
  std::string vcd;                      ///< waveform file (a model verilated with --trace)
};

/// What a run returns.
struct RtlResult {
  uint64_t cycles = 0;   ///< the cycle count
  double seconds = 0.0;  ///< wall time of the simulation alone
};

/// Runs `p` (its text already in `dram`) on `model`; `dram` is the DRAM
/// window before the run and after it. `name` locates diagnostics.
support::Expected<RtlResult> runOnRtl(RtlModel& model, const isa::Target& t, const isa::Program& p,
                                      std::vector<uint8_t>& dram, const RtlRunOptions& o, const std::string& name);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_RTL_RTL_SIM_H_
