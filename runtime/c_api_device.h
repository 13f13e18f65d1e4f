// runtime/c_api_device.h — how the C API (runtime/include/accelc_runtime.h)
// makes a session's device from its name. The library a program links
// defines it: accelc_runtime_c, the deploy runtime's, makes the deploy
// devices (fsim, board:NAME, virtual:NAME; runtime/deploy_device.h), and
// accelc_runtime_c_sim, for programs on a development machine, every device
// `accelc run --engine` names, the simulators' cycle, rtl and hls included
// (runtime/sim_devices/make_device.h). A program links one of the two.
#ifndef ACCELC_RUNTIME_C_API_DEVICE_H_
#define ACCELC_RUNTIME_C_API_DEVICE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "isa/target.h"
#include "runtime/device.h"
#include "support/status.h"

namespace accelc::runtime {

/// The device named `name` for `t`, a board's holding a DRAM window of
/// `window` bytes (0: the hwspec's); an error naming the choices otherwise.
support::Expected<std::unique_ptr<Device>> capiDevice(const std::string& name, const isa::Target& t, uint64_t window);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_C_API_DEVICE_H_
