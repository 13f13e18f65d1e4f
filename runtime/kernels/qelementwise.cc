// runtime/kernels/qelementwise.cc — accelc's integer ops beyond convolutions:
// the semantics the accelerator implements, written once here (arithmetic from
// isa/arith.h; shrr = shrRoundAway, +sat = addSat, clamp also to int8).
//
// QClip, QHardSigmoid(x), x int8: one rescale with an offset, then a clamp:
//   y = clamp(zero_point + shrr(mulq((x - zero_x)·2^8, mult) +sat offset, shift), lo, hi)
// (QClip: offset 0 and lo/hi the bounds in the output domain; QHardSigmoid:
// offset = beta/s_y·2^shift, lo/hi the output's images of 0 and 1.)
// QHardSwish(x), x int8, d = x - zero_x:
//   h = clamp(shrr(mulq(d·2^8, mult_h) +sat offset_h, shift_h), 0, one_h)   (hardsigmoid, one_h stands for 1)
//   y = clamp(zero_point + shrr(mulq(d·h, mult), shift), lo, hi)
// QMul(a, b), int8, numpy broadcast: P = (a - zero_a)·(b - zero_b)
//   y = clamp(zero_point + shrr(mulq(P, mult), shift), lo, hi)
// QMatMul(a, b), int8 a [..., M, K], b [..., K, N] (ranks >= 2, batch dims
// broadcast as numpy's matmul): P = Σ_k (a - zero_a)·(b - zero_b), int32
// wrapping (gemmAccumulate), requantized as QMul's.
// QConcat(x_0, ...), int8, joined along `axis`; input i rescaled:
//   y_i = clamp(zero_point + shrr(mulq((x_i - zeros[i])·2^8, mults[i]), shift), -128, 127)
// (mults[i] = 2^(23 + shift) and zeros[i] = zero_point copy x_i unchanged).
//
// Attributes are validated so no input can overflow int32: zero points lie in
// int8, multipliers in [0, 2^31), shifts in [0, 31], offsets in int32, and
// one_h in [1, 2^23] so that d·h (|d| <= 255) fits.
#include <cstring>
#include <initializer_list>
#include <string>
#include <tuple>

#include "isa/arith.h"
#include "runtime/internal/broadcast.h"
#include "runtime/internal/kernels.h"

namespace accelc::runtime {
namespace kernels {

namespace {

namespace ar = isa::arith;

int8_t clampInt8(int32_t v, int64_t lo, int64_t hi) {
  const int64_t l = std::max<int64_t>(lo, -128), h = std::min<int64_t>(hi, 127);
  return static_cast<int8_t>(std::min<int64_t>(std::max<int64_t>(v, l), h));
}

/// The first of `checks` (name, value, lo, hi) outside its range, as attrsProblem says it; "" when none is.
std::string firstOutOfRange(std::initializer_list<std::tuple<const char*, int64_t, int64_t, int64_t>> checks) {
  for (const auto& [name, v, lo, hi] : checks)
    if (v < lo || v > hi)
      return std::string("attribute ") + name + " is " + std::to_string(v) + "; expected a value in [" +
             std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return "";
}

constexpr int64_t kMultMax = ar::kInt32Max;  // a Q31 multiplier, and shifts of [0, 31]: what mulq and shrRoundAway take

Status checked(Ctx& c, const std::string& problem) { return problem.empty() ? Status::ok() : c.fail(problem); }

int32_t i32(int64_t v) { return static_cast<int32_t>(v); }

/// zero_point + shrr(v, shift), clamped to [lo, hi] ∩ int8.
int8_t finish(int32_t v, int64_t shift, int64_t zp, int64_t lo, int64_t hi) {
  return clampInt8(ar::addSat(i32(zp), ar::shrRoundAway(v, shift)), lo, hi);
}

/// One int8 input's output tensor of the same shape (after the type check).
support::Expected<Tensor> sameShapeInt8(Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kInt8}));
  return c.alloc(DType::kInt8, c.in(0).shape());
}

}  // namespace

Status qrescale(const QRescaleAttrs& a, Ctx& c) {
  ACCELC_TRY(checked(c, attrsProblem(a)));
  ACCELC_ASSIGN_OR_RETURN(Tensor y, sameShapeInt8(c));
  const int8_t* x = c.in(0).data<int8_t>();
  int8_t* o = y.data<int8_t>();
  for (int64_t i = 0; i < y.numel(); ++i) {
    const int32_t r = ar::mulq((x[i] - i32(a.zeroX)) * (1 << 8), i32(a.mult));
    o[i] = finish(ar::addSat(r, i32(a.offset)), a.shift, a.zeroPoint, a.lo, a.hi);
  }
  c.out(0) = std::move(y);
  return Status::ok();
}

