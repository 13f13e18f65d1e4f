// isa/encoding.h — the one table-driven encoder/decoder of instructions and micro-ops.
//
// Words are little-endian byte strings of insnBits/8 (or uopBits/8) bytes;
// bit i of the word is bit (i % 8) of byte i / 8. A field value that does not
// fit its width is an error, never a silent truncation; decoding rejects
// opcode and enumeration codes the ISA does not define.
#ifndef ACCELC_ISA_ENCODING_H_
#define ACCELC_ISA_ENCODING_H_

#include <cstdint>
#include <string>

#include "isa/instruction.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::isa {

/// Encodes `insn` into `out` (target.insnBytes() bytes); `loc` locates errors.
support::Status encodeInstruction(const Target& t, const Instruction& insn, uint8_t* out,
                                  const support::Location& loc);
/// Decodes one instruction word.
support::Expected<Instruction> decodeInstruction(const Target& t, const uint8_t* in, const support::Location& loc);
/// Encodes a micro-op into target.uopBytes() bytes.
support::Status encodeUop(const Target& t, const Uop& uop, uint8_t* out, const support::Location& loc);
/// Decodes one micro-op word.
Uop decodeUop(const Target& t, const uint8_t* in);

/// The value of field `name` of `insn` (for printing); false when absent.
bool fieldValue(const Instruction& insn, const std::string& name, int64_t& value);
/// Sets field `name` of `insn`; false when the format has no such field.
bool setFieldValue(Instruction& insn, const std::string& name, int64_t value);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_ENCODING_H_
