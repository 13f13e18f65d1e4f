// runtime/sim_devices/rtl_device.cc — the verilated RTL behind the Device interface.
#include "runtime/sim_devices/rtl_device.h"

#include "hls/rtl_gen.h"

namespace accelc::runtime {

support::Expected<std::unique_ptr<simulator::RtlModel>> verilatedRtlModel(const isa::Target& t, bool vcd,
                                                                          const simulator::Progress& progress) {
  ACCELC_TRY(hls::rtlSupports(t.spec));
  // The key covers the generated packages too, which the generator's code may change for the same hwspec.
  const simulator::RtlSources src{hls::rtlSourceTexts() + hls::hwPackage(t.spec) + hls::isaPackage(t), hls::rtlFiles(),
                                  [&t](const std::string& dir) { return hls::writeRtl(t, dir); }};
  return simulator::cachedRtlModel(t, src, vcd, progress);
}

support::Expected<std::unique_ptr<RtlDevice>> RtlDevice::create(const isa::Target& t, const std::string& vcd,
                                                                const simulator::Progress& progress,
                                                                const isa::RunLimits& limits) {
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<simulator::RtlModel> rtl, verilatedRtlModel(t, !vcd.empty(), progress));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<RtlDevice> d, create(t, std::move(rtl)));
  d->options_.vcd = vcd;
  // The cycle model runs each program first (run()), so its cycle limit
  // bounds the RTL's run too.
  d->model_->limits(limits);
  return d;
}

support::Expected<std::unique_ptr<RtlDevice>> RtlDevice::create(const isa::Target& t,
                                                                std::unique_ptr<simulator::RtlModel> rtl) {
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<simulator::CycleSim> model, simulator::CycleSim::create(t));
  return std::unique_ptr<RtlDevice>(new RtlDevice(t, std::move(rtl), std::move(model)));
}

support::Expected<RunResult> RtlDevice::run(const isa::Program& p, const std::string& name) {
  dram_.ensure(p.window);
  // The cycle model runs the program first, on the same DRAM: an illegal
  // program ends with its diagnostic instead of the RTL running on to its
  // cycle limit, and a legal one must end on the RTL in the same cycle.
  ACCELC_TRY(model_->write(0, dram_.at(0), dram_.size()));
  ACCELC_ASSIGN_OR_RETURN(simulator::CycleStats expected, model_->run(p, name));
  simulator::RtlRunOptions o = options_;
  o.cycleLimit = 2 * expected.cycles + 1000;
  ACCELC_ASSIGN_OR_RETURN(simulator::RtlResult r, simulator::runOnRtl(*rtl_, t_, p, dram_.bytes(), o, name));
  if (r.cycles != expected.cycles)
    return support::error(support::Location::file(name), "the RTL ended in cycle " + std::to_string(r.cycles) +
                                                             " and the cycle model in cycle " +
                                                             std::to_string(expected.cycles) + ": they must agree");
  RunResult result;
  result.cycles = r.cycles;
  result.simSeconds = r.seconds;
  return result;
}

}  // namespace accelc::runtime
