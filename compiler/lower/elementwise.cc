// compiler/lower/elementwise.cc — QClip, QHardSigmoid, QHardSwish and QMul tiles on the ALU.
//
// Why every step equals runtime/kernels/qelementwise.cc (isa/arith.h):
// - x - zero_x (ALU add, saturating) lies in [-255, 255] and ·2^8 (`shr` by
//   -8, saturating) in [-65280, 65280]: neither saturates, so both equal the
//   kernel's exact int32 arithmetic. mulq, shrr and the offsets' and zero
//   point's +sat are the same functions as the kernel's (ALU add is addSat).
// - hard-swish's d·h: |d| <= 255 and 0 <= h <= one_h <= 2^23, so |d·h| < 2^31
//   and `mul`'s wrapping never happens; QMul's (a - za)·(b - zb) is at most
//   255·255 in magnitude. The kernel computes both in int32 too.
// - The clamp: `max` by L = clamp(lo, -128, 127), then `min` by H =
//   min(hi, 127), then the ALU's saturating narrowing to int8, equals the
//   kernel's clampInt8 for every hi >= -128 (eltwiseSupported refuses the
//   rest, where the kernel's int8 cast would wrap); a `max` by -128 or a `min`
//   by 127 is left out, as the narrowing does it.
#include "compiler/lower/elementwise.h"

#include <algorithm>
#include <cstring>

#include "compiler/lower/row_tiles.h"
#include "isa/semantics.h"
#include "runtime/ops.h"

