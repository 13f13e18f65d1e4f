// isa/disassembler.h — a program back to assembly text that reassembles to
// the identical bytes.
#ifndef ACCELC_ISA_DISASSEMBLER_H_
#define ACCELC_ISA_DISASSEMBLER_H_

#include <string>

#include "isa/instruction.h"
#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::isa {

/// One instruction in assembly syntax (no newline).
std::string formatInstruction(const Target& t, const Instruction& insn);
/// The whole program as assembly text.
support::Expected<std::string> disassemble(const Program& p, const Target& t, const std::string& name);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_DISASSEMBLER_H_
