// runtime/sim_devices/cycle_device.h — the SystemC cycle model as a device.
//
// Its own target (it links SystemC), so that only what runs the cycle model
// links it. One per process, for one HwSpec (simulator/cycle/cycle_sim.h).
// A run returns the model's events, cycles, per-unit time and label spans.
#ifndef ACCELC_RUNTIME_SIM_DEVICES_CYCLE_DEVICE_H_
#define ACCELC_RUNTIME_SIM_DEVICES_CYCLE_DEVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/cycle/trace.h"

namespace accelc::runtime {

/// The figures a run of the cycle model gives, as a device reports them.
RunResult runResultOf(const simulator::CycleStats& s);

class CycleDevice : public Device {
 public:
  /// The device, or why this process cannot elaborate the model for `t`;
  /// `trace`: record every run, end to end on one time line, for trace();
  /// `limits`: each run's cycle limit and progress; `checkDefined`: the
  /// --check-defined mode.
  static support::Expected<std::unique_ptr<CycleDevice>> create(const isa::Target& t, bool trace = false,
                                                                const isa::RunLimits& limits = {},
                                                                bool checkDefined = false);
  const isa::Target& target() const override { return sim_->target(); }
  support::Status write(uint64_t addr, const void* data, uint64_t n) override { return sim_->write(addr, data, n); }
  support::Status read(uint64_t addr, void* out, uint64_t n) override { return sim_->read(addr, out, n); }
  support::Expected<uint8_t*> writable(uint64_t addr, uint64_t n) override { return sim_->writable(addr, n); }
  support::Expected<const uint8_t*> readable(uint64_t addr, uint64_t n) override { return sim_->readable(addr, n); }
  support::Expected<RunResult> run(const isa::Program& p, const std::string& name) override;
  std::string kind() const override { return "cycle"; }
  std::optional<std::string> trace() const override;

 private:
  CycleDevice(std::unique_ptr<simulator::CycleSim> sim, bool trace) : sim_(std::move(sim)), tracing_(trace) {
    sim_->trace(trace);
  }
  std::unique_ptr<simulator::CycleSim> sim_;  ///< the model
  bool tracing_ = false;                      ///< record runs
  std::vector<simulator::TracedRun> traced_;  ///< recorded runs
  uint64_t timeline_ = 0;                     ///< cycles recorded so far
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_SIM_DEVICES_CYCLE_DEVICE_H_