namespace accelc::compiler::lower {

using hwspec::BufferKind;
using isa::AluOp;
using isa::Buffer;
using isa::Opcode;

namespace {

/// The row groups of one accumulator half: the tile's x rows (one per
/// pixel), the second group (hard-swish's h or a same-shape b: one row per
/// pixel; a gate's or a constant's b: one row), and the parameter rows.
enum class Group { kX, kSecond, kParam };

/// One ALU pass over the tile: dst op= (imm or src).
struct Pass {
  AluOp op;
  Group dst;
  bool useImm;
  int64_t imm;  ///< the immediate, or the parameter row when src is kParam
  Group src;    ///< the source group when !useImm
  const char* what;
};

/// The steps of one layer, independent of tiling.
struct Plan {
  int64_t second = 0;           ///< rows of the second group: 0, 1 or -1 (one per pixel)
  std::vector<int64_t> params;  ///< per-tensor parameter rows (every lane one value)
  std::vector<Pass> passes;     ///< in order
  /// dst op= immediate.
  void imm(AluOp op, Group dst, int64_t v, const char* what) { passes.push_back({op, dst, true, v, Group::kX, what}); }
  /// dst op= a new parameter row holding v.
  void row(AluOp op, Group dst, int64_t v, const char* what) {
    passes.push_back({op, dst, false, static_cast<int64_t>(params.size()), Group::kParam, what});
    params.push_back(v);
  }
  /// dst op= src group (row by row).
  void rows(AluOp op, Group dst, Group src, const char* what) { passes.push_back({op, dst, false, 0, src, what}); }
  /// shrr, + zero point, the clamp of the kernels' finish().
  void finish(int64_t shift, int64_t zp, int64_t lo, int64_t hi) {
    if (shift) imm(AluOp::kShrr, Group::kX, shift, "shift right, rounding");
    if (zp) imm(AluOp::kAdd, Group::kX, zp, "output zero point");
    const int64_t l = std::clamp<int64_t>(lo, -128, 127), h = std::min<int64_t>(hi, 127);
    if (l > -128) imm(AluOp::kMax, Group::kX, l, "clamp below");
    if (h < 127) imm(AluOp::kMin, Group::kX, h, "clamp above");
  }
};

/// x - zero_x, ·2^8, mulq by mult, +sat offset: the rescale both hard-sigmoid forms share, on group g.
void rescale(Plan& p, Group g, int64_t mult, int64_t offset) {
  p.imm(AluOp::kShr, g, -8, "x 2^8 (shift left)");
  p.row(AluOp::kMulq, g, mult, "x mult");
  if (offset) p.row(AluOp::kAdd, g, offset, "+ offset (saturating)");
}

Plan planOf(const runtime::QRescaleAttrs& q) {
  Plan p;
  if (q.zeroX) p.imm(AluOp::kAdd, Group::kX, -q.zeroX, "x - zero_x");
  rescale(p, Group::kX, q.mult, q.offset);
  p.finish(q.shift, q.zeroPoint, q.lo, q.hi);
  return p;
}

Plan planOf(const runtime::QHardSwishAttrs& q) {
  Plan p;
  p.second = -1;
  if (q.zeroX) p.imm(AluOp::kAdd, Group::kX, -q.zeroX, "d = x - zero_x");
  p.rows(AluOp::kMov, Group::kSecond, Group::kX, "h = d");
  rescale(p, Group::kSecond, q.multH, q.offsetH);
  if (q.shiftH) p.imm(AluOp::kShrr, Group::kSecond, q.shiftH, "h: shift right, rounding");
  p.imm(AluOp::kMax, Group::kSecond, 0, "h: clamp below at 0");
  p.row(AluOp::kMin, Group::kSecond, q.oneH, "h: clamp above at one_h");
  p.rows(AluOp::kMul, Group::kX, Group::kSecond, "d x h");
  p.row(AluOp::kMulq, Group::kX, q.mult, "x mult");
  p.finish(q.shift, q.zeroPoint, q.lo, q.hi);
  return p;
}

Plan planOf(const runtime::QMulAttrs& q, MulOperand b) {
  Plan p;
  p.second = b == MulOperand::kSame ? -1 : 1;
  if (q.zeroA) p.imm(AluOp::kAdd, Group::kX, -q.zeroA, "a - zero_a");
  // A constant b's rows hold b - zero_b already (packEltwiseParams).
  if (q.zeroB && b != MulOperand::kConstant) p.imm(AluOp::kAdd, Group::kSecond, -q.zeroB, "b - zero_b");
  p.rows(AluOp::kMul, Group::kX, Group::kSecond, "(a - zero_a) x (b - zero_b)");
  p.row(AluOp::kMulq, Group::kX, q.mult, "x mult");
  p.finish(q.shift, q.zeroPoint, q.lo, q.hi);
  return p;
}

Plan planOf(const EltwiseLayer& l) {
  return std::visit(
      [&](const auto& q) {
        if constexpr (std::is_same_v<std::decay_t<decltype(q)>, runtime::QMulAttrs>)
          return planOf(q, l.operand);
        else
          return planOf(q);
      },
      l.attrs);
}

/// Rows of each accumulator half for tiles of `rows` image rows.
struct HalfLayout {
  int64_t tw, second, params, half;  ///< pixels, second-group rows, parameter rows, the half's rows
  HalfLayout(const Plan& p, int64_t rows, int64_t w)
      : tw(rows * w),
        second(p.second < 0 ? rows * w : p.second),
        params(static_cast<int64_t>(p.params.size())),
        half(tw + second + params) {}
  int64_t at(Group g) const { return g == Group::kX ? 0 : g == Group::kSecond ? tw : tw + second; }
};

bool perPixel(const Plan& p, Group g) { return g == Group::kX || (g == Group::kSecond && p.second < 0); }

support::Status fail(const EltwiseLayer& l, const std::string& what) {
  return support::error(support::Location::node(l.name, l.name), what);
}

support::Status inRange(const EltwiseLayer& l, const char* name, int64_t v, int64_t lo, int64_t hi) {
  if (v >= lo && v <= hi) return support::Status::ok();
  return fail(l, std::string("attribute ") + name + " is " + std::to_string(v) + "; expected a value in [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

/// The clamp's hi: below -128 the kernel's int8 cast wraps, which no ALU clamp reproduces.
support::Status checkClamp(const EltwiseLayer& l, int64_t hi) { return inRange(l, "hi", hi, -128, INT64_MAX); }

/// The attributes as the reference kernel checks them (runtime::attrsProblem), and the clamp.
template <typename A>
support::Status checkRanges(const EltwiseLayer& l, const A& q) {
  const std::string p = runtime::attrsProblem(q);
  return p.empty() ? checkClamp(l, q.hi) : fail(l, p);
}

support::Status checkAttrs(const EltwiseLayer& l, const runtime::QRescaleAttrs& q) { return checkRanges(l, q); }

support::Status checkAttrs(const EltwiseLayer& l, const runtime::QHardSwishAttrs& q) { return checkRanges(l, q); }

/// QMul's attributes and the shape of its b.
support::Status checkAttrs(const EltwiseLayer& l, const runtime::QMulAttrs& q) {
  ACCELC_TRY(checkRanges(l, q));
  const runtime::BlockedLayout &x = l.x, &b = l.b;
  switch (l.operand) {
    case MulOperand::kConstant:
      if (static_cast<int64_t>(l.constant.size()) == x.c) return support::Status::ok();
      return fail(l, "the constant b has " + std::to_string(l.constant.size()) + " values; expected one per channel (" +
                         std::to_string(x.c) + ")");
    case MulOperand::kGate:
      if (b.n == x.n && b.c == x.c && b.h == 1 && b.w == 1) return support::Status::ok();
      return fail(l, "b has shape [" + std::to_string(b.n) + ", " + std::to_string(b.c) + ", " + std::to_string(b.h) +
                         ", " + std::to_string(b.w) + "]; a gate must be [N, C, 1, 1] with a's N and C");
    case MulOperand::kSame:
      if (b.n == x.n && b.c == x.c && b.h == x.h && b.w == x.w) return support::Status::ok();
      return fail(l,
                  "b's shape differs from a's; only a per-channel constant, an [N, C, 1, 1] gate or a's own "
                  "shape run on the accelerator");
  }
  return support::Status::ok();
}

/// Layouts the tiles can read and write: one pixel of one channel block per entry.
support::Status checkLayouts(const EltwiseLayer& l, const hwspec::HwSpec& hw) {
  if (hw.batch != 1)
    return fail(l, "the elementwise lowering needs gemm.batch = 1 (one pixel per buffer entry); this core has " +
                       std::to_string(hw.batch));
  const bool usesB = std::holds_alternative<runtime::QMulAttrs>(l.attrs) && l.operand != MulOperand::kConstant;
  for (const runtime::BlockedLayout* t : {&l.x, &l.y, usesB ? &l.b : &l.x})
    if (t->block != hw.blockOut)
      return fail(l, "a layout has " + std::to_string(t->block) +
                         " channels per entry; expected gemm.block_out = " + std::to_string(hw.blockOut));
  if (l.x.n != l.y.n || l.x.c != l.y.c || l.x.h != l.y.h || l.x.w != l.y.w)
    return fail(l, "the input and output shapes differ");
  // The ALU passes walk a tile's columns in their inner loop; the narrowest ISA's loop fields hold 255.
  if (l.x.w > 255)
    return fail(l, "images wider than 255 pixels are not supported; this one has " + std::to_string(l.x.w));
  return support::Status::ok();
}

}  // namespace

support::Status eltwiseSupported(const EltwiseLayer& l, const hwspec::HwSpec& hw) {
  ACCELC_TRY(checkLayouts(l, hw));
  ACCELC_TRY(std::visit([&](const auto& q) { return checkAttrs(l, q); }, l.attrs));
  for (const Pass& p : planOf(l).passes)
    if (!hw.hasAluOp(isa::aluOpName(p.op)))
      return fail(l, std::string("the ALU has no '") + isa::aluOpName(p.op) + "' (for " + p.what +
                         "); this layer needs it in the hwspec's alu.ops");
  return support::Status::ok();
}

support::Expected<int64_t> chooseEltwiseRows(const EltwiseLayer& l, const hwspec::HwSpec& hw) {
  ACCELC_TRY(eltwiseSupported(l, hw));
  const Plan p = planOf(l);
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  if (2 * static_cast<int64_t>(p.passes.size()) > hw.depth(BufferKind::kUop))
    return fail(l, "the micro-op buffer holds " + std::to_string(hw.depth(BufferKind::kUop)) +
                       " entries; this layer needs " + std::to_string(2 * p.passes.size()));
  if (l.x.h == 0 || l.x.w == 0) return int64_t{1};  // an empty tensor: no tiles
  for (int64_t rows = std::min<int64_t>(l.x.h, 255); rows >= 1; --rows)
    if (2 * HalfLayout(p, rows, l.x.w).half <= depth) return rows;
  return fail(l, "no legal tiling: the accumulator buffer needs " + std::to_string(2 * HalfLayout(p, 1, l.x.w).half) +
                     " entries for this layer (double-buffered) but has " + std::to_string(depth));
}

std::vector<uint8_t> packEltwiseParams(const EltwiseLayer& l, const hwspec::HwSpec& hw) {
  const int64_t lanes = hw.batch * hw.blockOut;
  std::vector<int32_t> rows;
  for (int64_t v : planOf(l).params) rows.insert(rows.end(), static_cast<size_t>(lanes), static_cast<int32_t>(v));
  if (const auto* q = std::get_if<runtime::QMulAttrs>(&l.attrs); q && l.operand == MulOperand::kConstant)
    for (int64_t cb = 0; cb < l.x.blocks(); ++cb)
      for (int64_t k = 0; k < lanes; ++k) {
        const int64_t ch = cb * hw.blockOut + k;
        rows.push_back(ch < l.x.c ? static_cast<int32_t>(l.constant[static_cast<size_t>(ch)] - q->zeroB) : 0);
      }
  std::vector<uint8_t> out(rows.size() * 4);
  std::memcpy(out.data(), rows.data(), out.size());
  return out;
}

namespace {

/// One micro-op per pass and accumulator half: pass i of half h is uop h·passes + i.
void addUops(Kernel& k, const Plan& p, const HalfLayout& hl) {
  for (int64_t as = 0; as < 2; ++as)
    for (const Pass& s : p.passes) {
      const int64_t base = as * hl.half, src = s.useImm ? 0 : hl.at(s.src) + (s.src == Group::kParam ? s.imm : 0);
      k.uops.push_back({base + hl.at(s.dst), s.useImm ? base + hl.at(s.dst) : base + src, 0});
    }
}

/// The per-tensor parameter rows into both halves, after each half's other rows: the tiles never write them.
void loadParams(Kernel& k, const HalfLayout& hl, const hwspec::HwSpec& hw, uint64_t params) {
  if (hl.params == 0) return;
  const int64_t accE = hw.entryBytes(BufferKind::kAcc);
  for (int64_t as = 0; as < 2; ++as)
    k.body.push_back(Stmt::intrinsic(Opcode::kLoad, as ? "" : "the parameter rows, into both halves")
                         .set("buffer", static_cast<int64_t>(Buffer::kAcc))
                         .set("sram_base", as * hl.half + hl.at(Group::kParam))
                         .set("dram_base", static_cast<int64_t>(params / static_cast<uint64_t>(accE)))
                         .set("y_size", 1)
                         .set("x_size", hl.params)
                         .set("x_stride", hl.params));
}

/// A LOAD of one entry into the second group's row.
Stmt loadOne(Buffer buffer, const Expr& sram, const Expr& dram, const char* what) {
  return Stmt::intrinsic(Opcode::kLoad, what)
      .set("buffer", static_cast<int64_t>(buffer))
      .set("sram_base", sram)
      .set("dram_base", dram)
      .set("y_size", 1)
      .set("x_size", 1)
      .set("x_stride", 1);
}

/// The tile's operand loads: x's rows, then b's (same shape), its gate entry or its constant's row.
void loadOperands(std::vector<Stmt>& body, const EltwiseLayer& l, const RowTiles& rt, const HalfLayout& hl,
                  const hwspec::HwSpec& hw, const Expr& base, const Expr& t, int64_t rows, uint64_t x, uint64_t b,
                  uint64_t params) {
  const int64_t inE = isa::dramEntryBytes(hw, Buffer::kAcc8), accE = hw.entryBytes(BufferKind::kAcc);
  const int64_t w = l.x.w;
  body.push_back(rt.load(l.x, x, inE, Buffer::kAcc8, base, t, rows, w, "x's rows, sign-extended into accumulator rows")
                     .flag("pop_next", rt.counter(t), 2));
  if (!std::holds_alternative<runtime::QMulAttrs>(l.attrs)) return;
  const Expr second = base + Expr(hl.tw);
  const runtime::BlockedLayout& g = l.b;
  switch (l.operand) {
    case MulOperand::kSame:
      body.push_back(rt.load(g, b, inE, Buffer::kAcc8, second, t, rows, w, "b's rows"));
      return;
    case MulOperand::kGate:
      body.push_back(loadOne(Buffer::kAcc8, second,
                             Expr(static_cast<int64_t>(b / static_cast<uint64_t>(inE)) + g.entry(0, g.top, 0, g.left)) +
                                 Expr::var(rt.vn(), g.rows() * g.rowBlocks() * g.cols()) + Expr::var(rt.vb(), g.cols()),
                             "the gate of this image and channel block"));
      return;
    case MulOperand::kConstant:
      body.push_back(
          loadOne(Buffer::kAcc, second,
                  Expr(static_cast<int64_t>(params / static_cast<uint64_t>(accE)) + hl.params) + Expr::var(rt.vb()),
                  "b - zero_b of this channel block"));
      return;
  }
}

/// The ALU instruction of pass `i` over a tile of `rows` rows whose uops start at `s0`.
Stmt aluPass(const Plan& p, size_t i, const Expr& s0, int64_t rows, int64_t w) {
  const Pass& s = p.passes[i];
  const Expr at = s0 + Expr(static_cast<int64_t>(i));
  Stmt a = Stmt::intrinsic(Opcode::kAlu, s.what);
  a.set("uop_bgn", at).set("uop_end", at + Expr(1));
  if (perPixel(p, s.dst)) {  // the tile's rows, then its columns
    a.set("iter_out", rows).set("iter_in", w).set("dst_factor_out", w).set("dst_factor_in", 1);
    if (!s.useImm && perPixel(p, s.src)) a.set("src_factor_out", w).set("src_factor_in", 1);
  } else {
    a.set("iter_out", 1).set("iter_in", 1);
  }
  a.set("alu_op", static_cast<int64_t>(s.op));
  if (s.useImm) a.set("use_imm", 1).set("imm", s.imm);
  return a;
}

}  // namespace

Kernel lowerEltwise(const EltwiseLayer& l, int64_t th, const hwspec::HwSpec& hw, uint64_t x, uint64_t b, uint64_t y,
                    uint64_t params) {
  const Plan p = planOf(l);
  const HalfLayout hl(p, th, l.x.w);
  const int64_t w = l.x.w, outE = hw.entryBytes(BufferKind::kOutput), n = static_cast<int64_t>(p.passes.size());
  Kernel k;
  k.name = l.name;
  addUops(k, p, hl);
  k.body.push_back(uopTableLoad(static_cast<int64_t>(k.uops.size())));
  loadParams(k, hl, hw, params);
  const RowTiles rt(k, l.x.n, l.x.blocks(), l.x.h, th);
  rt.emit(k, [&](std::vector<Stmt>& body, int kind, const Expr& t) {
    const int64_t rows = kind ? rt.last() : th;
    const Expr tileE = rt.counter(t), base = tileE.mod(2, hl.half);
    loadOperands(body, l, rt, hl, hw, base, t, rows, x, b, params);
    const Expr s0 = tileE.mod(2, n);
    for (size_t i = 0; i < p.passes.size(); ++i) body.push_back(aluPass(p, i, s0, rows, w));
    body.back().flag("push_next");
    body.push_back(rt.store(l.y, y, outE, base, t, rows, w));
  });
  return k;
}

}  // namespace accelc::compiler::lower
