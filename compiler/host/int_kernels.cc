// compiler/host/int_kernels.cc — the integer ops, quantization and copies as
// loop kernels (see int_kernels.h).
//
// Each expression follows its reference kernel step by step, in the same
// order and at the same widths: the requantization is
// clamp(zp +sat shrr(mulq(acc, mult), shift), lo, hi) as in isa/arith.h, and
// QuantizeLinear divides, clamps to ±512, rounds half to even and adds the
// zero point as runtime/kernels/quantize.cc does. Sums that the reference
// computes with saturating additions are wrapping sums here only where the
// shapes bound them below 2^31 (the pool's window limit).
#include "compiler/host/int_kernels.h"

#include <algorithm>
#include <functional>
#include <numeric>

#include "compiler/host/plan_util.h"
#include "runtime/geometry.h"
#include "runtime/ops.h"

namespace accelc::compiler::host {

namespace {

using runtime::Shape;
using support::DType;
using Role = LoopBuffer::Role;

/// clamp(zp +sat shrr(v, shift), max(lo, -128), min(hi, 127)): the last steps to int8.
/// Computed as zp + clamp(shrr(v, shift), lo' - zp, hi' - zp) where those
/// bounds fit int32: the same value (a saturated sum clamps to the same
/// bounds as the exact one), in three operations instead of six.
int finish(LoopExpr& e, int v, int shift, int64_t zp, int64_t lo, int64_t hi) {
  const int64_t low = std::max<int64_t>(lo, -128), high = std::min<int64_t>(hi, 127);
  const int r = e.op(EwOp::kShrr, v, shift);
  auto fits = [](int64_t x) { return x >= INT32_MIN && x <= INT32_MAX; };
  if (fits(zp) && fits(low - zp) && fits(high - zp)) {
    const int c = e.op(EwOp::kMin, e.op(EwOp::kMax, r, e.intConstant(static_cast<int32_t>(low - zp))),
                       e.intConstant(static_cast<int32_t>(high - zp)));
    return e.op(EwOp::kAdd, c, e.intConstant(static_cast<int32_t>(zp)));
  }
  const int q = e.op(EwOp::kAddSat, e.intConstant(static_cast<int32_t>(zp)), r);
  return e.clip(q, static_cast<float>(low), static_cast<float>(high));
}

/// clamp(zp +sat shrr(mulq(v, mult), shift), max(lo, -128), min(hi, 127)): the requantization to int8.
int requantize(LoopExpr& e, int v, int mult, int shift, int64_t zp, int64_t lo, int64_t hi) {
  return finish(e, e.op(EwOp::kMulq, v, mult), shift, zp, lo, hi);
}

/// The int8 form of QConv: int8 data, pad_value outside the input, and the
/// requantization of acc + bias per output channel.
ConvForm qconvForm(const runtime::QConvAttrs& a, const CpuShape& cpu, bool constWeights) {
  ConvForm f;
  f.constWeights = constWeights;
  f.data = f.out = DType::kInt8;
  f.pad = static_cast<float>(a.padValue);
  f.vnni = cpu.wordProducts();
  f.perChannel = {{"bias", DType::kInt32}, {"mult", DType::kInt32}, {"shift", DType::kInt32}};
  f.epilogue = [a](LoopExpr& e, int acc, const std::vector<int>& ch) {
    requantize(e, e.op(EwOp::kAdd, acc, ch[0]), ch[1], ch[2], a.zeroPoint, a.lo, a.hi);
  };
  return f;
}

/// QGemm's inputs and output, in the step's order.
struct QGemmBuffers {
  int x, w, bias, mult, shift, y;
};
QGemmBuffers qgemmBuffers(LoopKernel& k, int64_t n, int64_t m, int64_t kk) {
  QGemmBuffers b{};
  b.x = k.addBuffer("x", n * kk, Role::kInput, DType::kInt8);
  b.w = k.addBuffer("w", m * kk, Role::kInput, DType::kInt8);
  b.bias = k.addBuffer("bias", m, Role::kInput, DType::kInt32);
  b.mult = k.addBuffer("mult", m, Role::kInput, DType::kInt32);
  b.shift = k.addBuffer("shift", m, Role::kInput, DType::kInt32);
  b.y = k.addBuffer("y", n * m, Role::kOutput, DType::kInt8);
  return b;
}

/// QGemm's epilogue in `e` over the sum `acc`: acc − comp[m] (comp: the unsigned operand's offset, -1 for
/// none) + bias[m], requantized, m the stage's axis 1.
void qgemmEpilogue(LoopExpr& e, const runtime::QConvAttrs& a, const QGemmBuffers& b, int acc, int comp) {
  const Affine perM = aff(0, {{1, 1}});
  if (comp >= 0) acc = e.op(EwOp::kSub, acc, e.load(comp, perM));
  const int v = e.op(EwOp::kAdd, acc, e.load(b.bias, perM));
  requantize(e, v, e.load(b.mult, perM), e.load(b.shift, perM), a.zeroPoint, a.lo, a.hi);
}

/// QGemm on AMX tiles: x's words offset into unsigned bytes (tdpbusd's operand) in rows of a multiple of 16
/// words, the weights' words transposed into [k][m] (AMX's layout of B) with 0 in the padding. With whole
/// tiles of output channels the product's epilogue runs on the tiles, into y (or rows that a byte copy
/// then drops past n); else the product goes to int32 rows, then a stage of qgemm's epilogue over them.
KernelPlan qgemmTiles(const runtime::QConvAttrs& a, int64_t n, int64_t m, int64_t kk, const CpuShape& cpu,
                      bool constWeights) {
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "qgemm";
  const int64_t kq = (kk + 3) / 4, np = tileBlockExtent(n), mp = tileExtent(m), kp = tileExtent(kq);
  const QGemmBuffers b = qgemmBuffers(k, n, m, kk);
  const int x4 = k.addBuffer("x4", np * kp, Role::kTemp, DType::kInt32);
  const int w4 = k.addBuffer("w4", m * kq, Role::kTemp, DType::kInt32);
  const int w4t = k.addBuffer("w4t", kp * mp, Role::kTemp, DType::kInt32);
  const int comp = k.addBuffer("comp", m, Role::kTemp, DType::kInt32);
  // Whole tiles of output channels: the epilogue runs on the tiles (whose columns index the per-channel
  // inputs), into y itself where the rows need no padding; else the sums go to a temporary that a last stage
  // requantizes.
  const bool fused = mp == m, direct = fused && np == n;
  const int acc = direct ? b.y : k.addBuffer("acc", np * mp, Role::kTemp, fused ? DType::kInt8 : DType::kInt32);
  auto add = [&](LoopStage s, StageSchedule sc, bool ofW) {
    s.constant = ofW && constWeights;
    k.stages.push_back(std::move(s)), p.schedule.stages.push_back(std::move(sc));
  };
  // Rows n to np of x4 and its words past kq stay as they are: the rows' products are dropped, and w4t's rows
  // past kq are 0.
  LoopStage xs = packStage(WordPack{"pack_rows", b.x, x4, n, kk, kp, 1, 1, kk, false});
  add(xs, packSchedule(xs, cpu), false);
  LoopStage ws = packStage(WordPack{"pack_weights", b.w, w4, m, kk, kq, 1, 1, kk, true});
  add(ws, packSchedule(ws, cpu), true);
  LoopStage ts = paddedTransposeStage(w4, w4t, m, kq, mp, kp);
  add(ts, rowSchedule(ts, 1, -1, 1, cpu), true);
  PlannedStage sums = wordSumStage(w4t, comp, m, kq, 1, mp, 0x80808080u, 1, cpu);
  add(sums.stage, sums.schedule, true);
  PlannedStage product = tileProductStage(x4, w4t, acc, np, mp, kp);
  if (fused) qgemmEpilogue(product.stage.epilogue, a, b, product.stage.epilogue.acc(), comp);
  add(product.stage, product.schedule, false);
  if (direct) return p;
  LoopStage s = unpadStage(fused ? "drop_rows" : "requantize", acc, b.y, {{"n", n}, {"m", m}}, {mp, 1});
  if (!fused) qgemmEpilogue(s.epilogue, a, b, s.epilogue.acc(), comp);
  add(s, rowSchedule(s, 1, -1, 1, cpu, byteCopy(k, s)), false);
  return p;
}

/// QGemm: y[n][m] = requantize(Σ_k x[n][k]·w[m][k] + bias[m]), m in vector
/// lanes: the weights transposed into a temporary, or with VNNI both operands
/// packed into 4-byte words (x's offset into unsigned bytes, which the
/// epilogue takes back as 128·Σ_k w[m][k]).
KernelPlan qgemm(const runtime::QConvAttrs& a, int64_t n, int64_t m, int64_t kk, const CpuShape& cpu, bool constWeights) {
  if (cpu.amx && n >= TileProduct::kSide && m >= TileProduct::kSide) return qgemmTiles(a, n, m, kk, cpu, constWeights);
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "qgemm";
  const int64_t kq = (kk + 3) / 4;
  const QGemmBuffers b = qgemmBuffers(k, n, m, kk);
  const int x = b.x, w = b.w, y = b.y;
  // The stages of w alone (packing, transposing, its sums) run once when w is constant.
  auto add = [&](LoopStage s, StageSchedule sc) { k.stages.push_back(std::move(s)), p.schedule.stages.push_back(std::move(sc)); };
  auto addOfW = [&](LoopStage s, StageSchedule sc) {
    s.constant = constWeights;
    add(std::move(s), std::move(sc));
  };
  LoopStage s;
  int comp = -1;
  if (cpu.wordProducts()) {
    const int x4 = k.addBuffer("x4", n * kq, Role::kTemp, DType::kInt32);
    const int w4 = k.addBuffer("w4", m * kq, Role::kTemp, DType::kInt32);
    const int w4t = k.addBuffer("w4t", kq * m, Role::kTemp, DType::kInt32);
    comp = k.addBuffer("comp", m, Role::kTemp, DType::kInt32);
    // x's bytes offset by 128 (the unsigned operand), w's its own; w's words
    // then transposed (one gather a vector) so that m runs in vector lanes.
    for (const WordPack& wp : {WordPack{"pack_rows", x, x4, n, kk, kq, 1, 1, kk, false},
                               WordPack{"pack_weights", w, w4, m, kk, kq, 1, 1, kk, true}}) {
      LoopStage ps = packStage(wp);
      if (wp.src == w) addOfW(ps, packSchedule(ps, cpu));
      else add(ps, packSchedule(ps, cpu));
    }
    LoopStage ts = transposeStage(w4, w4t, m, kq);
    addOfW(ts, rowSchedule(ts, 1, -1, 1, cpu));
    PlannedStage sums = wordSumStage(w4t, comp, m, kq, 1, m, 0x80808080u, 1, cpu);
    addOfW(sums.stage, sums.schedule);
    s = productStage(x4, aff(0, {{0, kq}, {2, 1}}), w4t, aff(0, {{2, m}, {1, 1}}), y, n, m, kq);
    s.value.nodes.back().op = EwOp::kDot4;  // x's unsigned bytes by w's signed ones
  } else {
    const int wt = k.addBuffer("wt", kk * m, Role::kTemp, DType::kInt8);
    LoopStage ts = transposeStage(w, wt, m, kk);
    addOfW(ts, rowSchedule(ts, 1, -1, 1, cpu));
    s = productStage(x, aff(0, {{0, kk}, {2, 1}}), wt, aff(0, {{2, m}, {1, 1}}), y, n, m, kk);
  }
  qgemmEpilogue(s.epilogue, a, b, s.epilogue.acc(), comp);
  StageSchedule sc = productSchedule(s, 0, 1, 2, cpu);
  if (cpu.wordProducts()) foldWords(sc, cpu);
  add(s, sc);
  return p;
}

/// Inputs handed over and never read (int64), of these element counts.
void addUnread(LoopKernel& k, const std::vector<int64_t>& unread, DType type = DType::kInt64) {
  for (size_t i = 0; i < unread.size(); ++i)
    k.addBuffer("unread" + std::to_string(i), std::max<int64_t>(1, unread[i]), Role::kInput, type);
}

/// [outer][dim][inner] around `axis` of `x` (a per-tensor parameter: dim 1, every element in inner).
struct AxisSplit {
  int64_t outer = 1, dim = 1, inner = 1;
};

/// [outer][dim][inner] of `x` around `axis`, which is in range.
AxisSplit aroundAxis(const Shape& x, int64_t axis) {
  AxisSplit s;
  s.dim = x[static_cast<size_t>(axis)];
  for (int64_t d = 0; d < static_cast<int64_t>(x.size()); ++d)
    if (d != axis) (d < axis ? s.outer : s.inner) *= x[static_cast<size_t>(d)];
  return s;
}

/// A stage copying `n` rows of `inner` values per outer point, from row `srcRow` of `src`'s `srcRows` into
/// row `dstRow` of `dst`'s `dstRows`: a Concat's part into its output, a Split's part out of its input.
LoopStage slabStage(size_t part, int src, int64_t srcRow, int64_t srcRows, int dst, int64_t dstRow, int64_t dstRows,
                    int64_t outer, int64_t n, int64_t inner) {
  LoopStage s;
  s.name = "part" + std::to_string(part);
  s.axes = {{"o", outer}, {"a", n}, {"i", inner}};
  s.out = dst, s.outAt = aff(dstRow * inner, {{0, dstRows * inner}, {1, inner}, {2, 1}});
  s.value.load(src, aff(srcRow * inner, {{0, srcRows * inner}, {1, inner}, {2, 1}}));
  return s;
}

std::optional<AxisSplit> axisSplit(const Shape& x, const Shape& scale, int64_t axis) {
  AxisSplit s;
  const int64_t n = elements(x);
  if (elements(scale) == 1 && scale.size() <= 1) {
    s.inner = n;
    return s;
  }
  const int64_t r = static_cast<int64_t>(x.size());
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r || scale.size() != 1 || scale[0] != x[static_cast<size_t>(axis)]) return std::nullopt;
  s.dim = x[static_cast<size_t>(axis)];
  for (int64_t d = axis + 1; d < r; ++d) s.inner *= x[static_cast<size_t>(d)];
  s.outer = n / std::max<int64_t>(1, s.dim * s.inner);
  return s;
}

/// A stage over [outer][dim][inner] writing `out` element by element; its
/// value is filled in by the caller (loads at at(), parameters at param()).
struct AxisStage {
  LoopStage s;
  AxisSplit sp;
  enum { O, A, I };
  AxisStage(const AxisSplit& split, int out) : sp(split) {
    s.name = "elements";
    s.axes = {{"o", sp.outer}, {"a", sp.dim}, {"i", sp.inner}};
    s.out = out, s.outAt = at();
  }
  Affine at() const { return aff(0, {{O, sp.dim * sp.inner}, {A, sp.inner}, {I, 1}}); }
  Affine param() const { return aff(0, {{A, 1}}); }
  /// Rows of `inner` in vector lanes, or of `dim` when inner is 1.
  StageSchedule schedule(const CpuShape& cpu, bool byteRows = false) const {
    return rowSchedule(s, sp.inner > 1 ? I : A, -1, 1, cpu, byteRows);
  }
};

}  // namespace

