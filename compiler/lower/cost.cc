// compiler/lower/cost.cc — the per-instruction cost formulas, applied to programs.
#include "compiler/lower/cost.h"

#include <algorithm>

#include "isa/encoding.h"
#include "isa/semantics.h"
#include "simulator/cycle/timing.h"

namespace accelc::compiler::lower {

support::Expected<std::array<int64_t, 3>> unitCycles(const isa::Program& p, const isa::Target& t) {
  std::array<int64_t, 3> units{0, 0, 0};
  for (const isa::Segment& s : p.segments) {
    if (s.role != isa::SegmentRole::kText) continue;
    for (size_t at = 0; at + t.insnBytes() <= s.bytes.size(); at += t.insnBytes()) {
      ACCELC_ASSIGN_OR_RETURN(isa::Instruction insn,
                              isa::decodeInstruction(t, s.bytes.data() + at, support::Location::pc(s.name, at / t.insnBytes())));
      units[static_cast<size_t>(isa::unitOf(insn))] += simulator::instructionCycles(insn, t.spec);
    }
  }
  return units;
}

support::Expected<int64_t> estimateProgram(const isa::Program& p, const isa::Target& t, bool serialized) {
  ACCELC_ASSIGN_OR_RETURN(auto units, unitCycles(p, t));
  if (serialized) return units[0] + units[1] + units[2];
  return *std::max_element(units.begin(), units.end());
}

}  // namespace accelc::compiler::lower
