// compiler/lower/add.cc — QAdd tiles on the ALU.
#include "compiler/lower/add.h"

#include <algorithm>
#include <cstring>

#include "compiler/lower/row_tiles.h"
#include "isa/semantics.h"

namespace accelc::compiler::lower {

using hwspec::BufferKind;
using isa::AluOp;
using isa::Buffer;
using isa::Opcode;

namespace {

/// Parameter rows at the end of each accumulator half: mult_a and mult_b
/// (ALU form), or -2·mult_a, -2·mult_b, 128·zero_a and 128·zero_b (GEMM form).
int64_t paramRows(bool gemm) { return gemm ? 4 : 2; }

/// Accumulator rows of one half: operand A's pixels, operand B's, the parameter rows.
int64_t halfRows(const AddLayer& l, int64_t rows, bool gemm) { return 2 * rows * l.y.w + paramRows(gemm); }

// ALU form: micro-op sets per (tile kind, acc half): A self, B self, A x mult_a, B x mult_b, A + B.
constexpr int kSets = 5;
// GEMM form: sets of th·w micro-ops per acc half (the shorter last tile uses
// their prefixes): A self, A x mult, B x mult, A + B, A + zero row, B + zero
// row, and the GEMM's (acc A <- inp A; its outer loop steps to B).
constexpr int kGemmSets = 7;

/// Bytes before the parameter rows in the GEMM form's parameters: the weight
/// block, rounded up to accumulator entries.
int64_t weightBlockBytes(const hwspec::HwSpec& hw) {
  const int64_t accE = hw.entryBytes(BufferKind::kAcc);
  return (hw.entryBytes(BufferKind::kWeight) + accE - 1) / accE * accE;
}

/// The parameter rows into both accumulator halves, after each half's
/// operand rows: they stay there, as the tiles never write them.
void loadParamRows(Kernel& k, const AddLayer& l, int64_t th, const hwspec::HwSpec& hw, uint64_t params, bool gemm) {
  const int64_t half = halfRows(l, th, gemm), n = paramRows(gemm), accE = hw.entryBytes(BufferKind::kAcc);
  const uint64_t at = params + static_cast<uint64_t>(gemm ? weightBlockBytes(hw) : 0);
  for (int64_t as = 0; as < 2; ++as)
    k.body.push_back(Stmt::intrinsic(Opcode::kLoad, as ? "" : "the parameter rows, into both halves")
                         .set("buffer", static_cast<int64_t>(Buffer::kAcc))
                         .set("sram_base", as * half + 2 * th * l.y.w)
                         .set("dram_base", static_cast<int64_t>(at / static_cast<uint64_t>(accE)))
                         .set("y_size", 1)
                         .set("x_size", n)
                         .set("x_stride", n));
}

}  // namespace

bool addOnGemm(const AddLayer& l, const hwspec::HwSpec& hw) {
  auto fits = [](int64_t m) { return m > -(int64_t{1} << 30) && m < (int64_t{1} << 30); };
  return hw.batch == 1 && hw.blockIn == hw.blockOut && fits(l.attrs.multA) && fits(l.attrs.multB);
}

support::Status checkAddRows(const AddLayer& l, int64_t rows, const hwspec::HwSpec& hw) {
  const bool gemm = addOnGemm(l, hw);
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput)), pix = rows * l.y.w;
  auto fail = [&](const std::string& what) {
    return support::error(support::Location::node(l.name, l.name),
                          std::to_string(rows) + "-row tiles do not fit: " + what);
  };
  if (rows < 1 || rows > l.y.h) return fail("a tile has 1 to " + std::to_string(l.y.h) + " rows");
  if (2 * halfRows(l, rows, gemm) > depth)
    return fail("the accumulator buffer needs " + std::to_string(2 * halfRows(l, rows, gemm)) +
                " entries (double-buffered) but has " + std::to_string(depth));
  if (gemm && 4 * pix > hw.depth(BufferKind::kInput)) return fail("the input buffer holds fewer than 4 tiles of pixels");
  const int64_t uops = gemm ? 2 * kGemmSets * pix : 4 * kSets * pix;
  if (uops > hw.depth(BufferKind::kUop))
    return fail("the micro-op buffer needs " + std::to_string(uops) + " entries but has " +
                std::to_string(hw.depth(BufferKind::kUop)));
  return support::Status::ok();
}

