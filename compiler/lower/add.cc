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

/// Accumulator rows of one half: operand A's pixels, operand B's, the two multiplier rows.
int64_t halfRows(const AddLayer& l, int64_t rows) { return 2 * rows * l.y.w + 2; }

// Micro-op sets per (tile kind, acc half): A self, B self, A x mult_a, B x mult_b, A + B.
constexpr int kSets = 5;

}  // namespace

support::Expected<int64_t> chooseAddRows(const AddLayer& l, const hwspec::HwSpec& hw) {
  const int64_t depth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  for (int64_t rows = l.y.h; rows >= 1; --rows)
    if (2 * halfRows(l, rows) <= depth && 4 * kSets * rows * l.y.w <= hw.depth(BufferKind::kUop)) return rows;
  return support::error(support::Location::node(l.name, l.name),
                        "no legal tiling: the accumulator buffer needs " + std::to_string(2 * halfRows(l, 1)) +
                            " entries for this layer (double-buffered) but has " + std::to_string(depth));
}

std::vector<uint8_t> packAddParams(const AddLayer& l, const hwspec::HwSpec& hw) {
  const int64_t lanes = hw.batch * hw.blockOut;
  std::vector<int32_t> rows(static_cast<size_t>(2 * lanes));
  std::fill(rows.begin(), rows.begin() + lanes, static_cast<int32_t>(l.attrs.multA));
  std::fill(rows.begin() + lanes, rows.end(), static_cast<int32_t>(l.attrs.multB));
  std::vector<uint8_t> out(rows.size() * 4);
  std::memcpy(out.data(), rows.data(), out.size());
  return out;
}

Kernel lowerAdd(const AddLayer& l, int64_t th, const hwspec::HwSpec& hw, uint64_t a, uint64_t b, uint64_t y,
                uint64_t params) {
  const int64_t w = l.y.w, half = halfRows(l, th), cb = l.y.blocks();
  const int64_t full = l.y.h / th, last = l.y.h - full * th;
  const int64_t inE = isa::dramEntryBytes(hw, Buffer::kAcc8), outE = hw.entryBytes(BufferKind::kOutput);
  const int64_t accE = hw.entryBytes(BufferKind::kAcc);
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
  for (int64_t as = 0; as < 2; ++as)  // the multiplier rows stay in both halves: the tiles never write them
    k.body.push_back(Stmt::intrinsic(Opcode::kLoad, as ? "" : "the multiplier rows, into both halves")
                         .set("buffer", static_cast<int64_t>(Buffer::kAcc))
                         .set("sram_base", as * half + half - 2)
                         .set("dram_base", static_cast<int64_t>(params / accE))
                         .set("y_size", 1).set("x_size", 2).set("x_stride", 2));
  const RowTiles rt(k, l.y.n, cb, l.y.h, th);
  const int vn = rt.vn(), vb = rt.vb();
  rt.emit(k, [&](std::vector<Stmt>& body, int kind, const Expr& t) {
    const int64_t rows = kind ? last : th, pix = rows * w;
    const Expr tileE = rt.counter(t);
    const Expr base = tileE.mod(2, half);
    // An operand's rows of the tile into accumulator rows, one DMA row per image row; the first load of
    // the tile waits for the store unit.
    auto rowsLoad = [&](const runtime::BlockedLayout& x, uint64_t addr, int64_t at, bool first) {
      Stmt ld = Stmt::intrinsic(Opcode::kLoad, first ? "operand rows, sign-extended into accumulator rows" : "");
      ld.set("buffer", static_cast<int64_t>(Buffer::kAcc8))
          .set("sram_base", base + Expr(at))
          .set("dram_base", Expr(static_cast<int64_t>(addr / inE) + x.left) + Expr::var(vn, x.rows() * cb * x.cols()) +
                                (Expr(x.top) + t * th) * (cb * x.cols()) + Expr::var(vb, x.cols()))
          .set("y_size", rows).set("x_size", w).set("x_stride", cb * x.cols());
      if (first) ld.flag("pop_next", tileE, 2);
      return ld;
    };
    body.push_back(rowsLoad(l.a, a, 0, true));
    body.push_back(rowsLoad(l.b, b, th * w, false));
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
