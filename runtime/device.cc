// runtime/device.cc — loading programs, and the functional simulator behind the Device interface.
#include "runtime/device.h"

#include "simulator/functional/fsim.h"

namespace accelc::runtime {

support::Status Device::loadProgram(const isa::Program& p) {
  const std::vector<uint8_t> zeros(p.window, 0);
  ACCELC_TRY(write(0, zeros.data(), zeros.size()));
  for (const isa::Segment& s : p.segments) ACCELC_TRY(write(s.addr, s.bytes.data(), s.bytes.size()));
  return support::Status::ok();
}

FsimDevice::FsimDevice(const isa::Target& t, simulator::FsimOptions o)
    : sim_(std::make_unique<simulator::FunctionalSim>(t, o)) {}
FsimDevice::~FsimDevice() = default;
const isa::Target& FsimDevice::target() const { return sim_->target(); }

support::Status FsimDevice::write(uint64_t addr, const void* data, uint64_t n) { return sim_->write(addr, data, n); }

support::Status FsimDevice::read(uint64_t addr, void* out, uint64_t n) { return sim_->read(addr, out, n); }

support::Expected<simulator::Counters> FsimDevice::run(const isa::Program& p, const std::string& name) {
  return sim_->run(p, name);
}

}  // namespace accelc::runtime