Status qhardswish(const QHardSwishAttrs& a, Ctx& c) {
  ACCELC_TRY(checked(c, attrsProblem(a)));
  ACCELC_ASSIGN_OR_RETURN(Tensor y, sameShapeInt8(c));
  const int8_t* x = c.in(0).data<int8_t>();
  int8_t* o = y.data<int8_t>();
  for (int64_t i = 0; i < y.numel(); ++i) {
    const int32_t d = x[i] - i32(a.zeroX);
    const int32_t g = ar::addSat(ar::mulq(d * (1 << 8), i32(a.multH)), i32(a.offsetH));
    const int32_t h = std::min<int32_t>(std::max<int32_t>(ar::shrRoundAway(g, a.shiftH), 0), i32(a.oneH));
    o[i] = finish(ar::mulq(d * h, i32(a.mult)), a.shift, a.zeroPoint, a.lo, a.hi);
  }
  c.out(0) = std::move(y);
  return Status::ok();
}

namespace {

Status checkQMul(const QMulAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kInt8}));
  ACCELC_TRY(c.expectType(1, {DType::kInt8}));
  return checked(c, attrsProblem(a));
}

Status elementwiseMul(const QMulAttrs& a, Ctx& c) {
  const Tensor &ta = c.in(0), &tb = c.in(1);
  Shape out;
  if (!broadcastShape(ta.shape(), tb.shape(), out))
    return c.fail("QMul shapes " + support::shapeStr(ta.shape()) + " and " + support::shapeStr(tb.shape()) +
                  " do not broadcast");
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(DType::kInt8, out));
  const int8_t *pa = ta.data<int8_t>(), *pb = tb.data<int8_t>();
  int8_t* o = y.data<int8_t>();
  forEachBroadcast(out, broadcastStrides(ta.shape(), out), broadcastStrides(tb.shape(), out),
                   [&](int64_t i, int64_t ia, int64_t ib) {
                     const int32_t p = (pa[ia] - i32(a.zeroA)) * (pb[ib] - i32(a.zeroB));
                     o[i] = finish(ar::mulq(p, i32(a.mult)), a.shift, a.zeroPoint, a.lo, a.hi);
                   });
  c.out(0) = std::move(y);
  return Status::ok();
}

/// One M×K by K×N product of int8 matrices, requantized into y.
void matmulCore(const QMulAttrs& a, const int8_t* pa, const int8_t* pb, int8_t* y, int64_t m, int64_t k,
                int64_t n) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int32_t acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc = ar::gemmAccumulate(acc, (pa[i * k + p] - i32(a.zeroA)) * (pb[p * n + j] - i32(a.zeroB)));
      y[i * n + j] = finish(ar::mulq(acc, i32(a.mult)), a.shift, a.zeroPoint, a.lo, a.hi);
    }
}

Status batchedMatmul(const QMulAttrs& a, Ctx& c) {
  const Shape &sa = c.in(0).shape(), &sb = c.in(1).shape();
  if (sa.size() < 2 || sb.size() < 2 || sa.back() != sb[sb.size() - 2])
    return c.fail("QMatMul shapes " + support::shapeStr(sa) + " and " + support::shapeStr(sb) +
                  " cannot be multiplied; expected [..., M, K] and [..., K, N]");
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  const Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
  Shape batch;
  if (!broadcastShape(ba, bb, batch)) return c.fail("QMatMul batch dimensions do not broadcast");
  Shape outShape = batch;
  outShape.push_back(m), outShape.push_back(n);
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(DType::kInt8, outShape));
  const int8_t *pa = c.in(0).data<int8_t>(), *pb = c.in(1).data<int8_t>();
  int8_t* o = y.data<int8_t>();
  if (m * n != 0)  // batch offsets in matrices; an empty matrix has nothing to compute
    forEachBroadcast(batch, broadcastStrides(ba, batch), broadcastStrides(bb, batch),
                     [&](int64_t bo, int64_t ia, int64_t ib) {
                       matmulCore(a, pa + ia * m * k, pb + ib * k * n, o + bo * m * n, m, k, n);
                     });
  c.out(0) = std::move(y);
  return Status::ok();
}

}  // namespace

Status qmul(OpKind k, const QMulAttrs& a, Ctx& c) {
  ACCELC_TRY(checkQMul(a, c));
  return k == OpKind::kQMatMul ? batchedMatmul(a, c) : elementwiseMul(a, c);
}

