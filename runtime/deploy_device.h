// runtime/deploy_device.h — the devices a deployed runtime has, by name: the
// functional simulator ("fsim"), a board's accelerator ("board:NAME") and a
// virtual board ("virtual:NAME"). The simulator devices of
// runtime/sim_devices (cycle, rtl, hls) add to these in makeNamedDevice there;
// a deploy build links only this.
#ifndef ACCELC_RUNTIME_DEPLOY_DEVICE_H_
#define ACCELC_RUNTIME_DEPLOY_DEVICE_H_

#include <memory>
#include <string>

#include "isa/target.h"
#include "runtime/device.h"
#include "simulator/functional/fsim.h"
#include "support/status.h"

namespace accelc::runtime {

/// Whether `name` is a device of the deploy runtime ("fsim", "board:...", "virtual:...").
bool isDeployDeviceName(const std::string& name);

/// The deploy device `name` for `t` (fsim with `o`); an error naming the
/// choices for any other name, and saying why for a device this machine lacks.
/// A board's device holds a DRAM window of `window` bytes (0: the hwspec's),
/// which must fit its DMA pool, and stops a run after `o.limits.maxCycles`
/// cycles at the board's fabric clock (aborting it).
///
/// "virtual:BOARD[:HWSPEC]" is a virtual board (boards/virtual/virtual_bus.h):
/// BOARD's file gives the DMA pool (its size; at the top of the board's DDR)
/// and the fabric clock, and the IP on it is HWSPEC's (default: `t`'s), so
/// that a bundle for another hwspec meets the driver's refusal.
support::Expected<std::unique_ptr<Device>> makeDeployDevice(const std::string& name, const isa::Target& t,
                                                            const simulator::FsimOptions& o = {},
                                                            uint64_t window = 0);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_DEPLOY_DEVICE_H_
