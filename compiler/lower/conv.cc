// compiler/lower/conv.cc — tiling, lowering and packing of accelerator convolutions.
#include "compiler/lower/conv.h"

#include <algorithm>
#include <cstring>

#include "isa/semantics.h"

namespace accelc::compiler::lower {

using hwspec::BufferKind;
using isa::Buffer;
using isa::Opcode;
using support::Status;

namespace {

/// Every size the lowering derives from a layer, schedule and hardware.
struct Plan {
  int64_t cb = 1, mb = 1, cbT = 1, chunks = 1;     ///< input/output blocks, chunk size, chunks per tile
  int64_t th = 1, thLast = 0, tiles = 1, full = 1;  ///< rows per tile, rows of the last tile (0: none), tiles
  int64_t win = 1;                                  ///< input columns a row of output reads
  int64_t inpHalf = 0, wgtHalf = 0, accHalf = 0;    ///< entries per buffer half
  int64_t hazard = 1;                               ///< accumulator hazard distance
  int64_t uops = 0;                                 ///< micro-op table size
};

int64_t padded(int64_t pixels, int64_t hazard) { return std::max(pixels, hazard); }

Plan planOf(const ConvLayer& l, const ConvSchedule& s, const hwspec::HwSpec& hw) {
  Plan p;
  p.cb = l.x.blocks();
  p.mb = (l.m + hw.blockOut - 1) / hw.blockOut;
  p.cbT = s.chunkBlocks;
  p.chunks = p.cb / std::max<int64_t>(p.cbT, 1);
  p.th = std::min(s.tileRows, l.oh);
  p.full = l.oh / p.th;
  p.thLast = l.oh - p.full * p.th;
  p.tiles = p.full + (p.thLast > 0);
  p.win = (l.ow - 1) * l.sw + l.kw;
  p.hazard = hw.timing.accHazard;
  p.inpHalf = ((p.th - 1) * l.sh + l.kh) * p.cbT * p.win;
  p.wgtHalf = l.kh * p.cbT * l.kw;
  p.accHalf = padded(p.th * l.ow, p.hazard) + 2;
  const int64_t uFull = padded(p.th * l.ow, p.hazard), uLast = p.thLast ? padded(p.thLast * l.ow, p.hazard) : 0;
  p.uops = 4 * (uFull + uLast) + 4 * (p.th + p.thLast) * l.ow;
  return p;
}

// Micro-op table offsets: GEMM sets by (tile kind, load half, acc half), then ALU sets by (tile kind, acc half, op).
int64_t gemmSet(const Plan& p, const ConvLayer& l, int last, int ls, int as) {
  const int64_t uFull = padded(p.th * l.ow, p.hazard), uLast = p.thLast ? padded(p.thLast * l.ow, p.hazard) : 0;
  return last ? 4 * uFull + (ls * 2 + as) * uLast : (ls * 2 + as) * uFull;
}
int64_t aluSet(const Plan& p, const ConvLayer& l, int last, int as, int op) {
  const int64_t base = 4 * (padded(p.th * l.ow, p.hazard) + (p.thLast ? padded(p.thLast * l.ow, p.hazard) : 0));
  const int64_t full = p.th * l.ow, tail = p.thLast * l.ow;
  return base + (last ? 4 * full + (as * 2 + op) * tail : (as * 2 + op) * full);
}

std::vector<isa::Uop> uopTable(const Plan& p, const ConvLayer& l) {
  std::vector<isa::Uop> u(static_cast<size_t>(p.uops));
  for (int last = 0; last < 1 + (p.thLast > 0); ++last) {
    const int64_t rows = last ? p.thLast : p.th, pix = rows * l.ow, n = padded(pix, p.hazard);
    for (int ls = 0; ls < 2; ++ls)
      for (int as = 0; as < 2; ++as) {
        const int64_t at = gemmSet(p, l, last, ls, as), acc = as * p.accHalf;
        for (int64_t q = 0; q < n; ++q) {  // pixels, then hazard padding rows
          const int64_t r = q / l.ow, c = q % l.ow;
          const int64_t src = q < pix ? (r * l.sh) * p.cbT * p.win + c * l.sw : 0;
          u[at + q] = {acc + q, ls * p.inpHalf + src, ls * p.wgtHalf};
        }
        for (int op = 0; op < 2; ++op) {
          const int64_t a = aluSet(p, l, last, as, op), param = acc + p.accHalf - 2 + op;
          for (int64_t q = 0; q < pix; ++q) u[a + q] = {acc + q, param, 0};
        }
      }
  }
  return u;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Cycles of one DMA of `rows` rows of `bytes` bytes (docs/microarchitecture.md).
int64_t dmaCycles(const hwspec::HwSpec& hw, int64_t rows, int64_t bytes) {
  const int64_t bursts = rows * ceilDiv(bytes, hw.timing.maxBurst);
  return hw.dramLatency * ceilDiv(bursts, hw.timing.outstanding) + ceilDiv(rows * bytes, hw.dramBytesPerCycle);
}

int64_t estimate(const ConvLayer& l, const Plan& p, const hwspec::HwSpec& hw) {
  const int64_t bi = hw.entryBytes(BufferKind::kInput), bw = hw.entryBytes(BufferKind::kWeight);
  int64_t load = 0, compute = 0, store = 0;
  for (int last = 0; last < 1 + (p.thLast > 0); ++last) {
    const int64_t rows = last ? p.thLast : p.th, count = (last ? 1 : p.full) * l.x.n * p.mb;
    const int64_t inRows = (rows - 1) * l.sh + l.kh, apps = padded(rows * l.ow, p.hazard);
    const int64_t chunkLoad = inRows * dmaCycles(hw, p.cbT, p.win * bi) + dmaCycles(hw, l.kh, p.cbT * l.kw * bw);
    const int64_t gemm = hw.timing.pipelineDepth + apps * l.kh * p.cbT * l.kw * hw.timing.gemmIi;
    const int64_t alu = 5 * (hw.timing.pipelineDepth + rows * l.ow * hw.timing.aluIi);
    load += count * p.chunks * chunkLoad;
    compute += count * (p.chunks * gemm + alu + dmaCycles(hw, 1, 3 * hw.entryBytes(BufferKind::kAcc)));
    store += count * dmaCycles(hw, rows, l.ow * hw.entryBytes(BufferKind::kOutput));
  }
  return std::max({load, compute, store}) + (load + store) / std::max<int64_t>(1, p.tiles * p.chunks * l.x.n * p.mb);
}

}  // namespace

int64_t convMacs(const ConvLayer& l) { return l.x.n * l.m * l.oh * l.ow * l.x.c * l.kh * l.kw; }

Status checkSchedule(const ConvLayer& l, const ConvSchedule& s, const hwspec::HwSpec& hw) {
  auto fail = [&](const std::string& buffer, int64_t need, int64_t have) {
    return support::error(support::Location::node(l.name, l.name),
                          "no legal tiling: the " + buffer + " buffer needs " + std::to_string(need) +
                              " entries for this layer (double-buffered) but has " + std::to_string(have));
  };
  if (s.tileRows < 1 || s.chunkBlocks < 1 || l.x.blocks() % s.chunkBlocks)
    return support::error(support::Location::node(l.name, l.name), "schedule: tile rows and chunk blocks must be positive, chunks must divide the input blocks");
  const Plan p = planOf(l, s, hw);
  if (2 * p.inpHalf > hw.depth(BufferKind::kInput)) return fail("input", 2 * p.inpHalf, hw.depth(BufferKind::kInput));
  if (2 * p.wgtHalf > hw.depth(BufferKind::kWeight)) return fail("weight", 2 * p.wgtHalf, hw.depth(BufferKind::kWeight));
  const int64_t accDepth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  if (2 * p.accHalf > accDepth) return fail("accumulator", 2 * p.accHalf, accDepth);
  if (p.uops > hw.depth(BufferKind::kUop)) return fail("micro-op", p.uops, hw.depth(BufferKind::kUop));
  return Status::ok();
}

support::Expected<ConvSchedule> chooseSchedule(const ConvLayer& l, const hwspec::HwSpec& hw) {
  std::optional<ConvSchedule> best;
  Status firstError;
  int legal = 0;
  const int64_t cb = l.x.blocks();
  for (int64_t cbT = cb; cbT >= 1; --cbT) {
    if (cb % cbT) continue;
    for (int64_t rows = l.oh; rows >= 1; --rows) {
      ConvSchedule s{rows, cbT, 0, ""};
      Status st = checkSchedule(l, s, hw);
      if (!st) {
        if (firstError.isOk()) firstError = st;
        continue;
      }
      ++legal;
      s.cycles = estimate(l, planOf(l, s, hw), hw);
      if (!best || s.cycles < best->cycles) best = s;
    }
  }
  if (!best) {  // report the smallest tiling's problem: the one no schedule can avoid
    Status smallest = checkSchedule(l, ConvSchedule{1, 1, 0, ""}, hw);
    return smallest ? firstError.diag() : smallest.diag();
  }
  best->why = std::to_string(legal) + " legal tilings; chose " + std::to_string(best->tileRows) + " rows x " +
              std::to_string(best->chunkBlocks) + " input blocks per chunk, the lowest estimate (" +
              std::to_string(best->cycles) + " cycles)";
  return *best;
}

std::vector<uint8_t> packConvWeights(const ConvLayer& l, const hwspec::HwSpec& hw) {
  const int64_t bi = hw.blockIn, bo = hw.blockOut, cb = l.x.blocks(), mb = (l.m + bo - 1) / bo, c = l.x.c;
  std::vector<uint8_t> out(static_cast<size_t>(mb * l.kh * cb * l.kw * bo * bi), 0);
  const int8_t* w = l.weight.data<int8_t>();
  for (int64_t m = 0; m < l.m; ++m)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t y = 0; y < l.kh; ++y)
        for (int64_t x = 0; x < l.kw; ++x) {
          const int64_t entry = ((m / bo * l.kh + y) * cb + ci / bi) * l.kw + x;
          out[(entry * bo + m % bo) * bi + ci % bi] = static_cast<uint8_t>(w[((m * c + ci) * l.kh + y) * l.kw + x]);
        }
  return out;
}

std::vector<uint8_t> packConvParams(const ConvLayer& l, const hwspec::HwSpec& hw) {
  const int64_t bo = hw.blockOut, mb = (l.m + bo - 1) / bo;
  std::vector<int32_t> rows(static_cast<size_t>(mb * 3 * bo), 0);
  for (int64_t m = 0; m < l.m; ++m) {
    rows[(m / bo * 3 + 0) * bo + m % bo] = l.bias[m];
    rows[(m / bo * 3 + 1) * bo + m % bo] = l.mult[m];
    rows[(m / bo * 3 + 2) * bo + m % bo] = l.shift[m];
  }
  std::vector<uint8_t> out(rows.size() * 4);
  std::memcpy(out.data(), rows.data(), out.size());  // little-endian int32, as LOAD acc reads them
  return out;
}

namespace {

/// Emits one tile: bias and parameter rows, the chunks' loads and GEMMs, the requantization, the store.
void emitTile(Kernel& k, std::vector<Stmt>& body, const ConvLayer& l, const Plan& p, const hwspec::HwSpec& hw,
              const ConvAddrs& a, int last, Expr t, int vn, int vmb) {
  const int64_t rows = last ? p.thLast : p.th, inRows = (rows - 1) * l.sh + l.kh;
  const int64_t accE = hw.entryBytes(BufferKind::kAcc), inpE = hw.entryBytes(BufferKind::kInput);
  const int64_t wgtE = hw.entryBytes(BufferKind::kWeight), outE = hw.entryBytes(BufferKind::kOutput);
  const int64_t totalTiles = l.x.n * p.mb * p.tiles, totalChunks = totalTiles * p.chunks;
  // The linear tile counter (n·MB + mb)·T + t, as one affine term so that it can be taken mod 2.
  Term tt{0, {{vn, p.mb * p.tiles}, {vmb, p.tiles}}, 0, 1};
  for (const Term& x : t.terms) {
    tt.constant += x.constant;
    tt.coeffs.insert(tt.coeffs.end(), x.coeffs.begin(), x.coeffs.end());
  }
  Expr tileE;
  tileE.terms = {tt};
  const Expr accBase = tileE.mod(2, p.accHalf);
  const int64_t params = static_cast<int64_t>(a.params / accE);
  body.push_back(Stmt::intrinsic(Opcode::kLoad, "bias into the tile's accumulator rows")
                     .set("buffer", static_cast<int64_t>(Buffer::kAcc))
                     .set("sram_base", accBase)
                     .set("dram_base", Expr(params) + Expr::var(vmb, 3))
                     .set("y_size", padded(rows * l.ow, p.hazard))
                     .set("x_size", 1)
                     .set("x_stride", 0)
                     .flag("pop_next", tileE, 2));
  body.push_back(Stmt::intrinsic(Opcode::kLoad, "multiplier and shift rows")
                     .set("buffer", static_cast<int64_t>(Buffer::kAcc))
                     .set("sram_base", accBase + Expr(p.accHalf - 2))
                     .set("dram_base", Expr(params + 1) + Expr::var(vmb, 3))
                     .set("y_size", 1)
                     .set("x_size", 2)
                     .set("x_stride", 2));
  const int vc = k.newVar("c" + std::string(last ? "_last" : ""));
  Stmt chunks = Stmt::loop(vc, p.chunks);
  Term gt = tt;  // chunk counter g = tile * chunks + c
  for (auto& [id, co] : gt.coeffs) co *= p.chunks;
  gt.constant *= p.chunks;
  gt.coeffs.push_back({vc, 1});
  Expr g;
  g.terms = {gt};
  const Expr ls = g.mod(2);
  const int64_t rowStart0 = l.x.top - l.pt, col0 = l.x.left - l.pl;
  const Expr rowStart = Expr(rowStart0) + t * (p.th * l.sh);
  auto inpLoad = [&](Expr r, bool first) {
    // DRAM entry of (image n, row rowStart + r, block c·cbT, column col0).
    Expr dram = Expr(static_cast<int64_t>(a.x / inpE) + col0) + Expr::var(vn, l.x.rows() * p.cb * l.x.cols()) +
                (rowStart + r) * (p.cb * l.x.cols()) + Expr::var(vc, p.cbT * l.x.cols());
    Stmt s = Stmt::intrinsic(Opcode::kLoad, first ? "input rows of the chunk" : "");
    s.set("buffer", static_cast<int64_t>(Buffer::kInp))
        .set("sram_base", g.mod(2, p.inpHalf) + r * (p.cbT * p.win))
        .set("dram_base", dram)
        .set("y_size", p.cbT)
        .set("x_size", p.win)
        .set("x_stride", l.x.cols());
    if (first) s.flag("pop_next", g, 2);
    return s;
  };
  chunks.body.push_back(inpLoad(Expr(0), true));
  if (inRows > 1) {
    const int vr = k.newVar("r" + std::string(last ? "_last" : ""));
    Stmt rowsLoop = Stmt::loop(vr, inRows - 1);
    rowsLoop.body.push_back(inpLoad(Expr::var(vr) + Expr(1), false));
    chunks.body.push_back(rowsLoop);
  }
  chunks.body.push_back(Stmt::intrinsic(Opcode::kLoad, "weights of the chunk")
                            .set("buffer", static_cast<int64_t>(Buffer::kWgt))
                            .set("sram_base", g.mod(2, p.wgtHalf))
                            .set("dram_base", Expr(static_cast<int64_t>(a.weights / wgtE)) +
                                                  Expr::var(vmb, l.kh * p.cb * l.kw) + Expr::var(vc, p.cbT * l.kw))
                            .set("y_size", l.kh)
                            .set("x_size", p.cbT * l.kw)
                            .set("x_stride", p.cb * l.kw)
                            .flag("push_next"));
  const int64_t u = padded(rows * l.ow, p.hazard);
  Expr set = Expr(gemmSet(p, l, last, 0, 0)) + g.mod(2, 2 * u) + tileE.mod(2, u);
  chunks.body.push_back(Stmt::intrinsic(Opcode::kGemm, "reduce the chunk into the tile")
                            .set("uop_bgn", set)
                            .set("uop_end", set + Expr(u))
                            .set("iter_out", l.kh * p.cbT)
                            .set("iter_in", l.kw)
                            .set("src_factor_out", p.win)
                            .set("src_factor_in", 1)
                            .set("wgt_factor_out", l.kw)
                            .set("wgt_factor_in", 1)
                            .flag("pop_prev")
                            .flag("push_prev", g, INT64_MIN, totalChunks - 2));
  body.push_back(chunks);
  // Requantize: mulq, shrr, add zero point, clamp.
  std::vector<Stmt> alus;
  for (int op = 0; op < 2; ++op) {
    const Expr at = Expr(aluSet(p, l, last, 0, op)) + tileE.mod(2, 2 * rows * l.ow);
    alus.push_back(Stmt::intrinsic(Opcode::kAlu, op ? "shift right, rounding" : "per-channel multiplier")
                       .set("uop_bgn", at)
                       .set("uop_end", at + Expr(rows * l.ow))
                       .set("iter_out", 1)
                       .set("iter_in", 1)
                       .set("alu_op", static_cast<int64_t>(op ? isa::AluOp::kShrr : isa::AluOp::kMulq)));
  }
  const Expr mulqSet = Expr(aluSet(p, l, last, 0, 0)) + tileE.mod(2, 2 * rows * l.ow);
  auto imm = [&](isa::AluOp op, int64_t v, const char* what) {
    alus.push_back(Stmt::intrinsic(Opcode::kAlu, what)
                       .set("uop_bgn", mulqSet)
                       .set("uop_end", mulqSet + Expr(rows * l.ow))
                       .set("iter_out", 1)
                       .set("iter_in", 1)
                       .set("alu_op", static_cast<int64_t>(op))
                       .set("use_imm", 1)
                       .set("imm", v));
  };
  if (l.zeroPoint) imm(isa::AluOp::kAdd, l.zeroPoint, "output zero point");
  if (l.lo > -128) imm(isa::AluOp::kMax, l.lo, "clamp below (ReLU)");
  if (l.hi < 127) imm(isa::AluOp::kMin, l.hi, "clamp above");
  alus.back().flag("push_next");
  body.insert(body.end(), alus.begin(), alus.end());
  const Expr ydram = Expr(static_cast<int64_t>(a.y / outE) + l.y.left) + Expr::var(vn, l.y.rows() * p.mb * l.y.cols()) +
                     (Expr(l.y.top) + t * p.th) * (p.mb * l.y.cols()) + Expr::var(vmb, l.y.cols());
  body.push_back(Stmt::intrinsic(Opcode::kStore, "the tile's output rows")
                     .set("buffer", static_cast<int64_t>(Buffer::kOut))
                     .set("sram_base", accBase)
                     .set("dram_base", ydram)
                     .set("y_size", rows)
                     .set("x_size", l.ow)
                     .set("x_stride", p.mb * l.y.cols())
                     .flag("pop_prev")
                     .flag("push_prev", tileE, INT64_MIN, totalTiles - 2));
}

}  // namespace

Kernel lowerConv(const ConvLayer& l, const ConvSchedule& s, const hwspec::HwSpec& hw, const ConvAddrs& a) {
  const Plan p = planOf(l, s, hw);
  Kernel k;
  k.name = l.name;
  k.uops = uopTable(p, l);
  k.body.push_back(Stmt::intrinsic(Opcode::kLoad, "the micro-op table")
                       .set("buffer", static_cast<int64_t>(Buffer::kUop))
                       .set("sram_base", 0)
                       .set("dram_base", 0)  // the code generator places the table
                       .set("y_size", 1)
                       .set("x_size", p.uops)
                       .set("x_stride", p.uops));
  const int vn = k.newVar("n"), vmb = k.newVar("mb");
  Stmt images = Stmt::loop(vn, l.x.n), blocks = Stmt::loop(vmb, p.mb);
  if (p.full > 0) {
    const int vt = k.newVar("t");
    Stmt tiles = Stmt::loop(vt, p.full);
    emitTile(k, tiles.body, l, p, hw, a, 0, Expr::var(vt), vn, vmb);
    blocks.body.push_back(tiles);
  }
  if (p.thLast) emitTile(k, blocks.body, l, p, hw, a, 1, Expr(p.full), vn, vmb);
  images.body.push_back(blocks);
  k.body.push_back(images);
  k.body.push_back(Stmt::intrinsic(Opcode::kFinish, ""));
  return k;
}

}  // namespace accelc::compiler::lower