std::optional<KernelPlan> qconvPlan(runtime::OpKind kind, const runtime::QConvAttrs& a, const Shape& x, const Shape& w,
                                    const CpuShape& cpu, bool constWeights) {
  if (kind == runtime::OpKind::kQGemm) {
    if (x.size() != 2 || w.size() != 2 || x[1] != w[1] || x[0] < 1 || w[0] < 1 || x[1] < 1) return std::nullopt;
    return qgemm(a, x[0], w[0], x[1], cpu, constWeights);
  }
  runtime::ConvAttrs ca;
  ca.strides = a.strides, ca.pads = a.pads, ca.group = a.group;
  runtime::ConvGeometry g;
  if (x.size() != 4 || !runtime::convGeometry(ca, x, w, g).empty() || g.n < 1) return std::nullopt;
  const ConvForm f = qconvForm(a, cpu, constWeights);
  // Depthwise sums of at most 1024 int8 products are exact in float (ConvForm).
  return g.c == g.group && g.kh * g.kw <= 1024 ? depthwiseConv(g, f, cpu) : im2colProduct(g, f, cpu);
}

std::optional<KernelPlan> qaddPlan(const runtime::QAddAttrs& a, const Shape& x, const CpuShape& cpu) {
  const int64_t n = elements(x);
  if (n < 1) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "qadd";
  const int ia = k.addBuffer("a", n, Role::kInput, DType::kInt8), ib = k.addBuffer("b", n, Role::kInput, DType::kInt8);
  const int y = k.addBuffer("y", n, Role::kOutput, DType::kInt8);
  AxisStage st(AxisSplit{1, 1, n}, y);
  LoopExpr& e = st.s.value;
  // mulq((x - zero)·2^8, mult) per input, their saturating sum, then shrr, + zp and the clamp.
  auto term = [&](int buffer, int64_t zero, int64_t mult) {
    const int centered = e.op(EwOp::kSub, e.load(buffer, st.at()), e.intConstant(static_cast<int32_t>(zero)));
    return e.op(EwOp::kMulq, e.op(EwOp::kMul, centered, e.intConstant(1 << 8)), e.intConstant(static_cast<int32_t>(mult)));
  };
  const int sum = e.op(EwOp::kAddSat, term(ia, a.zeroA, a.multA), term(ib, a.zeroB, a.multB));
  const int scaled = e.op(EwOp::kShrr, sum, e.intConstant(static_cast<int32_t>(std::clamp<int64_t>(a.shift, -1, 32))));
  const int q = e.op(EwOp::kAddSat, e.intConstant(static_cast<int32_t>(a.zeroPoint)), scaled);
  e.clip(q, static_cast<float>(std::max<int64_t>(a.lo, -128)), static_cast<float>(std::min<int64_t>(a.hi, 127)));
  k.stages.push_back(st.s);
  p.schedule.stages.push_back(st.schedule(cpu));
  return p;
}

