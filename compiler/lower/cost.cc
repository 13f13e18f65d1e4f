// compiler/lower/cost.cc — the per-instruction cost formulas, applied to programs.
#include "compiler/lower/cost.h"

#include <algorithm>
#include <vector>

#include "isa/encoding.h"
#include "isa/semantics.h"
#include "isa/tokens.h"
#include "simulator/timing/timing.h"

namespace accelc::compiler::lower {

namespace {

void addDma(ProgramCycles& c, const simulator::DmaShape& d, const hwspec::HwSpec& hw) {
  c.dramBeats += simulator::dmaBeats(d, hw);
  c.dramSlots += simulator::dmaSlotCycles(d, hw);
}

/// Replays `insns` as the units would run them alone on the DRAM port: in
/// order per unit, dispatched one per cycle after `startup`, each starting when
/// its command and popped tokens are visible, tokens visible the cycle after
/// their push; queue depths are not limited. Returns the cycle FINISH retires.
int64_t dataflowCycles(const std::vector<isa::Instruction>& insns, const hwspec::HwSpec& hw, int64_t startup) {
  std::vector<size_t> order[isa::kNumUnits];
  for (size_t pc = 0; pc < insns.size(); ++pc) order[static_cast<int>(isa::unitOf(insns[pc]))].push_back(pc);
  isa::TokenMachine<int64_t> tokens(0);  // each token: the cycle it becomes visible
  int64_t free[isa::kNumUnits] = {0, 0, 0}, finished = 0;
  size_t next[isa::kNumUnits] = {0, 0, 0};
  for (bool progress = true; progress;) {
    progress = false;
    for (int u = 0; u < isa::kNumUnits; ++u) {
      while (next[u] < order[u].size()) {
        const size_t pc = order[u][next[u]];
        const isa::Instruction& insn = insns[pc];
        if (tokens.wait(insn)) break;
        // FINISH waits for the load and store units: replay it after their last instruction.
        if (insn.opcode == isa::Opcode::kFinish && (next[0] < order[0].size() || next[2] < order[2].size())) break;
        int64_t start = std::max(free[u], startup + static_cast<int64_t>(pc) + 1);
        tokens.pop(insn, [&](int64_t visible) { start = std::max(start, visible); });
        if (insn.opcode == isa::Opcode::kFinish) start = std::max({start, free[0], free[2]});
        free[u] = start + simulator::instructionCycles(insn, hw);
        tokens.push(insn, free[u] + 1);
        if (insn.opcode == isa::Opcode::kFinish) finished = free[u];
        ++next[u], progress = true;
      }
    }
  }
  return finished;
}

}  // namespace

support::Expected<ProgramCycles> programCycles(const isa::Program& p, const isa::Target& t) {
  ProgramCycles c;
  const isa::Segment& text = p.text();
  const int64_t ib = static_cast<int64_t>(t.insnBytes()), count = static_cast<int64_t>(text.bytes.size()) / ib;
  std::vector<isa::Instruction> insns;
  for (int64_t pc = 0; pc < count; ++pc) {
    ACCELC_ASSIGN_OR_RETURN(isa::Instruction insn, isa::decodeInstruction(t, text.bytes.data() + pc * ib,
                                                                           support::Location::pc(text.name, static_cast<uint64_t>(pc))));
    insns.push_back(insn);
    const int64_t cycles = simulator::instructionCycles(insn, t.spec);
    c.units[static_cast<size_t>(isa::unitOf(insn))] += cycles;
    if (insn.opcode == isa::Opcode::kGemm || insn.opcode == isa::Opcode::kAlu) c.datapath += cycles;
    if (insn.opcode == isa::Opcode::kLoad || insn.opcode == isa::Opcode::kStore) addDma(c, simulator::dmaShapeOf(insn, t.spec), t.spec);
  }
  addDma(c, {1, count * ib, false}, t.spec);
  c.dramSlots = (c.dramSlots + t.spec.timing.outstanding - 1) / t.spec.timing.outstanding;
  c.startup = simulator::fetchStartCycles(count, t.spec, ib);
  c.dataflow = dataflowCycles(insns, t.spec, c.startup);
  return c;
}

support::Expected<int64_t> datapathBound(const runtime::LayerInfo& l, const isa::Program& p, const isa::Target& t) {
  ACCELC_ASSIGN_OR_RETURN(ProgramCycles c, programCycles(p, t));
  return std::max(runtime::rooflineCycles(l, t.spec), c.datapath);
}

support::Expected<int64_t> estimateProgram(const isa::Program& p, const isa::Target& t) {
  ACCELC_ASSIGN_OR_RETURN(ProgramCycles c, programCycles(p, t));
  return std::max(c.dataflow, std::max(t.spec.dramLatency + c.dramBeats, c.dramSlots) + 1);
}

}  // namespace accelc::compiler::lower
