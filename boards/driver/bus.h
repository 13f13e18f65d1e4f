// boards/driver/bus.h — the accelerator as the processor reaches it: the
// IP's register window and a pool of DMA memory. A board maps them through
// UIO and a DMA-buffer allocator; a virtual board stands for them with a
// simulated IP. The driver (driver.h) is written against this alone, so
// that the same code runs on both.
#ifndef ACCELC_BOARDS_DRIVER_BUS_H_
#define ACCELC_BOARDS_DRIVER_BUS_H_

#include <cstdint>
#include <string>

#include "support/status.h"

namespace accelc::boards {

class Bus {
 public:
  virtual ~Bus() = default;
  /// A 32-bit read of the register at byte `offset` of the window.
  virtual support::Expected<uint32_t> read32(uint32_t offset) = 0;
  /// A 32-bit write.
  virtual support::Status write32(uint32_t offset, uint32_t value) = 0;
  /// Bytes of the register window.
  virtual uint32_t registerBytes() const = 0;
  /// The DMA pool as the processor sees it, its physical address and size.
  virtual uint8_t* pool() = 0;
  virtual uint64_t poolPhysical() const = 0;
  virtual uint64_t poolBytes() const = 0;
  /// Makes the processor's writes to pool bytes [offset, offset + n) visible
  /// to the accelerator (a cache flush where the port is not coherent).
  virtual support::Status flush(uint64_t offset, uint64_t n) = 0;
  /// Makes the accelerator's writes visible to the processor (an invalidate).
  virtual support::Status invalidate(uint64_t offset, uint64_t n) = 0;
  /// Lets up to `ns` nanoseconds pass: a board sleeps, a virtual board runs
  /// its clock for that long, so that timeouts count the accelerator's time.
  /// With interrupts() it returns early, true, when the IP raises its
  /// interrupt; otherwise false.
  virtual support::Expected<bool> wait(uint64_t ns) = 0;
  /// Whether wait() ends at the IP's interrupt (a UIO node's, or the
  /// virtual board's); without it the driver polls.
  virtual bool interrupts() const = 0;
  /// What it is, for messages ("virtual board pynq-z1", "/dev/uio0").
  virtual std::string describe() const = 0;
};

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_DRIVER_BUS_H_