support::Expected<int64_t> chooseAddRows(const AddLayer& l, const hwspec::HwSpec& hw) {
  for (int64_t rows = l.y.h; rows >= 1; --rows)
    if (checkAddRows(l, rows, hw)) return rows;
  const bool gemm = addOnGemm(l, hw);
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  return support::error(support::Location::node(l.name, l.name),
                        "no legal tiling: the accumulator buffer needs " + std::to_string(2 * halfRows(l, 1, gemm)) +
                            " entries for this layer (double-buffered) but has " + std::to_string(depth));
}

std::vector<uint8_t> packAddParams(const AddLayer& l, const hwspec::HwSpec& hw) {
  const int64_t lanes = hw.batch * hw.blockOut;
  const auto& q = l.attrs;
  const bool gemm = addOnGemm(l, hw);
  std::vector<int64_t> values = {q.multA, q.multB};
  if (gemm) values = {-2 * q.multA, -2 * q.multB, 128 * q.zeroA, 128 * q.zeroB};
  std::vector<int32_t> rows;
  for (int64_t v : values) rows.insert(rows.end(), static_cast<size_t>(lanes), static_cast<int32_t>(v));
  const int64_t head = gemm ? weightBlockBytes(hw) : 0;
  std::vector<uint8_t> out(static_cast<size_t>(head) + rows.size() * 4, 0);
  // The weight block: -128 on the diagonal (w[o][i], o-major), so that a GEMM makes -128·x.
  for (int64_t o = 0; gemm && o < hw.blockOut; ++o) out[static_cast<size_t>(o * hw.blockIn + o)] = 0x80;
  std::memcpy(out.data() + head, rows.data(), rows.size() * 4);
  return out;
}

