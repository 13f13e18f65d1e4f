// compiler/lower/pool.cc — MaxPool tiles on the ALU.
#include "compiler/lower/pool.h"

#include <algorithm>

#include "isa/semantics.h"

namespace accelc::compiler::lower {

using hwspec::BufferKind;
using isa::Buffer;
using isa::Opcode;

namespace {

/// Accumulator rows one half needs for `rows` output rows: the input window
/// rows, then the output rows (padded to the hazard distance).
int64_t halfRows(const PoolLayer& l, int64_t rows, int64_t hazard) {
  const int64_t win = (l.ow - 1) * l.sw + l.kw, inRows = (rows - 1) * l.sh + l.kh;
  return inRows * win + std::max(rows * l.ow, hazard);
}

/// Micro-ops of one tile kind and accumulator half: dst = output pixel, src = its window's corner.
void pixelUops(std::vector<isa::Uop>& u, const PoolLayer& l, int64_t rows, int64_t base, int64_t hazard) {
  const int64_t win = (l.ow - 1) * l.sw + l.kw, out = base + ((rows - 1) * l.sh + l.kh) * win;
  const int64_t pix = rows * l.ow;
  for (int64_t q = 0; q < std::max(pix, hazard); ++q) {
    const int64_t r = q / l.ow, c = q % l.ow;
    u.push_back({out + q, q < pix ? base + r * l.sh * win + c * l.sw : base, 0});
  }
}

}  // namespace

support::Expected<int64_t> choosePoolRows(const PoolLayer& l, const hwspec::HwSpec& hw) {
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  for (int64_t rows = l.oh; rows >= 1; --rows)
    if (2 * halfRows(l, rows, hw.timing.accHazard) <= depth && 4 * std::max(rows * l.ow, hw.timing.accHazard) <= hw.depth(BufferKind::kUop))
      return rows;
  return support::error(support::Location::node(l.name, l.name),
                        "no legal tiling: the accumulator buffer needs " +
                            std::to_string(2 * halfRows(l, 1, hw.timing.accHazard)) + " entries for this layer (double-buffered) but has " +
                            std::to_string(depth));
}

Kernel lowerMaxPool(const PoolLayer& l, int64_t th, const hwspec::HwSpec& hw, uint64_t x, uint64_t y) {
  const int64_t hazard = hw.timing.accHazard, half = halfRows(l, th, hazard), cb = l.x.blocks();
  const int64_t full = l.oh / th, last = l.oh - full * th, tiles = full + (last > 0), total = l.x.n * cb * tiles;
  const int64_t win = (l.ow - 1) * l.sw + l.kw;
  const int64_t inE = isa::dramEntryBytes(hw, Buffer::kAcc8), outE = hw.entryBytes(BufferKind::kOutput);
  Kernel k;
  k.name = l.name;
  int64_t uopSet[2][2] = {};  // [last][acc half]
  for (int kind = 0; kind < 1 + (last > 0); ++kind)
    for (int as = 0; as < 2; ++as) {
      uopSet[kind][as] = static_cast<int64_t>(k.uops.size());
      pixelUops(k.uops, l, kind ? last : th, as * half, hazard);
    }
  k.body.push_back(Stmt::intrinsic(Opcode::kLoad, "the micro-op table")
                       .set("buffer", static_cast<int64_t>(Buffer::kUop))
                       .set("sram_base", 0)
                       .set("dram_base", 0)
                       .set("y_size", 1)
                       .set("x_size", static_cast<int64_t>(k.uops.size()))
                       .set("x_stride", static_cast<int64_t>(k.uops.size())));
  const int vn = k.newVar("n"), vb = k.newVar("cb");
  Stmt images = Stmt::loop(vn, l.x.n), blocks = Stmt::loop(vb, cb);
  auto tile = [&](std::vector<Stmt>& body, int kind, Expr t) {
    const int64_t rows = kind ? last : th, inRows = (rows - 1) * l.sh + l.kh, u = std::max(rows * l.ow, hazard);
    Term tt{0, {{vn, cb * tiles}, {vb, tiles}}, 0, 1};
    for (const Term& e : t.terms) {
      tt.constant += e.constant;
      tt.coeffs.insert(tt.coeffs.end(), e.coeffs.begin(), e.coeffs.end());
    }
    Expr tileE;
    tileE.terms = {tt};
    auto load = [&](Expr r, bool first) {  // input row r of the tile into accumulator rows
      const Expr row = Expr(l.x.top) + t * (th * l.sh) + r;
      Stmt ld = Stmt::intrinsic(Opcode::kLoad, first ? "input rows, sign-extended into accumulator rows" : "");
      ld.set("buffer", static_cast<int64_t>(Buffer::kAcc8))
          .set("sram_base", tileE.mod(2, half) + r * win)
          .set("dram_base", Expr(static_cast<int64_t>(x / inE) + l.x.left) + Expr::var(vn, l.x.rows() * cb * l.x.cols()) +
                                row * (cb * l.x.cols()) + Expr::var(vb, l.x.cols()))
          .set("y_size", 1)
          .set("x_size", win)
          .set("x_stride", win);
      if (first) ld.flag("pop_next", tileE, 2);
      return ld;
    };
    body.push_back(load(Expr(0), true));
    if (inRows > 1) {
      const int vr = k.newVar(kind ? "r_1" : "r");
      Stmt rowsLoop = Stmt::loop(vr, inRows - 1);
      rowsLoop.body.push_back(load(Expr::var(vr) + Expr(1), false));
      body.push_back(rowsLoop);
    }
    const Expr set = Expr(uopSet[kind][0]) + tileE.mod(2, uopSet[kind][1] - uopSet[kind][0]);
    body.push_back(Stmt::intrinsic(Opcode::kAlu, "each window's corner")
                       .set("uop_bgn", set).set("uop_end", set + Expr(u)).set("iter_out", 1).set("iter_in", 1)
                       .set("alu_op", static_cast<int64_t>(isa::AluOp::kMov)));
    body.push_back(Stmt::intrinsic(Opcode::kAlu, "the maximum over the window")
                       .set("uop_bgn", set).set("uop_end", set + Expr(u)).set("iter_out", l.kh).set("iter_in", l.kw)
                       .set("src_factor_out", win).set("src_factor_in", 1)
                       .set("alu_op", static_cast<int64_t>(isa::AluOp::kMax))
                       .flag("push_next"));
    body.push_back(Stmt::intrinsic(Opcode::kStore, "the tile's output rows")
                       .set("buffer", static_cast<int64_t>(Buffer::kOut))
                       .set("sram_base", tileE.mod(2, half) + Expr(inRows * win))
                       .set("dram_base", Expr(static_cast<int64_t>(y / outE) + l.y.left) +
                                             Expr::var(vn, l.y.rows() * cb * l.y.cols()) +
                                             (Expr(l.y.top) + t * th) * (cb * l.y.cols()) + Expr::var(vb, l.y.cols()))
                       .set("y_size", rows).set("x_size", l.ow).set("x_stride", cb * l.y.cols())
                       .flag("pop_prev")
                       .flag("push_prev", tileE, INT64_MIN, total - 2));
  };
  if (full > 0) {
    const int vt = k.newVar("t");
    Stmt rows = Stmt::loop(vt, full);
    tile(rows.body, 0, Expr::var(vt));
    blocks.body.push_back(rows);
  }
  if (last) tile(blocks.body, 1, Expr(full));
  images.body.push_back(blocks);
  k.body.push_back(images);
  k.body.push_back(Stmt::intrinsic(Opcode::kFinish, ""));
  return k;
}

}  // namespace accelc::compiler::lower
