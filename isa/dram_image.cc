// isa/dram_image.cc — bounds-checked DRAM I/O.
#include "isa/dram_image.h"

#include <cstring>
#include <string>

#include "support/memory.h"

namespace accelc::isa {

using support::error;
using support::Location;
using support::Status;

support::Expected<uint8_t*> DramImage::writable(uint64_t addr, uint64_t n) {
  if (n > limit_ || addr > limit_ - n)
    return error(Location(), "write of " + std::to_string(n) + " bytes at " + std::to_string(addr) +
                                 " lies outside the hwspec's DRAM window (dram.window)");
  if (addr + n > size()) ACCELC_TRY(support::checkAllocation(addr + n, "the DRAM window", Location()));
  ensure(addr + n);
  return at(addr);
}

Status DramImage::write(uint64_t addr, const void* data, uint64_t n) {
  ACCELC_ASSIGN_OR_RETURN(uint8_t * to, writable(addr, n));
  if (n) std::memcpy(to, data, n);
  return Status::ok();
}

support::Expected<const uint8_t*> DramImage::readable(uint64_t addr, uint64_t n) const {
  if (!contains(addr, n))
    return error(Location(), "read of " + std::to_string(n) + " bytes at " + std::to_string(addr) +
                                 " lies outside the DRAM window of " + std::to_string(size()) + " bytes");
  return at(addr);
}

Status DramImage::read(uint64_t addr, void* out, uint64_t n) const {
  ACCELC_ASSIGN_OR_RETURN(const uint8_t* from, readable(addr, n));
  if (n) std::memcpy(out, from, n);
  return Status::ok();
}

Status DramImage::loadProgram(const Program& p) {
  if (p.window > size()) ACCELC_TRY(support::checkAllocation(p.window, "the program's DRAM window", Location()));
  ensure(p.window);
  for (const Segment& s : p.segments) ACCELC_TRY(write(s.addr, s.bytes.data(), s.bytes.size()));
  return Status::ok();
}

}  // namespace accelc::isa