namespace {

int32_t i32(int64_t v) { return static_cast<int32_t>(v); }

/// (x - zero)·2^8 of an int8 load: the rescaled ops' centered input.
int centered256(LoopExpr& e, int x, int64_t zero) {
  return e.op(EwOp::kMul, e.op(EwOp::kSub, x, e.intConstant(i32(zero))), e.intConstant(1 << 8));
}

/// One int8 input to one int8 output of its shape, element by element: `value` gives the stored value of the load.
KernelPlan unaryInt8(const std::string& name, int64_t n, const std::function<void(LoopExpr&, int)>& value,
                     const CpuShape& cpu) {
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = name;
  const int ix = k.addBuffer("x", n, Role::kInput, DType::kInt8);
  const int y = k.addBuffer("y", n, Role::kOutput, DType::kInt8);
  AxisStage st(AxisSplit{1, 1, n}, y);
  value(st.s.value, st.s.value.load(ix, st.at()));
  k.stages.push_back(st.s);
  p.schedule.stages.push_back(st.schedule(cpu));
  return p;
}

/// Row-major strides of `s` as seen from an output of rank `r` under numpy's broadcast (0 on a broadcast axis).
std::vector<int64_t> broadcastCoefs(const Shape& s, size_t r) {
  std::vector<int64_t> c(r, 0);
  int64_t stride = 1;
  for (size_t d = 0; d < s.size(); ++d) {
    const size_t from = s.size() - 1 - d, to = r - 1 - d;
    if (s[from] != 1) c[to] = stride;
    stride *= s[from];
  }
  return c;
}

}  // namespace

