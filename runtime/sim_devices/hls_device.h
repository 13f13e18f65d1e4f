// runtime/sim_devices/hls_device.h — the accelerator's HLS C++ in
// C-simulation, as a device (the fifth engine, `--engine hls`).
//
// The generated sources of a hwspec (hls/hls_gen.h) and the C-simulation
// shim and harness (hls/csim) are compiled with g++ into a shared library,
// once per hwspec, into a cache folder keyed like the RTL engine's; the
// library is loaded and each run calls its top level on this device's DRAM.
// C-simulation is untimed: a run's result has events (instructions, bytes
// moved, MACs, counted by the HLS code itself) and no cycles. A program the
// hardware refuses ends with the diagnostic its STATUS register gives: an
// illegal instruction, a transfer outside the window, or a token deadlock,
// which the shim detects when every task is blocked and which is described
// from the units' registers in isa/tokens.h's words.
#ifndef ACCELC_RUNTIME_SIM_DEVICES_HLS_DEVICE_H_
#define ACCELC_RUNTIME_SIM_DEVICES_HLS_DEVICE_H_

#include <memory>
#include <string>

#include "isa/dram_image.h"
#include "isa/run_limits.h"
#include "runtime/device.h"
#include "simulator/rtl/model_cache.h"

namespace accelc::runtime {

/// The cache folder of the compiled HLS model of `t`: $ACCELC_HLS_CACHE, else
/// $XDG_CACHE_HOME/accelc/hls, else ~/.cache/accelc/hls; then the key in hex
/// (the target, the sources, the compiler command and this machine's CPU).
std::string hlsCacheDir(const isa::Target& t);

class HlsDevice : public Device {
 public:
  /// The device on the compiled model of `t`, compiled first when the cache
  /// lacks it (`progress` hears of that). C-simulation cannot stop a run
  /// midway, so `limits` (instructions and micro-op applications) are checked
  /// before each run, over the instructions up to the first FINISH, with
  /// fsim's diagnostic.
  static support::Expected<std::unique_ptr<HlsDevice>> create(const isa::Target& t,
                                                              const simulator::Progress& progress = {},
                                                              const isa::RunLimits& limits = {});
  const isa::Target& target() const override { return t_; }
  support::Status write(uint64_t addr, const void* data, uint64_t n) override { return dram_.write(addr, data, n); }
  support::Status read(uint64_t addr, void* out, uint64_t n) override { return dram_.read(addr, out, n); }
  support::Expected<uint8_t*> writable(uint64_t addr, uint64_t n) override { return dram_.writable(addr, n); }
  support::Expected<const uint8_t*> readable(uint64_t addr, uint64_t n) override { return dram_.readable(addr, n); }
  /// Events, and the simulation's own wall time.
  support::Expected<RunResult> run(const isa::Program& p, const std::string& name) override;
  std::string kind() const override { return "hls"; }

 private:
  using RunFn = int (*)(uint8_t*, uint64_t, uint32_t, uint32_t, uint64_t, uint64_t*);
  HlsDevice(const isa::Target& t, RunFn fn, uint64_t beat, const isa::RunLimits& limits)
      : t_(t), dram_(static_cast<uint64_t>(t.spec.dramWindowBytes)), run_(fn), beat_(beat), limits_(limits) {}
  isa::Target t_;        ///< the target
  isa::DramImage dram_;  ///< the DRAM window
  RunFn run_;            ///< the model's accelc_csim_run
  uint64_t beat_;        ///< bytes of a DRAM beat
  isa::RunLimits limits_;  ///< checked before each run
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_SIM_DEVICES_HLS_DEVICE_H_
