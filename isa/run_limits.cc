// isa/run_limits.cc — micro-op application counts and the limit diagnostic.
#include "isa/run_limits.h"

#include <cstdint>

namespace accelc::isa {

uint64_t uopApplications(const Instruction& insn) {
  // Saturating: an ISA description may give the loop fields any width.
  auto count = [](const auto& f) {
    uint64_t n = 0;
    const uint64_t range = f.uopEnd > f.uopBgn ? static_cast<uint64_t>(f.uopEnd - f.uopBgn) : 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(f.iterOut), static_cast<uint64_t>(f.iterIn), &n) ||
        __builtin_mul_overflow(n, range, &n))
      return UINT64_MAX;
    return n;
  };
  switch (insn.opcode) {
    case Opcode::kGemm:
      return count(insn.gemm());
    case Opcode::kAlu:
      return count(insn.alu());
    case Opcode::kLoad:
    case Opcode::kStore:
    case Opcode::kFinish:
      return 0;
  }
  return 0;
}

support::Diagnostic limitReached(const std::string& program, uint64_t pc, const std::string& flag, uint64_t limit,
                                 const std::string& what) {
  return support::error(support::Location::pc(program, pc),
                        "the run reached --" + flag + " (" + std::to_string(limit) + " " + what +
                            ") at this instruction; raise --" + flag + " if the program is meant to run longer");
}

}  // namespace accelc::isa
