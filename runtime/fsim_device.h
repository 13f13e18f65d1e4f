// runtime/fsim_device.h — the functional simulator as a device: bit-exact,
// counts events, measures no time. The one simulated device a deploy build
// links (it needs no SystemC or Verilator).
#ifndef ACCELC_RUNTIME_FSIM_DEVICE_H_
#define ACCELC_RUNTIME_FSIM_DEVICE_H_

#include <memory>
#include <string>

#include "runtime/device.h"
#include "simulator/functional/fsim.h"

namespace accelc::runtime {

class FsimDevice : public Device {
 public:
  explicit FsimDevice(const isa::Target& t, simulator::FsimOptions o = {});
  ~FsimDevice() override;
  const isa::Target& target() const override;
  support::Status write(uint64_t addr, const void* data, uint64_t n) override;
  support::Status read(uint64_t addr, void* out, uint64_t n) override;
  support::Expected<uint8_t*> writable(uint64_t addr, uint64_t n) override { return sim_->writable(addr, n); }
  support::Expected<const uint8_t*> readable(uint64_t addr, uint64_t n) override { return sim_->readable(addr, n); }
  /// The run's events; no cycles.
  support::Expected<RunResult> run(const isa::Program& p, const std::string& name) override;
  std::string kind() const override { return "fsim"; }

 private:
  std::unique_ptr<simulator::FunctionalSim> sim_;  ///< the simulator
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_FSIM_DEVICE_H_