namespace {

/// The GEMM form (addOnGemm): per tile the load unit brings both operands'
/// rows into the input buffer; the compute unit zeroes the tile's
/// accumulator rows and accumulates each operand times -128 on the diagonal
/// (a GEMM with reset, then one without), adds 128·zero, and multiplies by
/// -2·mult: mulq(-128·(a - za), -2·Ma) = mulq((a - za)·2^8, Ma) exactly.
Kernel lowerAddOnGemm(const AddLayer& l, int64_t th, const hwspec::HwSpec& hw, uint64_t a, uint64_t b, uint64_t y,
                      uint64_t params) {
  const int64_t w = l.y.w, tw = th * w, half = halfRows(l, th, true), cb = l.y.blocks();
  const int64_t inE = hw.entryBytes(BufferKind::kInput), outE = hw.entryBytes(BufferKind::kOutput);
  const int64_t wgtE = hw.entryBytes(BufferKind::kWeight);
  Kernel k;
  k.name = l.name;
  // A set is one micro-op whose pixels the instruction's loops walk, or one per pixel.
  const int64_t per = l.loops ? 1 : tw;
  // Sets whose source steps with the pixel (the others read a parameter row).
  auto perPixel = [](int s) { return s == 0 || s == 3 || s == 6; };
  int64_t set[2] = {};  // [acc half] -> first of its kGemmSets sets
  for (int as = 0; as < 2; ++as) {
    set[as] = static_cast<int64_t>(k.uops.size());
    const int64_t ra = as * half, rb = ra + tw, pr = ra + 2 * tw, ia = as * 2 * tw;
    const int64_t sets[kGemmSets][2] = {{ra, ra},     {ra, pr},     {rb, pr + 1}, {ra, rb},
                                        {ra, pr + 2}, {rb, pr + 3}, {ra, ia}};
    for (int s = 0; s < kGemmSets; ++s)
      for (int64_t q = 0; q < per; ++q) k.uops.push_back({sets[s][0] + q, sets[s][1] + (perPixel(s) ? q : 0), 0});
  }
  k.body.push_back(uopTableLoad(static_cast<int64_t>(k.uops.size())));
  k.body.push_back(Stmt::intrinsic(Opcode::kLoad, "-128 on the diagonal: the weight block")
                       .set("buffer", static_cast<int64_t>(Buffer::kWgt))
                       .set("sram_base", 0)
                       .set("dram_base", static_cast<int64_t>(params / wgtE))
                       .set("y_size", 1)
                       .set("x_size", 1)
                       .set("x_stride", 1));
  loadParamRows(k, l, th, hw, params, true);
  const RowTiles rt(k, l.y.n, cb, l.y.h, th);
  const int64_t total = l.y.n * cb * (rt.full() + (rt.last() > 0));
  rt.emit(k, [&](std::vector<Stmt>& body, int kind, const Expr& t) {
    const int64_t rows = kind ? rt.last() : th, pix = rows * w;
    const Expr tileE = rt.counter(t);
    // Both operands' rows of the tile into the input buffer half; the first load waits for the compute unit.
    const Expr in = tileE.mod(2, 2 * tw);
    body.push_back(rt.load(l.a, a, inE, Buffer::kInp, in, t, rows, w, "both operands' rows into the input buffer")
                       .flag("pop_next", tileE, 2));
    body.push_back(rt.load(l.b, b, inE, Buffer::kInp, in + Expr(tw), t, rows, w, "").flag("push_next"));
    const Expr s0 = Expr(set[0]) + tileE.mod(2, set[1] - set[0]);
    auto gemm = [&](bool reset, const char* what) {
      const Expr at = s0 + Expr(6 * per);
      Stmt g = Stmt::intrinsic(Opcode::kGemm, what);
      g.set("uop_bgn", at)
          .set("uop_end", at + Expr(l.loops ? 1 : pix))
          .set("iter_out", 2)
          .set("iter_in", l.loops ? pix : 1)
          .set("dst_factor_out", tw)
          .set("src_factor_out", tw);
      if (l.loops) g.set("dst_factor_in", 1).set("src_factor_in", 1);
      if (reset) g.set("reset", 1);
      return g;
    };
    body.push_back(gemm(true, "zero the tile's rows of A and B").flag("pop_next", tileE, 2));
    body.push_back(
        gemm(false, "A, B = -128·a, -128·b").flag("pop_prev").flag("push_prev", tileE, INT64_MIN, total - 2));
    auto alu = [&](int which, AluOp op, const char* what) {
      const Expr at = s0 + Expr(which * per);
      Stmt a = Stmt::intrinsic(Opcode::kAlu, what);
      if (l.loops) {  // the tile's rows, then its columns
        a.set("uop_bgn", at)
            .set("uop_end", at + Expr(1))
            .set("iter_out", rows)
            .set("iter_in", w)
            .set("dst_factor_out", w)
            .set("dst_factor_in", 1);
        if (perPixel(which)) a.set("src_factor_out", w).set("src_factor_in", 1);
      } else {
        a.set("uop_bgn", at).set("uop_end", at + Expr(pix)).set("iter_out", 1).set("iter_in", 1);
      }
      body.push_back(a.set("alu_op", static_cast<int64_t>(op)));
      return &body.back();
    };
    const auto& q = l.attrs;
    if (q.zeroA) alu(4, AluOp::kAdd, "-128·(a - zero_a)");
    if (q.zeroB) alu(5, AluOp::kAdd, "-128·(b - zero_b)");
    alu(1, AluOp::kMulq, "a x mult_a");
    alu(2, AluOp::kMulq, "b x mult_b");
    alu(3, AluOp::kAdd, "a + b");
    auto imm = [&](AluOp op, int64_t v, const char* what) { alu(0, op, what)->set("use_imm", 1).set("imm", v); };
    imm(AluOp::kShrr, q.shift, "shift right, rounding");
    if (q.zeroPoint) imm(AluOp::kAdd, q.zeroPoint, "output zero point");
    if (q.lo > -128) imm(AluOp::kMax, q.lo, "clamp below (ReLU)");
    if (q.hi < 127) imm(AluOp::kMin, q.hi, "clamp above");
    body.back().flag("push_next");
    body.push_back(rt.store(l.y, y, outE, tileE.mod(2, half), t, rows, w));
  });
  return k;
}

}  // namespace

