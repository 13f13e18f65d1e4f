// runtime/sim_devices/make_device.cc — engines by name, and their devices.
#include "runtime/sim_devices/make_device.h"

#include "runtime/deploy_device.h"
#include "runtime/sim_devices/cycle_device.h"
#include "runtime/sim_devices/hls_device.h"
#include "runtime/sim_devices/rtl_device.h"

namespace accelc::runtime {

const char* engineName(Engine e) {
  switch (e) {
    case Engine::kFsim:
      return "fsim";
    case Engine::kCycle:
      return "cycle";
    case Engine::kRtl:
      return "rtl";
    case Engine::kHls:
      return "hls";
  }
  return "?";
}

std::vector<std::string> engineNames() {
  return {engineName(Engine::kFsim), engineName(Engine::kCycle), engineName(Engine::kRtl), engineName(Engine::kHls)};
}

support::Expected<Engine> parseEngine(const std::string& name) {
  for (Engine e : {Engine::kFsim, Engine::kCycle, Engine::kRtl, Engine::kHls})
    if (name == engineName(e)) return e;
  return support::error(support::Location(), "unknown engine '" + name + "': expected fsim, cycle, rtl or hls");
}

support::Expected<std::unique_ptr<Device>> makeDevice(Engine engine, const isa::Target& t, const DeviceOptions& o) {
  if (o.trace && engine != Engine::kCycle)
    return support::error(support::Location(), std::string("the ") + engineName(engine) + " engine records no trace");
  if (!o.vcd.empty() && engine != Engine::kRtl)
    return support::error(support::Location(), std::string("the ") + engineName(engine) + " engine writes no waveform");
  switch (engine) {
    case Engine::kFsim:  // the deploy runtime's, as a board's runtime makes it
      return makeDeployDevice(engineName(engine), t, simulator::FsimOptions{o.checkRaces, o.limits, o.checkDefined});
    case Engine::kCycle: {
      ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<CycleDevice> d, CycleDevice::create(t, o.trace, o.limits, o.checkDefined));
      return std::unique_ptr<Device>(std::move(d));
    }
    case Engine::kRtl: {
      ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<RtlDevice> d, RtlDevice::create(t, o.vcd, o.progress, o.limits));
      return std::unique_ptr<Device>(std::move(d));
    }
    case Engine::kHls: {
      if (o.checkDefined)
        return support::error(support::Location(), "the hls engine has no --check-defined (its buffers start zero)");
      ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<HlsDevice> d, HlsDevice::create(t, o.progress, o.limits));
      return std::unique_ptr<Device>(std::move(d));
    }
  }
  return support::error(support::Location(), "unknown engine");
}

support::Expected<std::unique_ptr<Device>> makeNamedDevice(const std::string& name, const isa::Target& t,
                                                           const DeviceOptions& o) {
  if (name != engineName(Engine::kFsim) && isDeployDeviceName(name)) {
    if (o.trace || !o.vcd.empty()) return support::error(support::Location(), "device '" + name + "' records no trace");
    return makeDeployDevice(name, t, simulator::FsimOptions{o.checkRaces, o.limits, o.checkDefined}, o.window);
  }
  ACCELC_ASSIGN_OR_RETURN(Engine e, parseEngine(name));
  return makeDevice(e, t, o);
}

}  // namespace accelc::runtime
