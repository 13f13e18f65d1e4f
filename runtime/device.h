// runtime/device.h — where accelerator programs run: a simulator or a board.
//
// A device owns a DRAM window for one HwSpec; what is written stays across
// runs, so a bundle's constants and programs are written once. The functional
// simulator is the device this library links; the cycle model, the RTL and
// boards implement the same interface elsewhere and are handed to the executor.
#ifndef ACCELC_RUNTIME_DEVICE_H_
#define ACCELC_RUNTIME_DEVICE_H_

#include <memory>
#include <string>

#include "isa/program.h"
#include "isa/target.h"
#include "simulator/functional/counters.h"
#include "simulator/functional/fsim.h"
#include "support/status.h"


namespace accelc::runtime {

/// A place to run programs.
class Device {
 public:
  virtual ~Device() = default;
  virtual const isa::Target& target() const = 0;
  virtual support::Status write(uint64_t addr, const void* data, uint64_t n) = 0;
  virtual support::Status read(uint64_t addr, void* out, uint64_t n) = 0;
  /// Runs a program whose segments are already in DRAM.
  virtual support::Expected<simulator::Counters> run(const isa::Program& p, const std::string& name) = 0;
  /// A name for reports ("fsim", ...).
  virtual std::string kind() const = 0;
  /// Cycles of the last run, on devices that measure time (0 on the others).
  virtual uint64_t lastCycles() const { return 0; }
  /// Writes a program's whole DRAM window: zeros, then its segments.
  support::Status loadProgram(const isa::Program& p);
};

/// The functional simulator as a device.
class FsimDevice : public Device {
 public:
  explicit FsimDevice(const isa::Target& t, simulator::FsimOptions o = {});
  ~FsimDevice() override;
  const isa::Target& target() const override;
  support::Status write(uint64_t addr, const void* data, uint64_t n) override;
  support::Status read(uint64_t addr, void* out, uint64_t n) override;
  support::Expected<simulator::Counters> run(const isa::Program& p, const std::string& name) override;
  std::string kind() const override { return "fsim"; }

 private:
  std::unique_ptr<simulator::FunctionalSim> sim_;  ///< the simulator
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_DEVICE_H_
