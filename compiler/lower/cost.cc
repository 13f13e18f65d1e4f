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

/// The data channel the units' DMAs share, as the replay in time order sees
/// it: one beat a cycle, each DMA's beats after those of the DMAs that
/// started before it. A read's beats end its time alone on the port, a
/// write's begin it (its acknowledgement follows them).
class Channel {
 public:
  explicit Channel(const hwspec::HwSpec& hw) : hw_(hw) {}
  /// The cycle the DMA of `insn`, started in `start`, ends.
  int64_t end(const isa::Instruction& insn, int64_t start) {
    const simulator::DmaShape d = simulator::dmaShapeOf(insn, hw_);
    const int64_t alone = simulator::instructionCycles(insn, hw_), beats = simulator::dmaBeats(d, hw_);
    const int64_t first = d.write ? start + 1 : start + alone - beats;  // its first beat, alone
    const int64_t delay = std::max<int64_t>(0, free_ - first);
    free_ = std::max(free_, first) + beats;
    return start + alone + delay;
  }

 private:
  const hwspec::HwSpec& hw_;
  int64_t free_ = 0;
};

/// dataflowCycles with the DRAM data channel shared: the instructions replayed
/// in the order they start (the unit whose next instruction can start first
/// goes first), each DMA's beats queued behind those already on the channel.
int64_t contendedCycles(const std::vector<isa::Instruction>& insns, const hwspec::HwSpec& hw, int64_t startup) {
  std::vector<size_t> order[isa::kNumUnits];
  for (size_t pc = 0; pc < insns.size(); ++pc) order[static_cast<int>(isa::unitOf(insns[pc]))].push_back(pc);
  isa::TokenMachine<int64_t> tokens(0);
  Channel channel(hw);
  int64_t free[isa::kNumUnits] = {0, 0, 0}, finished = 0;
  size_t next[isa::kNumUnits] = {0, 0, 0};
  for (;;) {
    int best = -1;
    int64_t bestStart = 0;
    for (int u = 0; u < isa::kNumUnits; ++u) {
      if (next[u] >= order[u].size()) continue;
      const size_t pc = order[u][next[u]];
      const isa::Instruction& insn = insns[pc];
      if (tokens.wait(insn)) continue;
      if (insn.opcode == isa::Opcode::kFinish && (next[0] < order[0].size() || next[2] < order[2].size())) continue;
      int64_t start = std::max(free[u], startup + static_cast<int64_t>(pc) + 1);
      for (int q : isa::popQueues(insn))  // the tokens it pops, visible from the cycle after their push
        if (q != isa::kNoQueue) start = std::max(start, tokens.queue(q).front());
      if (insn.opcode == isa::Opcode::kFinish) start = std::max({start, free[0], free[2]});
      if (best < 0 || start < bestStart) best = u, bestStart = start;
    }
    if (best < 0) break;
    const isa::Instruction& insn = insns[order[best][next[best]]];
    tokens.pop(insn, [](int64_t) {});
    const bool dma = insn.opcode == isa::Opcode::kLoad || insn.opcode == isa::Opcode::kStore;
    free[best] = dma ? channel.end(insn, bestStart) : bestStart + simulator::instructionCycles(insn, hw);
    tokens.push(insn, free[best] + 1);
    if (insn.opcode == isa::Opcode::kFinish) finished = free[best];
    ++next[best];
  }
  return finished;
}

/// programCycles, with the contended replay only when asked: the compiler's
/// search estimates many programs and needs none.
support::Expected<ProgramCycles> cyclesOf(const isa::Program& p, const isa::Target& t, bool contended) {
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
  if (contended) c.contended = contendedCycles(insns, t.spec, c.startup);
  return c;
}

/// The estimate of `c` with `replay` as its dataflow: the replay, or the DRAM port's busy time when longer.
int64_t bounded(const ProgramCycles& c, int64_t replay, const isa::Target& t) {
  return std::max(replay, std::max(t.spec.dramLatency + c.dramBeats, c.dramSlots) + 1);
}

}  // namespace

support::Expected<ProgramCycles> programCycles(const isa::Program& p, const isa::Target& t) { return cyclesOf(p, t, true); }

support::Expected<int64_t> datapathBound(const runtime::LayerInfo& l, const isa::Program& p, const isa::Target& t) {
  ACCELC_ASSIGN_OR_RETURN(ProgramCycles c, cyclesOf(p, t, false));
  return std::max(runtime::rooflineCycles(l, t.spec), c.datapath);
}

int64_t aloneEstimate(const ProgramCycles& c, const isa::Target& t) { return bounded(c, c.dataflow, t); }
int64_t contendedEstimate(const ProgramCycles& c, const isa::Target& t) { return bounded(c, c.contended, t); }

support::Expected<int64_t> estimateProgram(const isa::Program& p, const isa::Target& t) {
  ACCELC_ASSIGN_OR_RETURN(ProgramCycles c, cyclesOf(p, t, false));
  return aloneEstimate(c, t);
}

support::Expected<int64_t> estimateContended(const isa::Program& p, const isa::Target& t) {
  ACCELC_ASSIGN_OR_RETURN(ProgramCycles c, programCycles(p, t));
  return contendedEstimate(c, t);
}

}  // namespace accelc::compiler::lower