namespace {

/// The joined shape of QConcat's inputs along `axis` (normalized here).
Status concatShape(const QConcatAttrs& a, Ctx& c, int64_t& axis, Shape& shape) {
  const int n = c.inputs();
  if (static_cast<int>(a.zeros.size()) != n || static_cast<int>(a.mults.size()) != n)
    return c.fail("QConcat has " + std::to_string(n) + " inputs but " + std::to_string(a.zeros.size()) +
                  " zeros and " + std::to_string(a.mults.size()) + " mults; expected one of each per input");
  axis = a.axis;
  if (!normAxis(axis, c.in(0).rank())) return c.fail("QConcat axis " + std::to_string(a.axis) + " out of range");
  ACCELC_TRY(checked(c, attrsProblem(a)));
  shape = c.in(0).shape();
  shape[axis] = 0;
  for (int i = 0; i < n; ++i) {
    ACCELC_TRY(c.expectType(i, {DType::kInt8}));
    Shape s = c.in(i).shape();
    if (s.size() != shape.size()) return c.fail("QConcat inputs differ in rank");
    s[axis] = shape[axis];
    if (s != shape) return c.fail("QConcat input " + std::to_string(i) + " has shape " + support::shapeStr(c.in(i).shape()));
    shape[axis] += c.in(i).dim(axis);
  }
  return Status::ok();
}

}  // namespace

Status qconcat(const QConcatAttrs& a, Ctx& c) {
  int64_t axis = 0;
  Shape shape;
  ACCELC_TRY(concatShape(a, c, axis, shape));
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(DType::kInt8, shape));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  int8_t* o = y.data<int8_t>();
  int64_t at = 0;  // the first output row along `axis` of input i
  const int64_t all = shape[axis];
  for (int i = 0; i < c.inputs(); ++i) {
    // Each input's rescale is a function of one int8: evaluated once per value, then looked up.
    int8_t table[256];
    for (int32_t q = -128; q < 128; ++q)
      table[q + 128] = finish(ar::mulq((q - i32(a.zeros[i])) * (1 << 8), i32(a.mults[i])), a.shift, a.zeroPoint, -128, 127);
    const int8_t* x = c.in(i).data<int8_t>();
    const int64_t rows = c.in(i).dim(axis), run = rows * inner;
    for (int64_t u = 0; u < outer; ++u) {
      int8_t* to = o + (u * all + at) * inner;
      const int8_t* from = x + u * run;
      for (int64_t v = 0; v < run; ++v) to[v] = table[from[v] + 128];
    }
    at += rows;
  }
  c.out(0) = std::move(y);
  return Status::ok();
}

}  // namespace kernels

std::string attrsProblem(const QRescaleAttrs& a) {
  return kernels::firstOutOfRange({{"zero_x", a.zeroX, -128, 127}, {"zero_point", a.zeroPoint, -128, 127},
                                   {"mult", a.mult, 0, kernels::kMultMax}, {"shift", a.shift, 0, 31},
                                   {"offset", a.offset, isa::arith::kInt32Min, isa::arith::kInt32Max}});
}

std::string attrsProblem(const QHardSwishAttrs& a) {
  return kernels::firstOutOfRange({{"zero_x", a.zeroX, -128, 127}, {"zero_point", a.zeroPoint, -128, 127},
                                   {"mult_h", a.multH, 0, kernels::kMultMax}, {"shift_h", a.shiftH, 0, 31},
                                   {"mult", a.mult, 0, kernels::kMultMax}, {"shift", a.shift, 0, 31},
                                   {"offset_h", a.offsetH, isa::arith::kInt32Min, isa::arith::kInt32Max},
                                   {"one_h", a.oneH, 1, int64_t{1} << 23}});
}

std::string attrsProblem(const QConcatAttrs& a) {
  if (a.zeros.size() != a.mults.size())
    return "attributes zeros and mults hold " + std::to_string(a.zeros.size()) + " and " + std::to_string(a.mults.size()) +
           " values; expected one of each per input";
  for (size_t i = 0; i < a.zeros.size(); ++i)
    if (std::string p = kernels::firstOutOfRange({{"zeros", a.zeros[i], -128, 127}, {"mults", a.mults[i], 0, kernels::kMultMax}});
        !p.empty())
      return p;
  return kernels::firstOutOfRange({{"shift", a.shift, 0, 31}, {"zero_point", a.zeroPoint, -128, 127}});
}

std::string attrsProblem(const QMulAttrs& a) {
  return kernels::firstOutOfRange({{"zero_a", a.zeroA, -128, 127}, {"zero_b", a.zeroB, -128, 127},
                                   {"zero_point", a.zeroPoint, -128, 127}, {"mult", a.mult, 0, kernels::kMultMax},
                                   {"shift", a.shift, 0, 31}});
}

}  // namespace accelc::runtime