std::optional<KernelPlan> qrescalePlan(const runtime::QRescaleAttrs& a, const Shape& x, const CpuShape& cpu) {
  if (elements(x) < 1 || !runtime::attrsProblem(a).empty()) return std::nullopt;  // the reference names the problem
  return unaryInt8("qrescale", elements(x), [&](LoopExpr& e, int v) {
    const int r = e.op(EwOp::kMulq, centered256(e, v, a.zeroX), e.intConstant(i32(a.mult)));
    finish(e, e.op(EwOp::kAddSat, r, e.intConstant(i32(a.offset))), e.intConstant(i32(a.shift)), a.zeroPoint, a.lo, a.hi);
  }, cpu);
}

std::optional<KernelPlan> qhardswishPlan(const runtime::QHardSwishAttrs& a, const Shape& x, const CpuShape& cpu) {
  if (elements(x) < 1 || !runtime::attrsProblem(a).empty()) return std::nullopt;
  return unaryInt8("qhardswish", elements(x), [&](LoopExpr& e, int v) {
    const int d = e.op(EwOp::kSub, v, e.intConstant(i32(a.zeroX)));
    const int g = e.op(EwOp::kAddSat, e.op(EwOp::kMulq, e.op(EwOp::kMul, d, e.intConstant(1 << 8)), e.intConstant(i32(a.multH))),
                       e.intConstant(i32(a.offsetH)));
    const int gate = e.op(EwOp::kShrr, g, e.intConstant(i32(a.shiftH)));
    const int h = e.op(EwOp::kMin, e.op(EwOp::kMax, gate, e.intConstant(0)), e.intConstant(i32(a.oneH)));
    requantize(e, e.op(EwOp::kMul, d, h), e.intConstant(i32(a.mult)), e.intConstant(i32(a.shift)), a.zeroPoint, a.lo,
               a.hi);
  }, cpu);
}

std::optional<KernelPlan> qmulPlan(const runtime::QMulAttrs& a, const Shape& sa, const Shape& sb, const Shape& out,
                                   const CpuShape& cpu) {
  const size_t r = out.size();
  if (r == 0 || elements(out) < 1 || sa.size() > r || sb.size() > r || !runtime::attrsProblem(a).empty())
    return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "qmul";
  const int ia = k.addBuffer("a", std::max<int64_t>(1, elements(sa)), Role::kInput, DType::kInt8);
  const int ib = k.addBuffer("b", std::max<int64_t>(1, elements(sb)), Role::kInput, DType::kInt8);
  const int y = k.addBuffer("y", elements(out), Role::kOutput, DType::kInt8);
  LoopStage s;
  s.name = "qmul";
  Affine at;
  at.coef.assign(r, 0);
  for (size_t d = r, stride = 1; d-- > 0;) {
    s.axes.insert(s.axes.begin(), LoopAxis{"d" + std::to_string(d), out[d]});
    at.coef[d] = static_cast<int64_t>(stride), stride *= static_cast<size_t>(out[d]);
  }
  s.out = y, s.outAt = at;
  LoopExpr& e = s.value;
  Affine atA, atB;
  atA.coef = broadcastCoefs(sa, r), atB.coef = broadcastCoefs(sb, r);
  const int da = e.op(EwOp::kSub, e.load(ia, atA), e.intConstant(i32(a.zeroA)));
  const int db = e.op(EwOp::kSub, e.load(ib, atB), e.intConstant(i32(a.zeroB)));
  requantize(e, e.op(EwOp::kMul, da, db), e.intConstant(i32(a.mult)), e.intConstant(i32(a.shift)), a.zeroPoint, a.lo,
             a.hi);
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, static_cast<int>(r - 1), -1, 1, cpu));
  return p;
}

