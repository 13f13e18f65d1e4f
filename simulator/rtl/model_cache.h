// simulator/rtl/model_cache.h — verilated models of any hwspec, built once
// into a cache folder and loaded from there.
//
// A model is the RTL of one target (written by its caller: hls/ generates it)
// and this folder's harness (rtlHarnessSources, or axiHarnessSources for the
// Zynq IP), built by `verilator --cc --build -O2` into a shared library that
// exports only the model's factory.
// The cache folder is keyed by the target's hash, the RTL's text and the
// harness's; work happens in a folder of the process's own, renamed into
// place when done, so that processes verilating at once do not meet.
#ifndef ACCELC_SIMULATOR_RTL_MODEL_CACHE_H_
#define ACCELC_SIMULATOR_RTL_MODEL_CACHE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "isa/target.h"
#include "simulator/rtl/axi_model.h"
#include "simulator/rtl/rtl_model.h"
#include "support/status.h"

namespace accelc::simulator {

/// The RTL of one target, as its caller generates it.
struct RtlSources {
  std::string text;                ///< every source's text, generated packages included, for the cache key
  std::vector<std::string> files;  ///< what to verilate, relative to the folder `write` fills
  std::function<support::Status(const std::string& dir)> write;  ///< writes the files into `dir`
};

/// Reports long work, one line a call ("verilating ... into DIR").
using Progress = std::function<void(const std::string&)>;

/// The cache folder of the model of `t` from `rtlText`: $ACCELC_RTL_CACHE,
/// else $XDG_CACHE_HOME/accelc/rtl, else ~/.cache/accelc/rtl; then the key in
/// hex, with "-vcd" for the model that writes waveforms.
std::string rtlCacheDir(const isa::Target& t, const std::string& rtlText, bool vcd);

/// The model of `t` from `src`, verilated first when the cache lacks it;
/// `vcd` selects the model verilated with --trace.
support::Expected<std::unique_ptr<RtlModel>> cachedRtlModel(const isa::Target& t, const RtlSources& src, bool vcd,
                                                            const Progress& progress);

/// The Zynq IP (top module accelc_axi) of `t` from `src` (the sources of
/// `accelc rtl --axi`), verilated with the AXI harness first when the cache
/// lacks it, in a folder of its own beside the core's.
support::Expected<std::unique_ptr<AxiModel>> cachedAxiModel(const isa::Target& t, const RtlSources& src,
                                                            const Progress& progress);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_RTL_MODEL_CACHE_H_
