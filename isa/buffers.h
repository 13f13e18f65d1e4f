// isa/buffers.h — how the ISA's `buffer` values map onto the hardware buffers.
//
// Addresses in LOAD/STORE count entries: sram_base counts entries of the
// on-chip buffer, dram_base and x_stride count DRAM elements of the size of
// one entry of that buffer *as stored in DRAM* (dramEntryBytes). `acc8` is
// the accumulator loaded from int8 data (sign-extended), so its DRAM element
// is one int8 row.
#ifndef ACCELC_ISA_BUFFERS_H_
#define ACCELC_ISA_BUFFERS_H_

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

}  // namespace accelc::isa

#endif  // ACCELC_ISA_BUFFERS_H_