std::optional<KernelPlan> qmatmulPlan(const runtime::QMulAttrs& a, const Shape& sa, const Shape& sb,
                                      const CpuShape& cpu) {
  if (sa.size() < 2 || sb.size() < 2 || sa.back() != sb[sb.size() - 2] || !runtime::attrsProblem(a).empty())
    return std::nullopt;
  const int64_t m = sa[sa.size() - 2], kk = sa.back(), n = sb.back();
  const Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
  const size_t r = std::max(ba.size(), bb.size());
  Shape batch(r, 1);
  for (size_t d = 0; d < r; ++d) {  // numpy's broadcast of the batch dimensions
    const int64_t x = d + ba.size() >= r ? ba[d + ba.size() - r] : 1, y = d + bb.size() >= r ? bb[d + bb.size() - r] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    batch[d] = std::max(x, y);
  }
  if (m < 1 || n < 1 || kk < 1 || elements(batch) < 1) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "qmatmul";
  const int ia = k.addBuffer("a", m * kk, Role::kInput, DType::kInt8);
  const int ib = k.addBuffer("b", kk * n, Role::kInput, DType::kInt8);
  const int y = k.addBuffer("y", m * n, Role::kOutput, DType::kInt8);
  // Each batch point moves a, b and y by a matrix; a broadcast operand stays (buffer sizes are per point).
  const std::vector<int64_t> ca = broadcastCoefs(ba, r), cb = broadcastCoefs(bb, r);
  int64_t ystride = m * n;
  for (size_t d = r; d-- > 0;) {
    k.batch.insert(k.batch.begin(), BatchDim{batch[d], {ca[d] * m * kk, cb[d] * kk * n, ystride}});
    ystride *= batch[d];
  }
  // Σ_k (a - zero_a)·(b - zero_b), a wrapping int32 sum as gemmAccumulate's, requantized as QMul's.
  LoopStage s = productStage(ia, aff(0, {{0, kk}, {2, 1}}), ib, aff(0, {{2, n}, {1, 1}}), y, m, n, kk);
  LoopExpr v;
  const int da = v.op(EwOp::kSub, v.load(ia, aff(0, {{0, kk}, {2, 1}})), v.intConstant(i32(a.zeroA)));
  const int db = v.op(EwOp::kSub, v.load(ib, aff(0, {{2, n}, {1, 1}})), v.intConstant(i32(a.zeroB)));
  v.op(EwOp::kMul, da, db);
  s.value = std::move(v);
  requantize(s.epilogue, s.epilogue.acc(), s.epilogue.intConstant(i32(a.mult)), s.epilogue.intConstant(i32(a.shift)),
             a.zeroPoint, a.lo, a.hi);
  k.stages.push_back(s);
  p.schedule.stages.push_back(productSchedule(s, 0, 1, 2, cpu));
  return p;
}

std::optional<KernelPlan> qconcatPlan(const runtime::QConcatAttrs& a, const std::vector<Shape>& inputs,
                                      const CpuShape& cpu) {
  const size_t n = inputs.size();
  if (n == 0 || a.zeros.size() != n || !runtime::attrsProblem(a).empty()) return std::nullopt;
  runtime::AxisAttrs axis;
  axis.axis = a.axis;
  std::optional<KernelPlan> p = concatPlan(axis, inputs, DType::kInt8, cpu);
  if (!p) return std::nullopt;
  p->kernel.name = "qconcat";
  // concatPlan's stage per input of a non-empty axis loads it as its value: rescale that value.
  const int64_t r = static_cast<int64_t>(inputs[0].size()), at = a.axis < 0 ? a.axis + r : a.axis;
  size_t stage = 0;
  for (size_t i = 0; i < n; ++i) {
    if (inputs[i][static_cast<size_t>(at)] == 0) continue;
    LoopExpr& e = p->kernel.stages[stage++].value;
    const int load = static_cast<int>(e.nodes.size()) - 1;  // before any node is added
    const int x = centered256(e, load, a.zeros[i]), mult = e.intConstant(i32(a.mults[i]));
    requantize(e, x, mult, e.intConstant(i32(a.shift)), a.zeroPoint, -128, 127);
  }
  return p;
}

