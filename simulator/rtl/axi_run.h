// simulator/rtl/axi_run.h — programs on the verilated Zynq IP, driven the way
// a processor drives it: through its control registers (isa/control_regs.h),
// with DRAM behind its AXI4 master.
#ifndef ACCELC_SIMULATOR_RTL_AXI_RUN_H_
#define ACCELC_SIMULATOR_RTL_AXI_RUN_H_

#include <cstdint>
#include <memory>

#include "simulator/rtl/axi_model.h"
#include "simulator/rtl/rtl_model.h"

namespace accelc::simulator {

/// How the IP runs each program.
struct AxiRunOptions {
  AxiMemoryOptions memory;     ///< its latency (the hwspec's), stalls and error range
  uint64_t base = 0x40000000;  ///< the physical address of the DRAM window (DRAM_BASE)
  AxiPowerOn powerOn;
};

/// The IP as an RtlModel, so that runOnRtl (rtl_sim.h) runs programs on it:
/// each run powers it on, writes DRAM_BASE, DRAM_WINDOW, INSN_ADDR and
/// INSN_COUNT, enables the done interrupt, starts the IP, runs until the
/// interrupt and reads CYCLES, STATUS and STOP_PC. A run's outcome is
/// STATUS's (RtlOutcome::kIllegal, kWindowFault, kAxiError, kMisaligned,
/// with fetch's pc), or kProtocol when the memory saw the master break the
/// AXI protocol or a register access went unanswered. It writes no waveforms.
std::unique_ptr<RtlModel> axiRtlModel(std::unique_ptr<AxiModel> ip, const AxiRunOptions& o);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_RTL_AXI_RUN_H_
