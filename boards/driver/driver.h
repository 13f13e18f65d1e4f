// boards/driver/driver.h — runs programs on the Zynq IP through a Bus: the
// register sequence of docs/microarchitecture.md ("The control registers of
// the Zynq IPs"), the DMA pool's window, cache maintenance and timeouts.
//
// open() refuses an IP built for another target (HWSPEC_HASH) and a DRAM
// window larger than the pool, before anything runs. Every register and
// pool access is checked against its window; an error names the address
// and the window. A run that does not raise ap_done within the timeout is
// aborted (ABORT, then idle) and reported, and one that stops with STATUS
// set reports it with the pc; either way the IP is idle again, ready for
// the next run. The driver waits for ap_done on the IP's interrupt where the
// bus has one (enabling GIE and IER's done bit), and polls AP_CTRL otherwise.
#ifndef ACCELC_BOARDS_DRIVER_DRIVER_H_
#define ACCELC_BOARDS_DRIVER_DRIVER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "boards/driver/bus.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::boards {

struct DriverOptions {
  uint64_t timeoutNs = 10'000'000'000;  ///< a run longer than this is aborted
  uint64_t pollNs = 10'000;             ///< the wait between two reads of AP_CTRL, on a bus without interrupts
};

class Driver {
 public:
  /// The IP behind `bus`, for programs of `t` whose DRAM window is `window` bytes.
  static support::Expected<std::unique_ptr<Driver>> open(std::unique_ptr<Bus> bus, const isa::Target& t,
                                                          uint64_t window, const DriverOptions& o = {});

  /// A register of the IP; an offset outside its window is refused.
  support::Expected<uint32_t> readRegister(uint32_t offset);
  support::Status writeRegister(uint32_t offset, uint32_t value);
  /// Bytes [addr, addr + n) of the DRAM window, which lies at the pool's start.
  support::Status write(uint64_t addr, const void* data, uint64_t n);
  support::Status read(uint64_t addr, void* out, uint64_t n);
  /// Runs the `count` instructions at window byte `textAddr`; the run's cycles
  /// (CYCLES). `name` locates errors.
  support::Expected<uint64_t> run(uint64_t textAddr, uint64_t count, const std::string& name);

  Bus& bus() { return *bus_; }

 private:
  Driver(std::unique_ptr<Bus> bus, uint64_t window, const DriverOptions& o)
      : bus_(std::move(bus)), window_(window), o_(o) {}
  support::Status checkRegister(uint32_t offset) const;
  support::Status checkPool(uint64_t addr, uint64_t n) const;
  support::Expected<uint64_t> read64(uint32_t lo);
  support::Status write64(uint32_t lo, uint64_t v);
  /// ABORT, then wait until AP_CTRL reads idle.
  support::Status abort();
  /// Clears the ISR bits that are set (the interrupt line falls).
  support::Status clearInterrupt();

  std::unique_ptr<Bus> bus_;
  uint64_t window_;
  DriverOptions o_;
};

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_DRIVER_DRIVER_H_
