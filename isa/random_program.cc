// isa/random_program.cc — the tile-by-tile random program generator.
#include "isa/random_program.h"

#include <algorithm>
#include <random>

#include "isa/builder.h"
#include "isa/semantics.h"

namespace accelc::isa {

using hwspec::BufferKind;
using support::Expected;

namespace {

/// Portable draws (std::*_distribution differ between libraries).
struct Rng {
  std::mt19937_64 g;  ///< the engine (fully specified by the standard)
  int64_t in(int64_t lo, int64_t hi) { return hi <= lo ? lo : lo + static_cast<int64_t>(g() % static_cast<uint64_t>(hi - lo + 1)); }
  bool chance(int pct) { return in(0, 99) < pct; }
};

/// A half of an on-chip buffer that one tile owns: [lo, lo + n).
struct Region {
  int64_t lo = 0, n = 0;
};

constexpr uint64_t kDataBytes = 64 * 1024;   ///< random constants
constexpr uint64_t kOutBytes = 16 * 1024;    ///< where stores go
constexpr int64_t kMaxUopsPerTile = 64;      ///< micro-op table per tile

/// Generates one program.
class Generator {
 public:
  Generator(const Target& t, uint64_t seed) : t_(t), b_(t) { rng_.g.seed(seed); }
  Expected<Program> run(const RandomProgramOptions& o, uint64_t seed);

 private:
  Region half(BufferKind k, int h, int64_t cap) const {
    int64_t d = t_.spec.depth(k);
    if (k == BufferKind::kAcc) d = std::min(d, t_.spec.depth(BufferKind::kOutput));
    int64_t n = std::min(d / 2, cap);
    return {h * (d / 2), std::max<int64_t>(n, 1)};
  }
  Instruction mem(Opcode op, Buffer b, Region sram, uint64_t dramBase, uint64_t dramBytes, bool pad);
  void gemmOrAlu(bool gemm, Region acc, Region inp, Region wgt, std::vector<Uop>& table, int64_t tableBase);
  void tile(int t, int tiles);

