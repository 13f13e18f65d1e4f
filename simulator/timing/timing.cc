// simulator/timing/timing.cc — the per-instruction cost formulas.
#include "simulator/timing/timing.h"

#include <algorithm>

#include "isa/semantics.h"

namespace accelc::simulator {

DmaShape dmaShapeOf(const isa::Instruction& insn, const hwspec::HwSpec& hw) {
  const isa::MemInsn& m = insn.mem();
  const isa::Buffer b = isa::Buffer(m.buffer);
  const int64_t e = isa::dramEntryBytes(hw, b);
  return {m.ySize,
          m.xSize * e,
          insn.opcode == isa::Opcode::kStore,
          static_cast<uint64_t>(m.dramBase * e),
          static_cast<uint64_t>(m.xStride * e),
          isa::dramBeatBytes(hw, b)};
}

int64_t padCycles(const isa::Instruction& insn) {
  if (insn.opcode != isa::Opcode::kLoad) return 0;
  const isa::MemInsn& m = insn.mem();
  return (m.yPad0 + m.ySize + m.yPad1) * (m.xPad0 + m.xSize + m.xPad1) - m.ySize * m.xSize;
}

namespace {

/// Calls `f` with the bytes of each burst of `d`, in order.
template <typename F>
void eachBurst(const DmaShape& d, const hwspec::HwSpec& hw, F f) {
  for (int64_t r = 0; r < d.rows; ++r)
    for (int64_t off = 0; off < d.rowBytes;) {
      const int64_t bytes = burstBytes(hw, d, r, off);
      f(bytes);
      off += bytes;
    }
}

}  // namespace

int64_t dmaBeats(const DmaShape& d, const hwspec::HwSpec& hw) {
  if (d.rows <= 0 || d.rowBytes <= 0) return 0;
  const int64_t w = beatBytesOf(hw, d);
  int64_t beats = 0;
  if (hw.dramSplit4k) {  // bursts depend on the addresses
    eachBurst(d, hw, [&](int64_t bytes) { beats += (bytes + w - 1) / w; });
    return beats;
  }
  const int64_t burst = burstBytes(hw, d, 0, 0), full = d.rowBytes / burst, tail = d.rowBytes % burst;
  return d.rows * (full * ((burst + w - 1) / w) + (tail + w - 1) / w);
}

int64_t dmaBursts(const DmaShape& d, const hwspec::HwSpec& hw) {
  if (d.rows <= 0 || d.rowBytes <= 0) return 0;
  if (!hw.dramSplit4k) {
    const int64_t burst = burstBytes(hw, d, 0, 0);
    return d.rows * ((d.rowBytes + burst - 1) / burst);
  }
  int64_t bursts = 0;
  eachBurst(d, hw, [&](int64_t) { ++bursts; });
  return bursts;
}

int64_t dmaSlotCycles(const DmaShape& d, const hwspec::HwSpec& hw) {
  return dmaBursts(d, hw) * hw.dramLatency + dmaBeats(d, hw);
}

int64_t fetchStartCycles(int64_t count, const hwspec::HwSpec& hw, int64_t insnBytes) {
  DramPort port(hw);
  const uint64_t id = port.submit(Requester::kFetch, {1, std::min(count * insnBytes, hw.timing.maxBurst), false}, 0);
  return static_cast<int64_t>(port.projectedDone(Requester::kFetch, id));
}

int64_t instructionCycles(const isa::Instruction& insn, const hwspec::HwSpec& hw) {
  switch (insn.opcode) {
    case isa::Opcode::kLoad:
    case isa::Opcode::kStore:
      return DramPort::aloneCycles(hw, dmaShapeOf(insn, hw)) + padCycles(insn);
    case isa::Opcode::kGemm: {
      const isa::GemmInsn& g = insn.gemm();
      return hw.timing.pipelineDepth + g.iterOut * g.iterIn * (g.uopEnd - g.uopBgn) * hw.timing.gemmIi;
    }
    case isa::Opcode::kAlu: {
      const isa::AluInsn& a = insn.alu();
      return hw.timing.pipelineDepth + a.iterOut * a.iterIn * (a.uopEnd - a.uopBgn) * hw.timing.aluIi;
    }
    case isa::Opcode::kFinish:
      return 1;
  }
  return 1;
}

}  // namespace accelc::simulator
