// simulator/timing/timing.h — the cycles one instruction keeps its unit busy.
//
// The per-instruction formulas of docs/microarchitecture.md, written once:
// the cycle model advances time by them and the compiler's cost model sums
// them. Plain C++ (no SystemC), so that the compiler can link it alone.
#ifndef ACCELC_SIMULATOR_TIMING_TIMING_H_
#define ACCELC_SIMULATOR_TIMING_TIMING_H_

#include <cstdint>

#include "hwspec/hwspec.h"
#include "isa/instruction.h"
#include "simulator/timing/dram_port.h"

namespace accelc::simulator {

/// The DRAM traffic of a LOAD or STORE: its rows, their bytes and addresses.
DmaShape dmaShapeOf(const isa::Instruction& insn, const hwspec::HwSpec& hw);

/// The zero-padding entries a LOAD writes after its data, one per cycle.
int64_t padCycles(const isa::Instruction& insn);

/// Cycles DMA `d` occupies the DRAM data channel (its beats).
int64_t dmaBeats(const DmaShape& d, const hwspec::HwSpec& hw);

/// The bursts DMA `d` takes (burstBytes cuts them).
int64_t dmaBursts(const DmaShape& d, const hwspec::HwSpec& hw);

/// Cycles DMA `d` holds outstanding-request slots, summed over its bursts:
/// each holds one from its acceptance for at least the latency plus its beats.
int64_t dmaSlotCycles(const DmaShape& d, const hwspec::HwSpec& hw);

/// The cycle the first instruction of a text of `count` instructions can be
/// dispatched: its first burst, alone on the port from cycle 0.
int64_t fetchStartCycles(int64_t count, const hwspec::HwSpec& hw, int64_t insnBytes);

/// Cycles `insn` keeps its unit busy (FINISH: 1); a LOAD or STORE as if alone on the DRAM port.
int64_t instructionCycles(const isa::Instruction& insn, const hwspec::HwSpec& hw);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_TIMING_TIMING_H_
