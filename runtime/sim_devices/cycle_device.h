// runtime/sim_devices/cycle_device.h — the SystemC cycle model as a device.
//
// Its own target (it links SystemC), so that only what runs the cycle model
// links it. One per process, for one HwSpec (simulator/cycle/cycle_sim.h).
#ifndef ACCELC_RUNTIME_SIM_DEVICES_CYCLE_DEVICE_H_
#define ACCELC_RUNTIME_SIM_DEVICES_CYCLE_DEVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/cycle/trace.h"

namespace accelc::runtime {

/// Runs programs on the cycle model; lastCycles() is the last run's count.
class CycleDevice : public Device {
 public:
  /// The device, or why this process cannot elaborate the model for `t`.
  static support::Expected<std::unique_ptr<CycleDevice>> create(const isa::Target& t);
  const isa::Target& target() const override { return sim_->target(); }
  support::Status write(uint64_t addr, const void* data, uint64_t n) override { return sim_->write(addr, data, n); }
  support::Status read(uint64_t addr, void* out, uint64_t n) override { return sim_->read(addr, out, n); }
  support::Expected<simulator::Counters> run(const isa::Program& p, const std::string& name) override;
  std::string kind() const override { return "cycle"; }
  uint64_t lastCycles() const override { return last_.cycles; }
  /// Everything the last run measured.
  const simulator::CycleStats& lastStats() const { return last_; }
  /// Records every run, end to end on one time line, for a trace.
  void trace(bool on) { sim_->trace(on), tracing_ = on; }
  /// The runs recorded so far.
  const std::vector<simulator::TracedRun>& traced() const { return traced_; }

 private:
  explicit CycleDevice(std::unique_ptr<simulator::CycleSim> sim) : sim_(std::move(sim)) {}
  std::unique_ptr<simulator::CycleSim> sim_;  ///< the model
  simulator::CycleStats last_;                ///< the last run
  bool tracing_ = false;                      ///< record runs
  std::vector<simulator::TracedRun> traced_;  ///< recorded runs
  uint64_t timeline_ = 0;                     ///< cycles recorded so far
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_SIM_DEVICES_CYCLE_DEVICE_H_
