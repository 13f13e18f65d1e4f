// runtime/c_api_deploy_device.cc — the deploy library's devices for the C API
// (runtime/c_api_device.h): those of runtime/deploy_device.h.
#include "runtime/c_api_device.h"

#include "runtime/deploy_device.h"

namespace accelc::runtime {

support::Expected<std::unique_ptr<Device>> capiDevice(const std::string& name, const isa::Target& t, uint64_t window) {
  return makeDeployDevice(name, t, {}, window);
}

}  // namespace accelc::runtime
