// runtime/sim_devices/cycle_device.cc — the cycle model behind the Device interface.
#include "runtime/sim_devices/cycle_device.h"

namespace accelc::runtime {

RunResult runResultOf(const simulator::CycleStats& s) {
  RunResult r;
  r.cycles = s.cycles;
  r.events = s.counters;
  r.units.emplace();
  for (int u = 0; u < isa::kNumUnits; ++u) (*r.units)[u] = {s.busy[u], s.tokenWait[u], s.dramStall[u]};
  r.fetchWait = s.fetchWait;
  for (const simulator::LabelCycles& l : s.labels) r.labels.push_back({l.name, l.first, l.last});
  return r;
}

support::Expected<std::unique_ptr<CycleDevice>> CycleDevice::create(const isa::Target& t, bool trace,
                                                                    const isa::RunLimits& limits, bool checkDefined) {
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<simulator::CycleSim> sim, simulator::CycleSim::create(t));
  sim->limits(limits);
  if (checkDefined) sim->checkDefined();
  return std::unique_ptr<CycleDevice>(new CycleDevice(std::move(sim), trace));
}

support::Expected<RunResult> CycleDevice::run(const isa::Program& p, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(simulator::CycleStats s, sim_->run(p, name));
  if (tracing_) traced_.push_back({name, timeline_, s.cycles, std::move(s.slices)});
  timeline_ += s.cycles;
  return runResultOf(s);
}

std::optional<std::string> CycleDevice::trace() const {
  if (!tracing_) return std::nullopt;
  return simulator::traceJson(traced_);
}

}  // namespace accelc::runtime
