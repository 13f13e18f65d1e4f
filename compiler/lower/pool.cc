// compiler/lower/pool.cc — MaxPool tiles on the ALU.
#include "compiler/lower/pool.h"

#include <algorithm>
#include <cstring>

#include "compiler/lower/row_tiles.h"
#include "isa/semantics.h"

namespace accelc::compiler::lower {

using hwspec::BufferKind;
using isa::Buffer;
using isa::Opcode;

namespace {

/// How a MaxPool window splits into a column pass and a row pass. Each
/// window's row `j` is its own (no other window of the tile reads it): the
/// column pass folds the window's other rows, `count` of them from row `i0`
/// every `step` rows, into row j in place; the row pass then moves each
/// window's first column of row j into the output row and folds in the next
/// kw - 1 columns. `ok` is false when no such row j exists (windows
/// overlapping by more than half) or the other rows are not evenly spaced.
struct Separable {
  bool ok = false;
  int64_t j = 0, i0 = 0, step = 1, count = 0;
};

Separable separable(const PoolLayer& l) {
  Separable s;
  if (l.average) return s;
  for (int64_t j = std::max<int64_t>(0, l.kh - l.sh); j < std::min(l.kh, l.sh) && !s.ok; ++j) {
    std::vector<int64_t> rest;
    for (int64_t i = 0; i < l.kh; ++i)
      if (i != j) rest.push_back(i);
    bool even = true;
    for (size_t r = 2; r < rest.size(); ++r) even = even && rest[r] - rest[r - 1] == rest[1] - rest[0];
    if (!even) continue;
    s = {true, j, rest.empty() ? 0 : rest[0], rest.size() > 1 ? rest[1] - rest[0] : 1, static_cast<int64_t>(rest.size())};
  }
  return s;
}

/// Accumulator rows one half needs for `rows` output rows: the input window
/// rows, the output rows (padded to the hazard distance), and for an average
/// the multiplier row.
int64_t halfRows(const PoolLayer& l, int64_t rows, int64_t hazard) {
  const int64_t win = (l.ow - 1) * l.sw + l.kw, inRows = (rows - 1) * l.sh + l.kh;
  return inRows * win + std::max(rows * l.ow, hazard) + (l.average ? 1 : 0);
}

/// Micro-ops of one tile kind and accumulator half.
int64_t uopCount(const PoolLayer& l, int64_t rows, int64_t hazard) {
  const int64_t win = (l.ow - 1) * l.sw + l.kw, n = std::max(rows * l.ow, hazard);
  if (separable(l).ok) return std::max(rows * win, hazard) + 2 * n;
  return (l.average ? 3 : 1) * n;
}

/// Micro-ops of one tile kind and accumulator half, in the sets the ALU
/// instructions walk: separable max: the column pass (dst = row j of each
/// window, src = row i0), then per output pixel src = its window's first and
/// second column of row j; otherwise per output pixel src = its window's
/// corner, and for an average src = itself and src = the multiplier row.
/// Padding up to the hazard distance writes output rows past the tile's.
void pixelUops(std::vector<isa::Uop>& u, const PoolLayer& l, int64_t rows, int64_t base, int64_t half, int64_t hazard) {
  const int64_t win = (l.ow - 1) * l.sw + l.kw, out = base + ((rows - 1) * l.sh + l.kh) * win;
  const int64_t pix = rows * l.ow, n = std::max(pix, hazard);
  const Separable sp = separable(l);
  if (sp.ok) {
    for (int64_t q = 0; q < std::max(rows * win, hazard); ++q) {
      const int64_t r = q / win, x = q % win;
      const int64_t pad = out + q - rows * win;  // onto itself: it reads no row the pass writes
      u.push_back(q < rows * win ? isa::Uop{base + (r * l.sh + sp.j) * win + x, base + (r * l.sh + sp.i0) * win + x, 0}
                                 : isa::Uop{pad, pad, 0});
    }
    for (int64_t first = 0; first < 2; ++first)
      for (int64_t q = 0; q < n; ++q) {
        const int64_t r = q / l.ow, c = q % l.ow;
        u.push_back({out + q, q < pix ? base + (r * l.sh + sp.j) * win + c * l.sw + first : base, 0});
      }
    return;
  }
  for (int64_t q = 0; q < n; ++q) {
    const int64_t r = q / l.ow, c = q % l.ow;
    u.push_back({out + q, q < pix ? base + r * l.sh * win + c * l.sw : base, 0});
  }
  if (!l.average) return;
  for (int64_t q = 0; q < n; ++q) u.push_back({out + q, out + q, 0});
  for (int64_t q = 0; q < n; ++q) u.push_back({out + q, base + half - 1, 0});
}

/// ALU over the output rows of a tile (`u` micro-ops per output pass,
/// `v` in the column pass) from micro-op set `set`. Separable: the column pass,
/// then mov of each window's first column and max over the next kw - 1;
/// otherwise mov of the corners and max over the whole window.
void aluMax(std::vector<Stmt>& body, const PoolLayer& l, const Expr& set, int64_t u, int64_t v, int64_t win) {
  auto alu = [&](const Expr& at, int64_t n, isa::AluOp op, const char* what) -> Stmt& {
    body.push_back(Stmt::intrinsic(Opcode::kAlu, what)
                       .set("uop_bgn", at).set("uop_end", at + Expr(n)).set("iter_out", 1).set("iter_in", 1)
                       .set("alu_op", static_cast<int64_t>(op)));
    return body.back();
  };
  const Separable sp = separable(l);
  const Expr outputs = sp.ok ? set + Expr(v) : set;  // a set whose destinations are the output pixels
  if (!sp.ok) {
    alu(set, u, isa::AluOp::kMov, "each window's corner");
    alu(set, u, isa::AluOp::kMax, "the maximum over the window")
        .set("iter_out", l.kh).set("iter_in", l.kw).set("src_factor_out", win).set("src_factor_in", 1);
  } else {
    if (sp.count > 0)
      alu(set, v, isa::AluOp::kMax, "the maximum over each window's rows, into its own row")
          .set("iter_out", sp.count)
          .set("src_factor_out", sp.step * win);
    alu(set + Expr(v), u, isa::AluOp::kMov, "each window's first column");
    if (l.kw > 1)
      alu(set + Expr(v + u), u, isa::AluOp::kMax, "the maximum over the window's columns")
          .set("iter_out", l.kw - 1)
          .set("src_factor_out", 1);
  }
  if (l.lo > -128)
    alu(outputs, u, isa::AluOp::kMax, "clamp below (the producer's ReLU)").set("use_imm", 1).set("imm", l.lo);
}

/// An average's ALU pass over micro-op set `which` (of `u` micro-ops each, from `set`): 0 sums the window,
/// 1 works on the sums alone (with an immediate), 2 multiplies them by the multiplier row.
Stmt& averagePass(std::vector<Stmt>& body, const Expr& set, int64_t u, int which, isa::AluOp op, const char* what) {
  const Expr at = set + Expr(which * u);
  body.push_back(Stmt::intrinsic(Opcode::kAlu, what)
                     .set("uop_bgn", at).set("uop_end", at + Expr(u)).set("iter_out", 1).set("iter_in", 1)
                     .set("alu_op", static_cast<int64_t>(op)));
  return body.back();
}

/// averagePass on the sums with immediate `v`.
void averageImm(std::vector<Stmt>& body, const Expr& set, int64_t u, isa::AluOp op, int64_t v, const char* what) {
  averagePass(body, set, u, 1, op, what).set("use_imm", 1).set("imm", v);
}

/// The end of an average, from the sums in set `set`'s destinations: x2^8, mulq, shrr, zero point, clamp.
void aluAverageTail(std::vector<Stmt>& body, const PoolLayer& l, const Expr& set, int64_t u) {
  const runtime::QPoolAttrs& q = l.avg;
  averageImm(body, set, u, isa::AluOp::kShr, -8, "x 2^8 (shift left, saturating)");
  averagePass(body, set, u, 2, isa::AluOp::kMulq, "x mult");
  averageImm(body, set, u, isa::AluOp::kShrr, q.shift, "shift right, rounding");
  if (q.zeroPoint) averageImm(body, set, u, isa::AluOp::kAdd, q.zeroPoint, "output zero point");
  if (q.lo > -128) averageImm(body, set, u, isa::AluOp::kMax, q.lo, "clamp below");
  if (q.hi < 127) averageImm(body, set, u, isa::AluOp::kMin, q.hi, "clamp above");
}

/// ALU of an average: start at -K·zero_x, add the window, x2^8, mulq, shrr, zero point, clamp.
void aluAverage(std::vector<Stmt>& body, const PoolLayer& l, const Expr& set, int64_t u, int64_t win) {
  averageImm(body, set, u, isa::AluOp::kMov, -l.kh * l.kw * l.avg.zeroX, "start at -window x zero_x");
  body.push_back(Stmt::intrinsic(Opcode::kAlu, "the sum over the window")
                     .set("uop_bgn", set).set("uop_end", set + Expr(u)).set("iter_out", l.kh).set("iter_in", l.kw)
                     .set("src_factor_out", win).set("src_factor_in", 1)
                     .set("alu_op", static_cast<int64_t>(isa::AluOp::kAdd)));
  aluAverageTail(body, l, set, u);
}

/// Input rows per chunk of a global average (one output pixel) whose window does not fit the accumulator
/// halves whole: the most that do, with the sum rows and the multiplier row; 0 when not even one row does.
int64_t averageChunkRows(const PoolLayer& l, const hwspec::HwSpec& hw) {
  if (!l.average || l.oh != 1 || l.ow != 1) return 0;
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  for (int64_t rows = l.kh; rows >= 1; --rows) {
    PoolLayer chunk = l;
    chunk.kh = rows;
    if (2 * halfRows(chunk, 1, hw.timing.accHazard) <= depth &&
        4 * uopCount(chunk, 1, hw.timing.accHazard) <= hw.depth(BufferKind::kUop))
      return rows;
  }
  return 0;
}

/// A global average whose window does not fit whole: per channel block, the sum row starts at -K·zero_x, each
/// chunk of `rows` input rows is loaded (LOAD acc8 runs on the compute unit, in order) and added into it, and
/// the requantization ends as aluAverage's. The saturating additions cannot saturate (the quantizer keeps
/// K·255·2^8 inside int32), so their order does not matter: the sums are the reference kernel's.
Kernel lowerChunkedAverage(const PoolLayer& l, int64_t rows, const hwspec::HwSpec& hw, uint64_t x, uint64_t y,
                           uint64_t params) {
  PoolLayer chunk = l;
  chunk.kh = rows;
  const int64_t hazard = hw.timing.accHazard, half = halfRows(chunk, 1, hazard), win = l.kw;
  const int64_t chunks = (l.kh + rows - 1) / rows, lastRows = l.kh - (chunks - 1) * rows;
  const int64_t u = std::max<int64_t>(1, hazard), inE = isa::dramEntryBytes(hw, Buffer::kAcc8);
  Kernel k;
  k.name = l.name;
  int64_t uopSet[2] = {};
  for (int as = 0; as < 2; ++as) {
    uopSet[as] = static_cast<int64_t>(k.uops.size());
    pixelUops(k.uops, chunk, 1, as * half, half, hazard);
  }
  k.body.push_back(uopTableLoad(static_cast<int64_t>(k.uops.size())));
  const RowTiles rt(k, l.x.n, l.x.blocks(), 1, 1);
  const int vn = rt.vn(), vb = rt.vb();
  rt.emit(k, [&](std::vector<Stmt>& body, int, const Expr& t) {
    const Expr tileE = rt.counter(t), base = tileE.mod(2, half);
    const Expr set = Expr(uopSet[0]) + tileE.mod(2, uopSet[1] - uopSet[0]);
    body.push_back(Stmt::intrinsic(Opcode::kLoad, "the multiplier row")
                       .set("buffer", static_cast<int64_t>(Buffer::kAcc))
                       .set("sram_base", base + Expr(half - 1))
                       .set("dram_base", static_cast<int64_t>(params / hw.entryBytes(BufferKind::kAcc)))
                       .set("y_size", 1).set("x_size", 1).set("x_stride", 1)
                       .flag("pop_next", tileE, 2));
    averageImm(body, set, u, isa::AluOp::kMov, -l.kh * l.kw * l.avg.zeroX, "start at -window x zero_x");
    for (int64_t c = 0; c < chunks; ++c) {  // unrolled: a chunk's rows are a constant offset
      const int64_t n = c + 1 < chunks ? rows : lastRows;
      body.push_back(Stmt::intrinsic(Opcode::kLoad, c ? "" : "a chunk of input rows, into accumulator rows")
                         .set("buffer", static_cast<int64_t>(Buffer::kAcc8))
                         .set("sram_base", base)
                         .set("dram_base", Expr(static_cast<int64_t>(x / inE) + l.x.left) +
                                               Expr::var(vn, l.x.rows() * l.x.rowBlocks() * l.x.cols()) +
                                               Expr((l.x.top + c * rows) * l.x.rowBlocks() * l.x.cols()) +
                                               Expr::var(vb, l.x.cols()))
                         .set("y_size", n)
                         .set("x_size", win)
                         .set("x_stride", l.x.rowBlocks() * l.x.cols()));
      averagePass(body, set, u, 0, isa::AluOp::kAdd, c ? "" : "the chunk's sum, added").set("iter_out", n).set("iter_in", l.kw)
          .set("src_factor_out", win).set("src_factor_in", 1);
    }
    aluAverageTail(body, l, set, u);
    body.back().flag("push_next");
    body.push_back(rt.store(l.y, y, hw.entryBytes(BufferKind::kOutput), base + Expr(rows * win), t, 1, 1));
  });
  return k;
}

}  // namespace

support::Status checkPoolRows(const PoolLayer& l, int64_t rows, const hwspec::HwSpec& hw) {
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  const int64_t hazard = hw.timing.accHazard;
  auto fail = [&](const std::string& what) {
    return support::error(support::Location::node(l.name, l.name),
                          std::to_string(rows) + "-row tiles do not fit: " + what);
  };
  if (rows < 1 || rows > l.oh) return fail("a tile has 1 to " + std::to_string(l.oh) + " output rows");
  if (2 * halfRows(l, rows, hazard) <= depth) {
    if (4 * uopCount(l, rows, hazard) <= hw.depth(BufferKind::kUop)) return support::Status::ok();
    return fail("the micro-op buffer needs " + std::to_string(4 * uopCount(l, rows, hazard)) + " entries but has " +
                std::to_string(hw.depth(BufferKind::kUop)));
  }
  if (rows == 1 && averageChunkRows(l, hw) > 0) return support::Status::ok();  // its window summed in chunks of rows
  return fail("the accumulator buffer needs " + std::to_string(2 * halfRows(l, rows, hazard)) +
              " entries (double-buffered) but has " + std::to_string(depth));
}

support::Expected<int64_t> choosePoolRows(const PoolLayer& l, const hwspec::HwSpec& hw) {
  for (int64_t rows = l.oh; rows >= 1; --rows)
    if (checkPoolRows(l, rows, hw)) return rows;
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  return support::error(support::Location::node(l.name, l.name),
                        "no legal tiling: the accumulator buffer needs " +
                            std::to_string(2 * halfRows(l, 1, hw.timing.accHazard)) + " entries for this layer (double-buffered) but has " +
                            std::to_string(depth));
}

std::vector<uint8_t> packPoolParams(const PoolLayer& l, const hwspec::HwSpec& hw) {
  std::vector<int32_t> row(static_cast<size_t>(hw.batch * hw.blockOut), static_cast<int32_t>(l.avg.mult));
  std::vector<uint8_t> out(row.size() * 4);
  std::memcpy(out.data(), row.data(), out.size());  // little-endian int32, as LOAD acc reads them
  return out;
}

Kernel lowerPool(const PoolLayer& l, int64_t th, const hwspec::HwSpec& hw, uint64_t x, uint64_t y, uint64_t params) {
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  if (l.average && l.oh == 1 && l.ow == 1 && 2 * halfRows(l, 1, hw.timing.accHazard) > depth)
    return lowerChunkedAverage(l, averageChunkRows(l, hw), hw, x, y, params);
  const int64_t hazard = hw.timing.accHazard, half = halfRows(l, th, hazard), cb = l.x.blocks();
  const int64_t full = l.oh / th, last = l.oh - full * th;
  const int64_t win = (l.ow - 1) * l.sw + l.kw;
  const int64_t inE = isa::dramEntryBytes(hw, Buffer::kAcc8), outE = hw.entryBytes(BufferKind::kOutput);
  Kernel k;
  k.name = l.name;
  int64_t uopSet[2][2] = {};  // [last][acc half]
  for (int kind = 0; kind < 1 + (last > 0); ++kind)
    for (int as = 0; as < 2; ++as) {
      uopSet[kind][as] = static_cast<int64_t>(k.uops.size());
      pixelUops(k.uops, l, kind ? last : th, as * half, half, hazard);
    }
  k.body.push_back(uopTableLoad(static_cast<int64_t>(k.uops.size())));
  const RowTiles rt(k, l.x.n, cb, l.oh, th);
  const int vn = rt.vn(), vb = rt.vb();
  rt.emit(k, [&](std::vector<Stmt>& body, int kind, const Expr& t) {
    const int64_t rows = kind ? last : th, inRows = (rows - 1) * l.sh + l.kh, u = std::max(rows * l.ow, hazard);
    const int64_t v = std::max(rows * win, hazard);  // the separable max's column pass
    const Expr tileE = rt.counter(t);
    // The tile's input rows into accumulator rows, one DMA row per image row.
    const Expr row = Expr(l.x.top - l.pt) + t * (th * l.sh);
    body.push_back(Stmt::intrinsic(Opcode::kLoad, "input rows, sign-extended into accumulator rows")
                       .set("buffer", static_cast<int64_t>(Buffer::kAcc8))
                       .set("sram_base", tileE.mod(2, half))
                       .set("dram_base", Expr(static_cast<int64_t>(x / inE) + l.x.left - l.pl) +
                                             Expr::var(vn, l.x.rows() * l.x.rowBlocks() * l.x.cols()) +
                                             row * (l.x.rowBlocks() * l.x.cols()) +
                                             Expr::var(vb, l.x.cols()))
                       .set("y_size", inRows)
                       .set("x_size", win)
                       .set("x_stride", l.x.rowBlocks() * l.x.cols())
                       .flag("pop_next", tileE, 2));
    const Expr set = Expr(uopSet[kind][0]) + tileE.mod(2, uopSet[kind][1] - uopSet[kind][0]);
    if (l.average) {
      body.push_back(Stmt::intrinsic(Opcode::kLoad, "the multiplier row")
                         .set("buffer", static_cast<int64_t>(Buffer::kAcc))
                         .set("sram_base", tileE.mod(2, half) + Expr(half - 1))
                         .set("dram_base", static_cast<int64_t>(params / hw.entryBytes(BufferKind::kAcc)))
                         .set("y_size", 1).set("x_size", 1).set("x_stride", 1));
      aluAverage(body, l, set, u, win);
    }
    else aluMax(body, l, set, u, v, win);
    body.back().flag("push_next");
    body.push_back(rt.store(l.y, y, outE, tileE.mod(2, half) + Expr(inRows * win), t, rows, l.ow));
  });
  return k;
}

}  // namespace accelc::compiler::lower
