// boards/driver/driver.cc — the register sequence of a run on the Zynq IP.
#include "boards/driver/driver.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "isa/control_regs.h"

namespace accelc::boards {

namespace regs = isa::regs;

namespace {

std::string hex(uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

/// A duration for a message: "10 s", "250 ms", "200 us".
std::string duration(uint64_t ns) {
  if (ns >= 1000000000 && ns % 1000000000 == 0) return std::to_string(ns / 1000000000) + " s";
  if (ns >= 1000000 && ns % 1000000 == 0) return std::to_string(ns / 1000000) + " ms";
  return std::to_string(ns / 1000) + " us";
}

}  // namespace

support::Expected<std::unique_ptr<Driver>> Driver::open(std::unique_ptr<Bus> bus, const isa::Target& t,
                                                         uint64_t window, const DriverOptions& o) {
  const support::Location at = support::Location::file(bus->describe());
  if (o.pollNs < 1000 || o.timeoutNs < o.pollNs || o.timeoutNs > (uint64_t{1} << 50))
    return support::error(at, "the driver's poll interval must be at least 1 us and its timeout between that and "
                              "2^50 ns");
  std::unique_ptr<Driver> d(new Driver(std::move(bus), window, o));
  ACCELC_ASSIGN_OR_RETURN(uint64_t hash, d->read64(regs::kHashLo));
  if (hash != t.hash)
    return support::error(at, "the accelerator was built for target " + hex(hash) + ", the program for " +
                                  hex(t.hash) + " (hwspec '" + t.spec.name +
                                  "'): load the bitstream of the program's hwspec, or compile for the board's");
  if (window > d->bus_->poolBytes())
    return support::error(at, "the program's DRAM window of " + std::to_string(window) +
                                  " bytes does not fit the DMA pool of " + std::to_string(d->bus_->poolBytes()) +
                                  " bytes: give the pool (the u-dma-buf node's size) at least the window; accelc "
                                  "compile --window says at compile time whether a model fits a pool");
  if (t.spec.dramSplit4k && d->bus_->poolPhysical() % 4096)  // the IP cuts bursts at 4 KiB of window addresses
    return support::error(at, "the DMA pool at physical " + hex(d->bus_->poolPhysical()) +
                                  " does not start on a 4 KiB boundary, where the accelerator's bursts are cut "
                                  "(dram.split_4k)");
  ACCELC_TRY(d->write64(regs::kDramBaseLo, d->bus_->poolPhysical()));
  ACCELC_TRY(d->write64(regs::kWindowLo, window));
  if (d->bus_->interrupts()) {  // done raises the interrupt
    ACCELC_TRY(d->clearInterrupt());
    ACCELC_TRY(d->writeRegister(regs::kIer, regs::kIsrDone));
    ACCELC_TRY(d->writeRegister(regs::kGie, 1));
  }
  return d;
}

support::Status Driver::checkRegister(uint32_t offset) const {
  if (offset % 4 || offset >= bus_->registerBytes())
    return support::error(support::Location::file(bus_->describe()),
                          "register " + hex(offset) + " is outside the register window [0x0, " +
                              hex(bus_->registerBytes()) + ") or not a word");
  return support::Status::ok();
}

support::Expected<uint32_t> Driver::readRegister(uint32_t offset) {
  ACCELC_TRY(checkRegister(offset));
  return bus_->read32(offset);
}

support::Status Driver::writeRegister(uint32_t offset, uint32_t value) {
  ACCELC_TRY(checkRegister(offset));
  return bus_->write32(offset, value);
}

support::Status Driver::checkPool(uint64_t addr, uint64_t n) const {
  if (addr > window_ || n > window_ - addr)
    return support::error(support::Location::file(bus_->describe()),
                          "DMA bytes [" + hex(addr) + ", " + hex(addr + n) + ") are outside the DRAM window [0x0, " +
                              hex(window_) + ") at physical " + hex(bus_->poolPhysical()));
  return support::Status::ok();
}

support::Status Driver::write(uint64_t addr, const void* data, uint64_t n) {
  ACCELC_TRY(checkPool(addr, n));
  std::memcpy(bus_->pool() + addr, data, n);
  return support::Status::ok();
}

support::Status Driver::read(uint64_t addr, void* out, uint64_t n) {
  ACCELC_TRY(checkPool(addr, n));
  std::memcpy(out, bus_->pool() + addr, n);
  return support::Status::ok();
}

support::Expected<uint64_t> Driver::read64(uint32_t lo) {
  ACCELC_ASSIGN_OR_RETURN(uint32_t l, readRegister(lo));
  ACCELC_ASSIGN_OR_RETURN(uint32_t h, readRegister(lo + 4));
  return uint64_t{h} << 32 | l;
}

support::Status Driver::write64(uint32_t lo, uint64_t v) {
  ACCELC_TRY(writeRegister(lo, static_cast<uint32_t>(v)));
  return writeRegister(lo + 4, static_cast<uint32_t>(v >> 32));
}

support::Status Driver::clearInterrupt() {
  ACCELC_ASSIGN_OR_RETURN(uint32_t isr, readRegister(regs::kIsr));
  return isr ? writeRegister(regs::kIsr, isr) : support::Status::ok();  // writing a set bit clears it
}

support::Status Driver::abort() {
  ACCELC_TRY(writeRegister(regs::kAbort, 1));
  for (uint64_t waited = 0; waited <= o_.timeoutNs; waited += o_.pollNs) {  // pollNs > 0: open() checked
    ACCELC_ASSIGN_OR_RETURN(uint32_t ctrl, readRegister(regs::kApCtrl));
    if (ctrl & regs::kApIdle) return support::Status::ok();
    ACCELC_TRY(bus_->wait(o_.pollNs).status());
  }
  return support::error(support::Location::file(bus_->describe()),
                        "the accelerator did not return to idle after ABORT: reset the board");
}

support::Expected<uint64_t> Driver::run(uint64_t textAddr, uint64_t count, const std::string& name) {
  if (textAddr > UINT32_MAX || count > UINT32_MAX)
    return support::error(support::Location::file(name), "the text at byte " + std::to_string(textAddr) + " of " +
                                                             std::to_string(count) +
                                                             " instructions does not fit INSN_ADDR and INSN_COUNT");
  ACCELC_TRY(bus_->flush(0, window_));
  ACCELC_TRY(writeRegister(regs::kInsnAddr, static_cast<uint32_t>(textAddr)));
  ACCELC_TRY(writeRegister(regs::kInsnCount, static_cast<uint32_t>(count)));
  ACCELC_TRY(writeRegister(regs::kApCtrl, regs::kApStart));
  // Wait for ap_done: on the interrupt where the bus has one (then the
  // whole timeout in one wait), else polling AP_CTRL.
  const uint64_t step = bus_->interrupts() ? o_.timeoutNs : o_.pollNs;
  bool done = false;
  for (uint64_t waited = 0; !done && waited <= o_.timeoutNs;) {
    ACCELC_ASSIGN_OR_RETURN(uint32_t ctrl, readRegister(regs::kApCtrl));  // reading clears ap_done
    done = ctrl & regs::kApDone;
    if (done) break;
    if (waited == o_.timeoutNs) break;
    const uint64_t span = std::min(step, o_.timeoutNs - waited);
    ACCELC_ASSIGN_OR_RETURN(bool interrupted, bus_->wait(span));
    // An interrupt is followed by a read of AP_CTRL; a line that stays up
    // without done still lets the timeout come.
    if (interrupted) ACCELC_TRY(clearInterrupt());
    waited += interrupted ? std::min(o_.pollNs, o_.timeoutNs - waited) : span;
  }
  if (!done) {
    ACCELC_ASSIGN_OR_RETURN(uint32_t pc, readRegister(regs::kStopPc));
    ACCELC_TRY(abort());
    return support::error(support::Location::file(name),
                          "the accelerator did not finish within " + duration(o_.timeoutNs) + " (fetch at pc " +
                              std::to_string(pc) + "); aborted, the device is idle");
  }
  if (bus_->interrupts()) ACCELC_TRY(clearInterrupt());  // the line falls before the next run
  ACCELC_TRY(bus_->invalidate(0, window_));
  ACCELC_ASSIGN_OR_RETURN(uint32_t status, readRegister(regs::kStatus));
  if (status) {
    // STOP_PC is the illegal instruction itself; for the other faults, how
    // far fetch had got.
    ACCELC_ASSIGN_OR_RETURN(uint32_t pc, readRegister(regs::kStopPc));
    if (status == regs::kStatusIllegal)
      return support::error(support::Location::pc(name, pc), "the accelerator stopped: " + regs::statusText(status));
    return support::error(support::Location::file(name), "the accelerator stopped: " + regs::statusText(status) +
                                                             ", fetch at pc " + std::to_string(pc));
  }
  return read64(regs::kCyclesLo);
}

}  // namespace accelc::boards
