// runtime/device.cc — loading a program's window through any device.
#include "runtime/device.h"

namespace accelc::runtime {

support::Status Device::loadProgram(const isa::Program& p) {
  const std::vector<uint8_t> zeros(p.window, 0);
  ACCELC_TRY(write(0, zeros.data(), zeros.size()));
  for (const isa::Segment& s : p.segments) ACCELC_TRY(write(s.addr, s.bytes.data(), s.bytes.size()));
  return support::Status::ok();
}

}  // namespace accelc::runtime
