// simulator/cycle/timing.h — the cycles one instruction keeps its unit busy.
//
// The per-instruction formulas of docs/microarchitecture.md, written once:
// the cycle model advances time by them and the compiler's cost model sums
// them. Plain C++ (no SystemC), so that the compiler can link it alone.
#ifndef ACCELC_SIMULATOR_CYCLE_TIMING_H_
#define ACCELC_SIMULATOR_CYCLE_TIMING_H_

#include <cstdint>

#include "hwspec/hwspec.h"
#include "isa/instruction.h"

namespace accelc::simulator {

/// Cycles `insn` keeps its unit busy (FINISH: 1).
int64_t instructionCycles(const isa::Instruction& insn, const hwspec::HwSpec& hw);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_CYCLE_TIMING_H_
