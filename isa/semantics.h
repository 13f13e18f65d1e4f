// isa/semantics.h — which unit runs an instruction, and which buffer and DRAM
// element size its `buffer` field means (docs/isa.md).
//
// Addresses in LOAD/STORE count entries: sram_base counts entries of the
// on-chip buffer, dram_base and x_stride count DRAM elements of the size of
// one entry of that buffer *as stored in DRAM* (dramEntryBytes). `acc8` is
// the accumulator loaded from int8 data (sign-extended), so its DRAM element
// is one int8 row.
#ifndef ACCELC_ISA_SEMANTICS_H_
#define ACCELC_ISA_SEMANTICS_H_

#include <cstdint>

#include "hwspec/hwspec.h"
#include "isa/instruction.h"

namespace accelc::isa {

/// The on-chip buffer an ISA buffer value addresses.
inline hwspec::BufferKind sramOf(Buffer b) {
  switch (b) {
    case Buffer::kUop:
      return hwspec::BufferKind::kUop;
    case Buffer::kWgt:
      return hwspec::BufferKind::kWeight;
    case Buffer::kInp:
      return hwspec::BufferKind::kInput;
    case Buffer::kAcc:
    case Buffer::kAcc8:
      return hwspec::BufferKind::kAcc;
    case Buffer::kOut:
      return hwspec::BufferKind::kOutput;
  }
  return hwspec::BufferKind::kUop;
}

/// Bytes of one DRAM element of a transfer to or from buffer `b`.
inline int64_t dramEntryBytes(const hwspec::HwSpec& s, Buffer b) {
  if (b == Buffer::kAcc8) return s.batch * s.blockOut * hwspec::HwSpec::elemBits(s.outputType) / 8;
  return s.entryBytes(sramOf(b));
}

/// Bytes a DRAM beat of a transfer to or from buffer `b` carries: the bus's
/// dram.bytes_per_cycle, except that a transfer of output rows (the output
/// buffer's, or acc8's) narrower than a beat moves one row a beat (an AXI
/// narrow transfer with its write strobes): the output buffer gives, and the
/// accumulator takes, one row a cycle.
inline int64_t dramBeatBytes(const hwspec::HwSpec& s, Buffer b) {
  const int64_t row = dramEntryBytes(s, b);
  const bool rows = b == Buffer::kAcc8 || sramOf(b) == hwspec::BufferKind::kOutput;
  return rows && row < s.dramBytesPerCycle ? row : s.dramBytesPerCycle;
}

/// The three execution units, in queue order: load -> compute -> store.
enum class Unit { kLoad = 0, kCompute = 1, kStore = 2 };
inline constexpr int kNumUnits = 3;
inline const char* unitName(Unit u) {
  switch (u) {
    case Unit::kLoad:
      return "load";
    case Unit::kCompute:
      return "compute";
    case Unit::kStore:
      return "store";
  }
  return "?";
}

/// The unit that executes `insn`: LOAD to inp/wgt on the load unit; LOAD to
/// uop/acc/acc8, GEMM, ALU and FINISH on the compute unit; STORE on the store
/// unit. (LOAD to out and STORE from anything but out are illegal; the
/// simulators report them when they execute.)
inline Unit unitOf(const Instruction& insn) {
  switch (insn.opcode) {
    case Opcode::kLoad: {
      Buffer b = Buffer(insn.mem().buffer);
      return b == Buffer::kInp || b == Buffer::kWgt ? Unit::kLoad : Unit::kCompute;
    }
    case Opcode::kStore:
      return Unit::kStore;
    case Opcode::kGemm:
    case Opcode::kAlu:
    case Opcode::kFinish:
      return Unit::kCompute;
  }
  return Unit::kCompute;
}

}  // namespace accelc::isa

#endif  // ACCELC_ISA_SEMANTICS_H_
