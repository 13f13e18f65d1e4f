// simulator/cycle/timing.cc — the per-instruction cost formulas.
#include "simulator/cycle/timing.h"

#include "isa/semantics.h"

namespace accelc::simulator {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// LOAD and STORE: bursts, latency per window of outstanding bursts, beats, and
/// (loads) one cycle per zero-padding entry.
int64_t memCycles(const isa::Instruction& insn, const hwspec::HwSpec& hw) {
  const isa::MemInsn& m = insn.mem();
  const int64_t e = isa::dramEntryBytes(hw, isa::Buffer(m.buffer)), rowBytes = m.xSize * e;
  const int64_t fullBursts = rowBytes / hw.timing.maxBurst, tail = rowBytes % hw.timing.maxBurst;
  const int64_t bursts = m.ySize * ceilDiv(rowBytes, hw.timing.maxBurst);
  const int64_t beats = m.ySize * (fullBursts * ceilDiv(hw.timing.maxBurst, hw.dramBytesPerCycle) +
                                   (tail ? ceilDiv(tail, hw.dramBytesPerCycle) : 0));
  const int64_t latency = hw.dramLatency * ceilDiv(bursts, hw.timing.outstanding);
  if (insn.opcode == isa::Opcode::kStore) return beats + latency;
  const int64_t padded = (m.yPad0 + m.ySize + m.yPad1) * (m.xPad0 + m.xSize + m.xPad1);
  return latency + beats + (padded - m.ySize * m.xSize);
}

}  // namespace

int64_t instructionCycles(const isa::Instruction& insn, const hwspec::HwSpec& hw) {
  switch (insn.opcode) {
    case isa::Opcode::kLoad:
    case isa::Opcode::kStore:
      return memCycles(insn, hw);
    case isa::Opcode::kGemm: {
      const isa::GemmInsn& g = insn.gemm();
      return hw.timing.pipelineDepth + g.iterOut * g.iterIn * (g.uopEnd - g.uopBgn) * hw.timing.gemmIi;
    }
    case isa::Opcode::kAlu: {
      const isa::AluInsn& a = insn.alu();
      return hw.timing.pipelineDepth + a.iterOut * a.iterIn * (a.uopEnd - a.uopBgn) * hw.timing.aluIi;
    }
    default:
      return 1;
  }
}

}  // namespace accelc::simulator