std::optional<KernelPlan> qavgpoolPlan(const runtime::QPoolAttrs& a, const Shape& x, const CpuShape& cpu) {
  if (x.size() != 4 || a.kernelShape.size() != 2 || (!a.strides.empty() && a.strides.size() != 2)) return std::nullopt;
  const int64_t kh = a.kernelShape[0], kw = a.kernelShape[1];
  const int64_t sh = a.strides.empty() ? 1 : a.strides[0], sw = a.strides.empty() ? 1 : a.strides[1];
  const int64_t h = x[2], w = x[3];
  // Up to 2^16 taps of |x - zero| <= 255 the wrapping sum never leaves int32, so it is the reference's saturating one.
  if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || kh > h || kw > w || kh * kw > (int64_t{1} << 16) || x[0] * x[1] < 1)
    return std::nullopt;
  const int64_t oh = (h - kh) / sh + 1, ow = (w - kw) / sw + 1, planes = x[0] * x[1];
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "qavgpool";
  const int ix = k.addBuffer("x", planes * h * w, Role::kInput, DType::kInt8);
  const int y = k.addBuffer("y", planes * oh * ow, Role::kOutput, DType::kInt8);
  LoopStage s;
  s.name = "qavgpool";
  enum { P, I, J, U, V };
  s.axes = {{"p", planes}, {"i", oh}, {"j", ow}, {"u", kh, true}, {"v", kw, true}};
  s.out = y, s.outAt = aff(0, {{P, oh * ow}, {I, ow}, {J, 1}});
  s.reduce = Reduce::kSum;
  s.value.load(ix, aff(0, {{P, h * w}, {I, sh * w}, {U, w}, {J, sw}, {V, 1}}));
  LoopExpr& e = s.epilogue;
  int v = e.op(EwOp::kAdd, e.acc(), e.intConstant(static_cast<int32_t>(-kh * kw * a.zeroX)));
  for (int d = 0; d < 8; ++d) v = e.op(EwOp::kAddSat, v, v);  // ·2^8, saturating as the reference doubles
  requantize(e, v, e.intConstant(static_cast<int32_t>(a.mult)), e.intConstant(static_cast<int32_t>(std::clamp<int64_t>(a.shift, -1, 32))),
             a.zeroPoint, a.lo, a.hi);
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, J, I, 4, cpu));
  return p;
}

std::optional<KernelPlan> im2colPlan(const runtime::Im2colAttrs& a, const Shape& x, const CpuShape& cpu) {
  const runtime::Ints& pads = a.pads;
  if (x.size() != 4 || a.kernelShape.size() != 2 || !(a.strides.empty() || a.strides.size() == 2) ||
      !(pads.empty() || pads.size() == 4))
    return std::nullopt;
  runtime::ConvGeometry g;
  g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3], g.kh = a.kernelShape[0], g.kw = a.kernelShape[1];
  g.sh = a.strides.empty() ? 1 : a.strides[0], g.sw = a.strides.empty() ? 1 : a.strides[1];
  if (!pads.empty()) g.pt = pads[0], g.pl = pads[1], g.pb = pads[2], g.pr = pads[3];
  if (g.kh < 1 || g.kw < 1 || g.sh < 1 || g.sw < 1 || g.pt < 0 || g.pl < 0 || g.pb < 0 || g.pr < 0 ||
      g.h + g.pt + g.pb < g.kh || g.w + g.pl + g.pr < g.kw || g.n * g.c < 1)
    return std::nullopt;
  g.oh = (g.h + g.pt + g.pb - g.kh) / g.sh + 1, g.ow = (g.w + g.pl + g.pr - g.kw) / g.sw + 1;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "im2col";
  const int64_t in = g.c * g.h * g.w, out = g.c * g.kh * g.kw * g.oh * g.ow;
  const int ix = k.addBuffer("x", in, Role::kInput, DType::kInt8);
  const int y = k.addBuffer("y", out, Role::kOutput, DType::kInt8);
  k.batch.push_back({g.n, {in, out}});
  auto add = [&](LoopStage s, int vector) {
    k.stages.push_back(std::move(s));
    p.schedule.stages.push_back(rowSchedule(k.stages.back(), vector, -1, 1, cpu, byteCopy(k, k.stages.back())));
  };
  if (g.pt || g.pl || g.pb || g.pr) {
    // The windows read a padded copy: a pass over the input, against lane masks on every row of the output,
    // which is KH·KW / (SH·SW) times larger. ResNet's first layer (7x7 at stride 2, one thread, warm): 0.19 ms
    // with the masks, 0.165 with strided loads from the copy, 0.09 from its column planes.
    std::vector<LoopStage> stages = paddedIm2colStages(k, g, ix, y, static_cast<float>(a.padValue));
    k.batch[0].stride.push_back(0);
    for (size_t i = 0; i < stages.size(); ++i) add(std::move(stages[i]), i == 0 ? 3 : 4);
    return p;
  }
  add(im2colStage(g, g.c, ix, y, 0.0f), 4);
  return p;
}

std::optional<KernelPlan> quantizePlan(const runtime::AxisAttrs& a, const Shape& x, const Shape& scale,
                                       std::optional<DType> zeroPoint, const CpuShape& cpu) {
  const DType to = zeroPoint.value_or(DType::kUint8);
  const std::optional<AxisSplit> sp = axisSplit(x, scale, a.axis);
  if (!sp || elements(x) < 1 || (to != DType::kInt8 && to != DType::kUint8)) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "quantize";
  const int ix = k.addBuffer("x", elements(x), Role::kInput);
  const int is = k.addBuffer("scale", sp->dim, Role::kInput);
  const int iz = zeroPoint ? k.addBuffer("zero_point", sp->dim, Role::kInput, to) : -1;
  const int y = k.addBuffer("y", elements(x), Role::kOutput, to);
  AxisStage st(*sp, y);
  LoopExpr& e = st.s.value;
  const int q = e.clip(e.op(EwOp::kDiv, e.load(ix, st.at()), e.load(is, st.param())), -512.0f, 512.0f);
  const int r = e.op(EwOp::kToInt, e.op(EwOp::kRound, q));  // NaN passes the clamp and becomes 0
  const int v = e.op(EwOp::kAdd, r, iz >= 0 ? e.load(iz, st.param()) : e.intConstant(0));
  e.clip(v, to == DType::kInt8 ? -128.0f : 0.0f, to == DType::kInt8 ? 127.0f : 255.0f);
  k.stages.push_back(st.s);
  // Rows of bytes out: vectors of up to four registers' floats, so that each store moves a whole register
  // of bytes (1x3x224x224: 0.034 ms instead of 0.040).
  p.schedule.stages.push_back(st.schedule(cpu, true));
  return p;
}

