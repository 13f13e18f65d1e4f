// runtime/fsim_device.cc — the functional simulator behind the Device interface.
#include "runtime/fsim_device.h"

namespace accelc::runtime {

FsimDevice::FsimDevice(const isa::Target& t, simulator::FsimOptions o)
    : sim_(std::make_unique<simulator::FunctionalSim>(t, o)) {}
FsimDevice::~FsimDevice() = default;
const isa::Target& FsimDevice::target() const { return sim_->target(); }

support::Status FsimDevice::write(uint64_t addr, const void* data, uint64_t n) { return sim_->write(addr, data, n); }

support::Status FsimDevice::read(uint64_t addr, void* out, uint64_t n) { return sim_->read(addr, out, n); }

support::Expected<RunResult> FsimDevice::run(const isa::Program& p, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(isa::Counters c, sim_->run(p, name));
  RunResult r;
  r.events = c;
  return r;
}

}  // namespace accelc::runtime
