// runtime/board_device.cc — programs on a board's accelerator.
#include "runtime/board_device.h"

namespace accelc::runtime {

support::Expected<RunResult> BoardDevice::run(const isa::Program& p, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t cycles, driver_->run(p.text().addr, p.insnCount(t_), name));
  RunResult r;
  r.cycles = cycles;
  return r;
}

}  // namespace accelc::runtime