std::optional<KernelPlan> dequantizePlan(const runtime::AxisAttrs& a, const Shape& x, DType type, const Shape& scale,
                                         bool zeroPoint, const CpuShape& cpu) {
  const std::optional<AxisSplit> sp = axisSplit(x, scale, a.axis);
  if (!sp || elements(x) < 1 || (type != DType::kInt8 && type != DType::kUint8)) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "dequantize";
  const int ix = k.addBuffer("x", elements(x), Role::kInput, type);
  const int is = k.addBuffer("scale", sp->dim, Role::kInput);
  const int iz = zeroPoint ? k.addBuffer("zero_point", sp->dim, Role::kInput, type) : -1;
  const int y = k.addBuffer("y", elements(x), Role::kOutput);
  AxisStage st(*sp, y);
  LoopExpr& e = st.s.value;
  // (x - zp) is exact in float, and so is its product with the scale before the one rounding the reference makes.
  int v = e.load(ix, st.at());
  if (iz >= 0) v = e.op(EwOp::kSub, v, e.load(iz, st.param()));
  e.op(EwOp::kMul, e.op(EwOp::kToFloat, v), e.load(is, st.param()));
  k.stages.push_back(st.s);
  p.schedule.stages.push_back(st.schedule(cpu));
  return p;
}

std::optional<KernelPlan> copyPlan(int64_t n, DType type, const CpuShape& cpu, const std::vector<int64_t>& unread) {
  if (n < 1 || !runtime::kernelBufferType(type) || type == DType::kInt64) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "copy";
  const int ix = k.addBuffer("x", n, Role::kInput, type);
  addUnread(k, unread);
  const int y = k.addBuffer("y", n, Role::kOutput, type);
  AxisStage st(AxisSplit{1, 1, n}, y);
  st.s.value.load(ix, st.at());
  k.stages.push_back(st.s);
  p.schedule.stages.push_back(st.schedule(cpu));
  return p;
}

std::optional<KernelPlan> slicePlan(const runtime::SliceGeometry& g, const Shape& x, DType type,
                                    const std::vector<int64_t>& unread, const CpuShape& cpu) {
  const size_t r = x.size();
  if (r == 0 || elements(g.out) < 1 || !runtime::kernelBufferType(type) || type == DType::kInt64) return std::nullopt;
  std::vector<int64_t> inStride(r, 1);
  for (size_t d = r - 1; d-- > 0;) inStride[d] = inStride[d + 1] * x[d + 1];
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "slice";
  const int ix = k.addBuffer("x", elements(x), Role::kInput, type);
  addUnread(k, unread);
  const int y = k.addBuffer("y", elements(g.out), Role::kOutput, type);
  LoopStage s;
  s.name = "slice";
  Affine in, out;
  int64_t outStride = 1;
  for (size_t d = r; d-- > 0;) {  // output axis d reads x from begin[d] by step[d] (negative: backwards)
    s.axes.insert(s.axes.begin(), LoopAxis{"d" + std::to_string(d), g.out[d]});
    in.c += g.begin[d] * inStride[d];
    in.coef.insert(in.coef.begin(), g.step[d] * inStride[d]);
    out.coef.insert(out.coef.begin(), outStride);
    outStride *= g.out[d];
  }
  s.out = y, s.outAt = out;
  s.value.load(ix, in);
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, static_cast<int>(r - 1), -1, 1, cpu, byteCopy(k, s)));
  return p;
}

std::optional<KernelPlan> transposePlan(const runtime::PermAttrs& a, const Shape& x, DType type, const CpuShape& cpu) {
  const size_t r = x.size();
  runtime::Ints perm = a.perm;
  if (perm.empty())
    for (size_t i = r; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  runtime::Ints sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  runtime::Ints identity(r);
  std::iota(identity.begin(), identity.end(), 0);
  if (r == 0 || sorted != identity || elements(x) < 1 || !runtime::kernelBufferType(type)) return std::nullopt;
  std::vector<int64_t> inStride(r, 1);
  for (size_t d = r - 1; d-- > 0;) inStride[d] = inStride[d + 1] * x[d + 1];
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "transpose";
  const int ix = k.addBuffer("x", elements(x), Role::kInput, type), y = k.addBuffer("y", elements(x), Role::kOutput, type);
  LoopStage s;
  s.name = "transpose";
  Affine in, out;
  int64_t outStride = 1;
  for (size_t d = r; d-- > 0;) {  // output axis d walks input axis perm[d]
    const size_t from = static_cast<size_t>(perm[d]);
    s.axes.insert(s.axes.begin(), LoopAxis{"d" + std::to_string(d), x[from]});
    in.coef.insert(in.coef.begin(), inStride[from]);
    out.coef.insert(out.coef.begin(), outStride);
    outStride *= x[from];
  }
  s.out = y, s.outAt = out;
  s.value.load(ix, in);
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, static_cast<int>(r - 1), -1, 1, cpu, byteCopy(k, s)));
  return p;
}

