// hls/hls_estimate.cc — the HLS IP's binding and resources.
#include "hls/hls_estimate.h"

#include <algorithm>
#include <numeric>

#include "hls/synth_gen.h"

namespace accelc::hls {

namespace {

using hwspec::BufferKind;

/// Bits of one entry of buffer `b` as the HLS C++ holds it (a micro-op as three 32-bit indices).
int64_t entryBits(const hwspec::HwSpec& hw, BufferKind b) { return b == BufferKind::kUop ? 96 : 8 * hw.entryBytes(b); }

/// Copies of buffer `b`: the accumulator's ALU reads two rows and writes one a cycle at alu_ii 1.
int64_t copies(const hwspec::HwSpec& hw, BufferKind b) { return b == BufferKind::kAcc && hw.timing.aluIi < 2 ? 2 : 1; }

int64_t uram288(int64_t depth, int64_t width) { return ((width + 71) / 72) * ((depth + 4095) / 4096); }

/// LUTs per lane of each ALU operation beyond its multiplier pieces (comparators, adders, shifters, muxes).
int64_t aluLuts(const std::string& op) {
  if (op == "min" || op == "max") return 48;
  if (op == "add") return 40;
  if (op == "mulq") return 96;  // the nudge, the doubling and the saturation around the pieces
  if (op == "mul") return 32;
  if (op == "shr") return 180;
  if (op == "shrr") return 200;
  if (op == "clip") return 96;
  return 8;  // mov: the operand mux
}

/// Fetch, decode, the three units' control, the DMA engines and the AXI adapters.
constexpr int64_t kControlLuts = 4000, kControlFfs = 5000;

}  // namespace

HlsBinding bindOnPart(const hwspec::HwSpec& hw, int64_t dsps, int64_t urams) {
  HlsBinding b;
  const int64_t lanes = hw.batch * hw.blockOut;
  b.products = hw.batch * hw.blockIn * hw.blockOut;
  b.pieces = hw.hasAluOp("mulq") ? 4 * lanes : hw.hasAluOp("mul") ? 3 * lanes : 0;
  if (dsps < 0) dsps = b.products + b.pieces;
  b.dspPieces = std::min(b.pieces, dsps);
  b.dspProducts = std::min(b.products, dsps - b.dspPieces);
  std::array<int, hwspec::kNumBuffers> order;
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return hw.bufferBytes[x] > hw.bufferBytes[y]; });
  for (int k : order) {
    const BufferKind kind = BufferKind(k);
    const int64_t need = copies(hw, kind) * uram288(hw.depth(kind), entryBits(hw, kind));
    if (hw.bufferBytes[k] >= 64 * 1024 && need <= urams) b.uram[static_cast<size_t>(k)] = true, urams -= need;
  }
  return b;
}

HlsResources estimateHls(const isa::Target& t, const HlsBinding& b) {
  const hwspec::HwSpec& hw = t.spec;
  HlsResources r;
  r.dsps = b.dspPieces + b.dspProducts;
  r.dspNote = std::to_string(b.dspPieces) + " of the ALU's " + std::to_string(b.pieces) + " 16x16 pieces and " +
              std::to_string(b.dspProducts) + " of the GEMM core's " + std::to_string(b.products) + " int8 products";
  for (int k = 0; k < hwspec::kNumBuffers; ++k) {
    const BufferKind kind = BufferKind(k);
    const int64_t n = copies(hw, kind), depth = hw.depth(kind), width = entryBits(hw, kind);
    if (b.uram[static_cast<size_t>(k)])
      r.urams += n * uram288(depth, width);
    else
      r.bram18 += n * xilinxBram18(depth, width);
  }
  // The command queues hold an instruction, its pc and an end flag; token queues one bit a token.
  const int64_t cmdBits = hw.insnBits + 33;
  if (hw.commandDepth >= kXilinxBramMinDepth) r.bram18 += 3 * xilinxBram18(hw.commandDepth, cmdBits);
  if (hw.tokenDepth >= kXilinxBramMinDepth) r.bram18 += 4 * xilinxBram18(hw.tokenDepth, 1);
  r.bramNote = "each buffer one memory of whole entries" + std::string(copies(hw, BufferKind::kAcc) > 1 ? " (acc twice)" : "") +
               ", and the command and token queues of " + std::to_string(kXilinxBramMinDepth) + " or more";
  const int64_t lanes = hw.batch * hw.blockOut, fabricProducts = b.products - b.dspProducts,
                fabricPieces = b.pieces - b.dspPieces;
  int64_t alu = 32;  // the operand mux
  for (const std::string& op : hw.aluOps) alu += aluLuts(op);
  const int64_t multipliers = fabricProducts * kLutsPerProduct + fabricPieces * kLutsPerPiece;
  const int64_t trees = lanes * ((hw.blockIn - 1) * 17 + 32);
  r.luts = multipliers + trees + lanes * alu + kControlLuts;
  r.lutNote = std::to_string(fabricProducts) + " products x " + std::to_string(kLutsPerProduct) + " + " +
              std::to_string(fabricPieces) + " pieces x " + std::to_string(kLutsPerPiece) + " in fabric, " +
              std::to_string(trees) + " for the adder trees, " + std::to_string(lanes * alu) + " for the ALU, " +
              std::to_string(kControlLuts) + " for control, DMA and AXI (analytic)";
  const int64_t pipeline = lanes * 32 * hw.timing.pipelineDepth + 16 * b.products + lanes * 96;
  r.ffs = pipeline + kControlFfs;
  r.ffNote = std::to_string(pipeline) + " in the GEMM and ALU pipelines, " + std::to_string(kControlFfs) +
             " for control, DMA and AXI (analytic)";
  return r;
}

}  // namespace accelc::hls
