// runtime/board_device.h — a board's accelerator as a Device: the board
// driver (boards/driver/driver.h) over a board's bus or a virtual board's.
// A run writes nothing but the registers: the executor's writes go straight
// into the DMA pool, where the DRAM window lies, and the run returns the
// IP's cycle counter.
#ifndef ACCELC_RUNTIME_BOARD_DEVICE_H_
#define ACCELC_RUNTIME_BOARD_DEVICE_H_

#include <memory>
#include <string>

#include "boards/driver/driver.h"
#include "runtime/device.h"

namespace accelc::runtime {

class BoardDevice final : public Device {
 public:
  /// `kind` names it in reports ("virtual:pynq-z1").
  BoardDevice(const isa::Target& t, std::unique_ptr<boards::Driver> driver, std::string kind)
      : t_(t), driver_(std::move(driver)), kind_(std::move(kind)) {}

  const isa::Target& target() const override { return t_; }
  support::Status write(uint64_t addr, const void* data, uint64_t n) override { return driver_->write(addr, data, n); }
  support::Status read(uint64_t addr, void* out, uint64_t n) override { return driver_->read(addr, out, n); }
  support::Expected<RunResult> run(const isa::Program& p, const std::string& name) override;
  std::string kind() const override { return kind_; }

 private:
  isa::Target t_;
  std::unique_ptr<boards::Driver> driver_;
  std::string kind_;
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_BOARD_DEVICE_H_