std::optional<KernelPlan> concatPlan(const runtime::AxisAttrs& a, const std::vector<Shape>& inputs, DType type,
                                     const CpuShape& cpu) {
  if (inputs.empty() || !runtime::kernelBufferType(type)) return std::nullopt;
  const int64_t r = static_cast<int64_t>(inputs[0].size());
  const int64_t axis = a.axis < 0 ? a.axis + r : a.axis;
  if (axis < 0 || axis >= r) return std::nullopt;
  const AxisSplit around = aroundAxis(inputs[0], axis);
  const int64_t outer = around.outer, inner = around.inner;
  int64_t total = 0;
  for (const Shape& in : inputs) {
    if (static_cast<int64_t>(in.size()) != r) return std::nullopt;
    for (int64_t d = 0; d < r; ++d)
      if (d != axis && in[static_cast<size_t>(d)] != inputs[0][static_cast<size_t>(d)]) return std::nullopt;
    total += in[static_cast<size_t>(axis)];
  }
  if (outer * inner * total < 1) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "concat";
  std::vector<int> in;
  for (size_t i = 0; i < inputs.size(); ++i)
    in.push_back(k.addBuffer("x" + std::to_string(i), std::max<int64_t>(1, elements(inputs[i])), Role::kInput, type));
  const int y = k.addBuffer("y", outer * total * inner, Role::kOutput, type);
  int64_t at = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {  // one stage per input, writing its slab of the output
    const int64_t n = inputs[i][static_cast<size_t>(axis)];
    if (n == 0) continue;
    const LoopStage s = slabStage(i, in[i], 0, n, y, at, total, outer, n, inner);
    k.stages.push_back(s);
    p.schedule.stages.push_back(rowSchedule(s, inner > 1 ? 2 : 1, -1, 1, cpu, byteCopy(k, s)));
    at += n;
  }
  return p;
}

std::optional<KernelPlan> splitPlan(int64_t axis, const Shape& x, const std::vector<Shape>& outputs, DType type,
                                    const std::vector<int64_t>& unread, const CpuShape& cpu) {
  const int64_t r = static_cast<int64_t>(x.size());
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r || outputs.empty() || !runtime::kernelBufferType(type) || type == DType::kInt64)
    return std::nullopt;
  const AxisSplit around = aroundAxis(x, axis);
  const int64_t outer = around.outer, inner = around.inner;
  int64_t total = 0;
  for (const Shape& y : outputs) {  // each part is x with a shorter axis; together they cover it
    Shape want = x;
    want[static_cast<size_t>(axis)] = y.size() == x.size() ? y[static_cast<size_t>(axis)] : -1;
    if (y != want) return std::nullopt;
    total += y[static_cast<size_t>(axis)];
  }
  if (total != x[static_cast<size_t>(axis)] || outer * inner * total < 1) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "split";
  const int ix = k.addBuffer("x", elements(x), Role::kInput, type);
  addUnread(k, unread);
  std::vector<int> ys;
  for (size_t i = 0; i < outputs.size(); ++i)
    ys.push_back(k.addBuffer("y" + std::to_string(i), std::max<int64_t>(1, elements(outputs[i])), Role::kOutput, type));
  int64_t at = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {  // one stage per part, reading its slab of the input
    const int64_t n = outputs[i][static_cast<size_t>(axis)];
    if (n == 0) continue;
    const LoopStage s = slabStage(i, ix, at, total, ys[i], 0, n, outer, n, inner);
    k.stages.push_back(s);
    p.schedule.stages.push_back(rowSchedule(s, inner > 1 ? 2 : 1, -1, 1, cpu, byteCopy(k, s)));
    at += n;
  }
  return p;
}

std::optional<KernelPlan> gatherPlan(int64_t axis, const Shape& x, const runtime::Ints& indices, int64_t indexElements,
                                     DType indexType, DType type, const CpuShape& cpu) {
  const int64_t r = static_cast<int64_t>(x.size());
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r || !runtime::kernelBufferType(type) || type == DType::kInt64) return std::nullopt;
  const AxisSplit around = aroundAxis(x, axis);
  const int64_t outer = around.outer, inner = around.inner, dim = around.dim, n = static_cast<int64_t>(indices.size());
  if (outer * n * inner < 1) return std::nullopt;
  runtime::Ints at;
  for (int64_t v : indices) {  // an index out of range is left to the reference kernel, which names it
    if (v < -dim || v >= dim) return std::nullopt;
    at.push_back(v < 0 ? v + dim : v);
  }
  // Runs of indices in arithmetic progression (a constant step, 0 included) are one affine stage each.
  std::vector<std::pair<int64_t, int64_t>> runs;  // first position, count
  for (int64_t j = 0; j < n;) {
    int64_t e = j + 1;
    while (e < n && (e == j + 1 || at[e] - at[e - 1] == at[j + 1] - at[j])) ++e;
    runs.push_back({j, e - j});
    j = e;
  }
  constexpr size_t kMaxRuns = 64;  // beyond that, a table lookup would serve better than stages
  if (runs.size() > kMaxRuns) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "gather";
  const int ix = k.addBuffer("x", elements(x), Role::kInput, type);
  addUnread(k, {indexElements}, indexType);
  const int y = k.addBuffer("y", outer * n * inner, Role::kOutput, type);
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto [j, count] = runs[i];
    const int64_t step = count > 1 ? at[j + 1] - at[j] : 0;
    LoopStage s;
    s.name = "run" + std::to_string(i);
    s.axes = {{"o", outer}, {"j", count}, {"i", inner}};
    s.out = y, s.outAt = aff(j * inner, {{0, n * inner}, {1, inner}, {2, 1}});
    s.value.load(ix, aff(at[j] * inner, {{0, dim * inner}, {1, step * inner}, {2, 1}}));
    k.stages.push_back(s);
    p.schedule.stages.push_back(rowSchedule(s, inner > 1 ? 2 : 1, -1, 1, cpu, byteCopy(k, s)));
  }
  return p;
}

}  // namespace accelc::compiler::host
