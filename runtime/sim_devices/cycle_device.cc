// runtime/sim_devices/cycle_device.cc — the cycle model behind the Device interface.
#include "runtime/sim_devices/cycle_device.h"

namespace accelc::runtime {

support::Expected<std::unique_ptr<CycleDevice>> CycleDevice::create(const isa::Target& t) {
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<simulator::CycleSim> sim, simulator::CycleSim::create(t));
  return std::unique_ptr<CycleDevice>(new CycleDevice(std::move(sim)));
}

support::Expected<simulator::Counters> CycleDevice::run(const isa::Program& p, const std::string& name) {
  last_ = {};
  ACCELC_ASSIGN_OR_RETURN(last_, sim_->run(p, name));
  if (tracing_) {
    traced_.push_back({name, timeline_, last_.cycles, std::move(last_.slices)});
    last_.slices.clear();
  }
  timeline_ += last_.cycles;
  return last_.counters;
}

}  // namespace accelc::runtime
