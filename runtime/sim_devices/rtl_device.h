// runtime/sim_devices/rtl_device.h — the accelerator's RTL, verilated, as a device.
//
// The model for a hwspec comes from the verilated-model cache
// (simulator/rtl/model_cache.h), built from accelc rtl's sources on first
// use; a program that links a model already (simulator/rtl/builtin_models.h)
// hands it over instead. Each run starts the model from reset with empty
// buffers; the RTL counts cycles only, so a run's result has cycles and no
// events. The cycle model runs each program first on the same DRAM: an
// illegal program gets its diagnostic, and the RTL must end in the same
// cycle (else the run is an error).
#ifndef ACCELC_RUNTIME_SIM_DEVICES_RTL_DEVICE_H_
#define ACCELC_RUNTIME_SIM_DEVICES_RTL_DEVICE_H_

#include <memory>
#include <string>

#include "isa/dram_image.h"
#include "runtime/device.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/rtl/model_cache.h"
#include "simulator/rtl/rtl_sim.h"

namespace accelc::runtime {

/// The verilated model of `t` from accelc rtl's sources: from the cache, or
/// verilated into it first (`progress` hears of that); `vcd` selects the
/// model that writes waveforms. An error when the RTL does not implement `t`.
support::Expected<std::unique_ptr<simulator::RtlModel>> verilatedRtlModel(const isa::Target& t, bool vcd,
                                                                          const simulator::Progress& progress);

class RtlDevice : public Device {
 public:
  /// The device on the cached model of `t`, verilated first when the cache
  /// lacks it (`progress` hears of that); with a `vcd` file, the model that
  /// writes waveforms, each run's into that file. The process's cycle model
  /// must hold `t` (it is elaborated once per process).
  static support::Expected<std::unique_ptr<RtlDevice>> create(const isa::Target& t, const std::string& vcd = "",
                                                              const simulator::Progress& progress = {},
                                                              const isa::RunLimits& limits = {});
  /// The device on a model of `t` the caller has (a linked-in one).
  static support::Expected<std::unique_ptr<RtlDevice>> create(const isa::Target& t,
                                                              std::unique_ptr<simulator::RtlModel> rtl);
  const isa::Target& target() const override { return t_; }
  support::Status write(uint64_t addr, const void* data, uint64_t n) override { return dram_.write(addr, data, n); }
  support::Status read(uint64_t addr, void* out, uint64_t n) override { return dram_.read(addr, out, n); }
  support::Expected<uint8_t*> writable(uint64_t addr, uint64_t n) override { return dram_.writable(addr, n); }
  support::Expected<const uint8_t*> readable(uint64_t addr, uint64_t n) override { return dram_.readable(addr, n); }
  /// Cycles, and the simulation's own wall time.
  support::Expected<RunResult> run(const isa::Program& p, const std::string& name) override;
  std::string kind() const override { return "rtl"; }

 private:
  RtlDevice(const isa::Target& t, std::unique_ptr<simulator::RtlModel> rtl, std::unique_ptr<simulator::CycleSim> model)
      : t_(t), rtl_(std::move(rtl)), model_(std::move(model)), dram_(static_cast<uint64_t>(t.spec.dramWindowBytes)) {}
  isa::Target t_;                               ///< the target
  std::unique_ptr<simulator::RtlModel> rtl_;    ///< the verilated accelerator
  std::unique_ptr<simulator::CycleSim> model_;  ///< runs each program first
  isa::DramImage dram_;                         ///< the DRAM window
  simulator::RtlRunOptions options_;            ///< run options (waveform file)
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_SIM_DEVICES_RTL_DEVICE_H_
