// runtime/sim_devices/c_api_device.cc — the C API's devices on a development
// machine (runtime/c_api_device.h): every name makeNamedDevice knows, as
// `accelc run --engine` takes them.
#include "runtime/c_api_device.h"

#include "runtime/sim_devices/make_device.h"

namespace accelc::runtime {

support::Expected<std::unique_ptr<Device>> capiDevice(const std::string& name, const isa::Target& t, uint64_t window) {
  DeviceOptions o;
  o.window = window;
  return makeNamedDevice(name, t, o);
}

}  // namespace accelc::runtime
