// runtime/sim_devices/make_device.h — the one factory over every engine that
// runs accelerator programs: the functional simulator, the SystemC cycle
// model, the verilated RTL and the HLS C++ in C-simulation, and by name the
// deploy runtime's board devices (runtime/deploy_device.h). The CLI, the tests and the benches make their
// devices here; what an engine can do beyond running (a trace, waveforms) is
// asked for in DeviceOptions, never reached by a cast.
#ifndef ACCELC_RUNTIME_SIM_DEVICES_MAKE_DEVICE_H_
#define ACCELC_RUNTIME_SIM_DEVICES_MAKE_DEVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "isa/run_limits.h"
#include "isa/target.h"
#include "runtime/device.h"
#include "simulator/rtl/model_cache.h"
#include "support/status.h"

namespace accelc::runtime {

/// The engines, as the CLI names them.
enum class Engine { kFsim, kCycle, kRtl, kHls };

/// "fsim", "cycle", "rtl" or "hls".
const char* engineName(Engine e);
/// Every engine's name, in Engine order.
std::vector<std::string> engineNames();
/// The engine named `name`; an error naming the choices otherwise.
support::Expected<Engine> parseEngine(const std::string& name);

/// What a device is asked for beyond running programs.
struct DeviceOptions {
  bool checkRaces = true;        ///< fsim: run the race checker
  bool checkDefined = false;     ///< fsim, cycle: reading an SRAM entry nothing wrote since reset is an error
  bool trace = false;            ///< cycle: record every run for Device::trace()
  std::string vcd;               ///< rtl: write each run's waveform to this file
  simulator::Progress progress;  ///< rtl, hls: hears of a model being verilated or compiled
  isa::RunLimits limits;         ///< per run: instructions and micro-ops (fsim, hls), cycles (cycle, rtl); progress
  uint64_t window = 0;           ///< board devices: the DRAM bytes the bundle needs (0: the hwspec's window)
};

/// The device of `engine` for `t`; an error when `o` asks for what the engine
/// cannot do, or when the engine cannot be had in this process (the cycle
/// model holds one hwspec per process).
support::Expected<std::unique_ptr<Device>> makeDevice(Engine engine, const isa::Target& t, const DeviceOptions& o = {});

/// The device named `name`: an engine's ("fsim", "cycle", "rtl", "hls") or a
/// deploy device of runtime/deploy_device.h ("board:NAME", "virtual:NAME"),
/// which take no options but fsim's.
support::Expected<std::unique_ptr<Device>> makeNamedDevice(const std::string& name, const isa::Target& t,
                                                           const DeviceOptions& o = {});

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_SIM_DEVICES_MAKE_DEVICE_H_