  const Target& t_;                   ///< target
  ProgramBuilder b_;                  ///< output
  Rng rng_;                           ///< randomness
  uint64_t uopAddr_ = 0;              ///< DRAM address of the micro-op tables
  std::vector<Uop> allUops_;          ///< every tile's table, concatenated
  std::vector<Instruction> compute_;  ///< compute instructions of the current tile
};

Instruction Generator::mem(Opcode op, Buffer b, Region sram, uint64_t dramBase, uint64_t dramBytes, bool pad) {
  Instruction insn = makeInstruction(op);
  MemInsn& m = insn.mem();
  m.buffer = static_cast<int64_t>(b);
  const int64_t elem = dramEntryBytes(t_.spec, b);
  m.ySize = rng_.in(1, 3);
  m.xSize = rng_.in(1, 4);
  m.xStride = m.xSize + rng_.in(0, 2);
  if (pad) {
    m.yPad0 = rng_.chance(30), m.yPad1 = rng_.chance(30), m.xPad0 = rng_.chance(30), m.xPad1 = rng_.chance(30);
  }
  int64_t rows = m.yPad0 + m.ySize + m.yPad1, cols = m.xPad0 + m.xSize + m.xPad1;
  if (rows * cols > sram.n) {
    m.ySize = m.xSize = m.xStride = 1;
    m.yPad0 = m.yPad1 = m.xPad0 = m.xPad1 = 0;
    rows = cols = 1;
  }
  m.sramBase = sram.lo + rng_.in(0, sram.n - rows * cols);
  const int64_t extent = (m.ySize - 1) * m.xStride + m.xSize;
  m.dramBase = static_cast<int64_t>(dramBase / elem) + rng_.in(0, static_cast<int64_t>(dramBytes / elem) - extent);
  return insn;
}

/// Loops and micro-ops for one GEMM or ALU that obey the hazard rule: either
/// every application writes its own row, or the inner loop reduces into the
/// same rows and the micro-op range is at least acc_hazard long.
void Generator::gemmOrAlu(bool gemm, Region acc, Region inp, Region wgt, std::vector<Uop>& table, int64_t tableBase) {
  const int64_t hazard = t_.spec.timing.accHazard, dstRows = std::max<int64_t>(acc.n / 2, 1);
  const bool reduce = rng_.chance(40) && hazard * 2 <= dstRows;
  int64_t u = reduce ? hazard + rng_.in(0, 2) : rng_.in(1, 4);
  int64_t i1 = rng_.in(reduce ? 2 : 1, 3), i0 = rng_.in(1, 2);
  while ((reduce ? u * i0 : u * i1 * i0) > dstRows) i0 > 1 ? --i0 : i1 > 1 ? --i1 : --u;
  const int64_t dfi = reduce ? 0 : u, dfo = reduce ? u : u * i1, span = reduce ? u * i0 : u * i1 * i0;
  const int64_t dBase = acc.lo + rng_.in(0, dstRows - span);
  // Sources: the input buffer (GEMM) or the other half of the tile's accumulator rows (ALU).
  Region src = gemm ? inp : Region{acc.lo + dstRows, std::max<int64_t>(acc.n - dstRows, 1)};
  int64_t sfi = rng_.in(0, 1), sfo = rng_.in(0, 2), wfi = rng_.in(0, 1), wfo = rng_.in(0, 2);
  if ((i0 - 1) * sfo + (i1 - 1) * sfi >= src.n) sfo = sfi = 0;
  if ((i0 - 1) * wfo + (i1 - 1) * wfi >= wgt.n) wfo = wfi = 0;
  const int64_t sMax = src.n - 1 - (i0 - 1) * sfo - (i1 - 1) * sfi, wMax = wgt.n - 1 - (i0 - 1) * wfo - (i1 - 1) * wfi;
  const int64_t bgn = tableBase + static_cast<int64_t>(table.size());
  for (int64_t k = 0; k < u; ++k)
    table.push_back({dBase + k, src.lo + rng_.in(0, sMax), gemm ? wgt.lo + rng_.in(0, wMax) : 0});
  Instruction insn = makeInstruction(gemm ? Opcode::kGemm : Opcode::kAlu);
  auto loops = [&](auto& f) {
    f.uopBgn = bgn, f.uopEnd = bgn + u, f.iterOut = i0, f.iterIn = i1;
    f.dstFactorOut = dfo, f.dstFactorIn = dfi, f.srcFactorOut = sfo, f.srcFactorIn = sfi;
    f.reset = rng_.chance(gemm ? 20 : 5);
  };
  if (gemm) {
    GemmInsn& g = insn.gemm();
    loops(g);
    g.wgtFactorOut = wfo, g.wgtFactorIn = wfi;
  } else {
    AluInsn& a = insn.alu();
    loops(a);
    const std::string& op = t_.spec.aluOps[rng_.in(0, static_cast<int64_t>(t_.spec.aluOps.size()) - 1)];
    for (int k = 0; k < kNumAluOps; ++k)
      if (op == aluOpName(AluOp(k))) a.aluOp = k;
    a.useImm = rng_.chance(50);
    int immBits = 16;
    for (const FieldLayout& f : t_.isa.format(Format::kAlu).fields)
      if (f.name == "imm") immBits = f.bits;
    const int64_t lo = -(int64_t{1} << (immBits - 1)), hi = (int64_t{1} << (immBits - 1)) - 1;
    const bool shift = AluOp(a.aluOp) == AluOp::kShr || AluOp(a.aluOp) == AluOp::kShrr;
    const int64_t edges[] = {lo, hi, 0, 1, -1};
    a.imm = shift ? rng_.in(-2, 40) : rng_.chance(25) ? edges[rng_.in(0, 4)] : rng_.in(lo, hi);
  }
  compute_.push_back(insn);
}

void Generator::tile(int t, int tiles) {
  const int h = t % 2;
  const Region inp = half(BufferKind::kInput, h, 64), wgt = half(BufferKind::kWeight, h, 32);
  const Region acc = half(BufferKind::kAcc, h, 64), uop = half(BufferKind::kUop, h, kMaxUopsPerTile / 2);
  // Load unit: fill this tile's input and weight halves.
  std::vector<Instruction> loads;
  for (int n = static_cast<int>(rng_.in(1, 3)), i = 0; i < n; ++i) {
    bool w = i == 1 || rng_.chance(40);
    loads.push_back(mem(Opcode::kLoad, w ? Buffer::kWgt : Buffer::kInp, w ? wgt : inp, 0, kDataBytes, true));
  }
  // Compute unit: micro-ops, optional accumulator loads, GEMMs and ALUs.
  compute_.clear();
  std::vector<Uop> table;
  const int64_t tableBase = uop.lo;
  const Region accSrc{acc.lo + std::max<int64_t>(acc.n / 2, 1), std::max<int64_t>(acc.n - acc.n / 2, 1)};
  if (rng_.chance(50))
    compute_.push_back(mem(Opcode::kLoad, rng_.chance(50) ? Buffer::kAcc : Buffer::kAcc8, accSrc, 0, kDataBytes, true));
  for (int n = static_cast<int>(rng_.in(1, 4)), i = 0; i < n; ++i)
    gemmOrAlu(i == 0 || rng_.chance(50), acc, inp, wgt, table, tableBase);
  ACCELC_CHECK(static_cast<int64_t>(table.size()) <= uop.n) << "micro-op table overflows its half";
  Instruction ld = makeInstruction(Opcode::kLoad);
  MemInsn& m = ld.mem();
  m.buffer = static_cast<int64_t>(Buffer::kUop);
  m.sramBase = uop.lo;
  m.dramBase = static_cast<int64_t>(uopAddr_ / t_.uopBytes()) + t * kMaxUopsPerTile;
  m.ySize = 1, m.xSize = static_cast<int64_t>(table.size()), m.xStride = m.xSize;
  compute_.insert(compute_.begin(), ld);
  std::copy(table.begin(), table.end(), allUops_.begin() + t * kMaxUopsPerTile);
  // Store unit: write some of this tile's output rows.
  std::vector<Instruction> stores;
  for (int n = static_cast<int>(rng_.in(1, 2)), i = 0; i < n; ++i)
    stores.push_back(mem(Opcode::kStore, Buffer::kOut, acc, kDataBytes, kOutBytes, false));
  // Tokens: data ready, halves free again.
  loads.front().mem().popNext = t >= 2;
  loads.back().mem().pushNext = 1;
  setDeps(compute_.front(), {true, t >= 2, false, false});
  Deps last = depsOf(compute_.back());
  last.pushPrev = t + 2 < tiles;
  last.pushNext = true;
  setDeps(compute_.back(), last);
  stores.front().mem().popPrev = 1;
  stores.back().mem().pushPrev = t + 2 < tiles;
  b_.label("tile" + std::to_string(t));
  for (const auto* list : {&loads, &compute_, &stores})
    for (const Instruction& i : *list) b_.add(i);
}

Expected<Program> Generator::run(const RandomProgramOptions& o, uint64_t seed) {
  const int tiles = static_cast<int>(rng_.in(o.minTiles, o.maxTiles));
  std::vector<uint8_t> data(kDataBytes);
  for (uint8_t& x : data) x = static_cast<uint8_t>(rng_.g());
  b_.symbol({"data", SymbolRole::kConst, 0, support::DType::kInt8, {static_cast<int64_t>(kDataBytes)}}, data);
  b_.symbol({"result", SymbolRole::kOutput, kDataBytes, support::DType::kInt8, {static_cast<int64_t>(kOutBytes)}});
  uopAddr_ = kDataBytes + kOutBytes;
  allUops_.assign(tiles * kMaxUopsPerTile, Uop{});
  for (int t = 0; t < tiles; ++t) tile(t, tiles);
  b_.endLabel();
  b_.add(makeInstruction(Opcode::kFinish));
  b_.uops("uops", uopAddr_, allUops_);
  uint64_t textAddr = uopAddr_ + allUops_.size() * t_.uopBytes();
  b_.text((textAddr + 4095) / 4096 * 4096);
  return b_.finish("random-" + std::to_string(seed));
}

}  // namespace

Expected<Program> randomProgram(const Target& t, uint64_t seed, const RandomProgramOptions& o) {
  Generator g(t, seed);
  return g.run(o, seed);
}

}  // namespace accelc::isa