Kernel lowerAdd(const AddLayer& l, int64_t th, const hwspec::HwSpec& hw, uint64_t a, uint64_t b, uint64_t y,
                uint64_t params) {
  if (addOnGemm(l, hw)) return lowerAddOnGemm(l, th, hw, a, b, y, params);
  const int64_t w = l.y.w, half = halfRows(l, th, false), cb = l.y.blocks();
  const int64_t full = l.y.h / th, last = l.y.h - full * th;
  const int64_t inE = isa::dramEntryBytes(hw, Buffer::kAcc8), outE = hw.entryBytes(BufferKind::kOutput);
  Kernel k;
  k.name = l.name;
  int64_t set[2][2] = {};  // [last][acc half] -> first of its kSets sets
  for (int kind = 0; kind < 1 + (last > 0); ++kind)
    for (int as = 0; as < 2; ++as) {
      set[kind][as] = static_cast<int64_t>(k.uops.size());
      const int64_t pix = (kind ? last : th) * w, base = as * half, ra = base, rb = base + th * w;
      const int64_t params2[kSets][2] = {{ra, ra}, {rb, rb}, {ra, base + half - 2}, {rb, base + half - 1}, {ra, rb}};
      for (const auto& [dst, src] : params2)
        for (int64_t q = 0; q < pix; ++q)
          k.uops.push_back({dst + q, src + ((src == dst || (src == rb && dst == ra)) ? q : 0), 0});
    }
  k.body.push_back(uopTableLoad(static_cast<int64_t>(k.uops.size())));
  loadParamRows(k, l, th, hw, params, false);
  const RowTiles rt(k, l.y.n, cb, l.y.h, th);
  rt.emit(k, [&](std::vector<Stmt>& body, int kind, const Expr& t) {
    const int64_t rows = kind ? last : th, pix = rows * w;
    const Expr tileE = rt.counter(t);
    const Expr base = tileE.mod(2, half);
    // Both operands' rows of the tile into accumulator rows; the first load waits for the store unit.
    body.push_back(
        rt.load(l.a, a, inE, Buffer::kAcc8, base, t, rows, w, "operand rows, sign-extended into accumulator rows")
            .flag("pop_next", tileE, 2));
    body.push_back(rt.load(l.b, b, inE, Buffer::kAcc8, base + Expr(th * w), t, rows, w, ""));
    const Expr s0 = Expr(set[kind][0]) + tileE.mod(2, set[kind][1] - set[kind][0]);
    auto alu = [&](int which, AluOp op, const char* what) {
      const Expr at = s0 + Expr(which * pix);
      body.push_back(Stmt::intrinsic(Opcode::kAlu, what)
                         .set("uop_bgn", at).set("uop_end", at + Expr(pix)).set("iter_out", 1).set("iter_in", 1)
                         .set("alu_op", static_cast<int64_t>(op)));
      return &body.back();
    };
    auto imm = [&](int which, AluOp op, int64_t v, const char* what) {
      alu(which, op, what)->set("use_imm", 1).set("imm", v);
    };
    const auto& q = l.attrs;
    if (q.zeroA) imm(0, AluOp::kAdd, -q.zeroA, "a - zero_a");
    if (q.zeroB) imm(1, AluOp::kAdd, -q.zeroB, "b - zero_b");
    imm(0, AluOp::kShr, -8, "a x 2^8 (shift left)");
    imm(1, AluOp::kShr, -8, "b x 2^8 (shift left)");
    alu(2, AluOp::kMulq, "a x mult_a");
    alu(3, AluOp::kMulq, "b x mult_b");
    alu(4, AluOp::kAdd, "a + b");
    imm(0, AluOp::kShrr, q.shift, "shift right, rounding");
    if (q.zeroPoint) imm(0, AluOp::kAdd, q.zeroPoint, "output zero point");
    if (q.lo > -128) imm(0, AluOp::kMax, q.lo, "clamp below (ReLU)");
    if (q.hi < 127) imm(0, AluOp::kMin, q.hi, "clamp above");
    body.back().flag("push_next");
    body.push_back(rt.store(l.y, y, outE, base, t, rows, w));
  });
  return k;
}

}  // namespace accelc::compiler::lower
