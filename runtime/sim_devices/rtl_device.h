// runtime/sim_devices/rtl_device.h — the accelerator's RTL, verilated, as a device.
//
// The model for a hwspec is verilated once, on first use, into a cache folder
// keyed by the hwspec and ISA hash and the sources (rtlCacheDir): accelc rtl's
// sources and the harness (simulator/rtl) built by `verilator --cc --build -O2`
// into a shared library, with progress on standard error; later runs load it.
// A program that links a model already (simulator/rtl/builtin_models.h) hands
// it over instead. Each run starts the model from reset
// with empty buffers and returns its cycle count; the RTL counts cycles only,
// so the functional counters of a run are zero. The cycle model runs each
// program first on the same DRAM: an illegal program gets its diagnostic,
// and the RTL must end in the same cycle (else the run is an error).
#ifndef ACCELC_RUNTIME_SIM_DEVICES_RTL_DEVICE_H_
#define ACCELC_RUNTIME_SIM_DEVICES_RTL_DEVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/rtl/rtl_sim.h"

namespace accelc::runtime {

/// The cache folder of the verilated model for `t`: $ACCELC_RTL_CACHE, else
/// $XDG_CACHE_HOME/accelc/rtl, else ~/.cache/accelc/rtl; then a hash of the
/// target, the RTL sources and the harness in hex, with "-vcd" for the model
/// that writes waveforms.
std::string rtlCacheDir(const isa::Target& t, bool vcd);

/// Runs programs on the verilated RTL; lastCycles() is the last run's count.
class RtlDevice : public Device {
 public:
  /// The device, verilating the model first when the cache lacks it; `vcd`
  /// selects the model that can write waveforms. The process's cycle model
  /// must hold `t` (it is elaborated once per process).
  static support::Expected<std::unique_ptr<RtlDevice>> create(const isa::Target& t, bool vcd = false);
  /// The device on a model of `t` the caller has (a linked-in one).
  static support::Expected<std::unique_ptr<RtlDevice>> create(const isa::Target& t,
                                                              std::unique_ptr<simulator::RtlModel> rtl);
  const isa::Target& target() const override { return t_; }
  support::Status write(uint64_t addr, const void* data, uint64_t n) override;
  support::Status read(uint64_t addr, void* out, uint64_t n) override;
  support::Expected<simulator::Counters> run(const isa::Program& p, const std::string& name) override;
  std::string kind() const override { return "rtl"; }
  uint64_t lastCycles() const override { return cycles_; }
  /// Options of the next runs (waveform file).
  simulator::RtlRunOptions& options() { return options_; }
  /// The last run's simulation time in seconds.
  double lastSeconds() const { return seconds_; }

 private:
  RtlDevice(const isa::Target& t, std::unique_ptr<simulator::RtlModel> rtl, std::unique_ptr<simulator::CycleSim> model)
      : t_(t), rtl_(std::move(rtl)), model_(std::move(model)) {}
  isa::Target t_;                     ///< the target
  std::unique_ptr<simulator::RtlModel> rtl_;    ///< the verilated accelerator
  std::unique_ptr<simulator::CycleSim> model_;  ///< runs each program first
  std::vector<uint8_t> dram_;         ///< the DRAM window
  uint64_t cycles_ = 0;               ///< the last run's count
  double seconds_ = 0.0;              ///< the last run's simulation time
  simulator::RtlRunOptions options_;  ///< run options
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_SIM_DEVICES_RTL_DEVICE_H_
