// runtime/kernels/broadcast.cc — numpy-broadcasting ops beyond arithmetic:
// comparisons (bool out), logic (bool in and out), PRelu, Mod, the variadic
// Min, Max, Mean and Sum, and Where.
//
// Min and Max propagate NaN as numpy's minimum and maximum do; Mod follows
// ONNX: fmod = 0 takes the divisor's sign (integers only), fmod = 1 the
// dividend's (C fmod); an integer modulus of 0 is an error, not a trap.
#include <array>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "runtime/internal/broadcast.h"
#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// The broadcast shape of inputs [first, last); fails when they do not broadcast.
Status broadcastAll(Ctx& c, int first, int last, Shape& out) {
  out = c.in(first).shape();
  for (int i = first + 1; i < last; ++i) {
    Shape next;
    if (!broadcastShape(out, c.in(i).shape(), next))
      return c.fail("shapes " + support::shapeStr(out) + " and " + support::shapeStr(c.in(i).shape()) +
                    " do not broadcast");
    out = std::move(next);
  }
  return Status::ok();
}

/// out[o] = f(a[ia], b[ib]) over the broadcast of inputs ia and ib.
template <typename T, typename R, typename F>
Status zip(Ctx& c, const Tensor& x, const Tensor& y, DType to, F f, Tensor& out) {
  Shape shape;
  if (!broadcastShape(x.shape(), y.shape(), shape))
    return c.fail("shapes " + support::shapeStr(x.shape()) + " and " + support::shapeStr(y.shape()) +
                  " do not broadcast");
  ACCELC_ASSIGN_OR_RETURN(out, c.alloc(to, shape));
  const T *a = x.data<T>(), *b = y.data<T>();
  R* o = out.data<R>();
  forEachBroadcast(shape, broadcastStrides(x.shape(), shape), broadcastStrides(y.shape(), shape),
                   [&](int64_t i, int64_t ia, int64_t ib) { o[i] = f(a[ia], b[ib]); });
  return Status::ok();
}

template <typename T>
Status compare(OpKind k, Ctx& c) {
  auto f = [k](T a, T b) -> uint8_t {
    if (k == OpKind::kEqual) return a == b;
    if (k == OpKind::kLess) return a < b;
    if (k == OpKind::kLessOrEqual) return a <= b;
    if (k == OpKind::kGreater) return a > b;
    return a >= b;  // kGreaterOrEqual
  };
  return zip<T, uint8_t>(c, c.in(0), c.in(1), DType::kBool, f, c.out(0));
}

Status logic(OpKind k, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kBool}));
  ACCELC_TRY(c.expectType(1, {DType::kBool}));
  auto f = [k](uint8_t a, uint8_t b) -> uint8_t {
    if (k == OpKind::kAnd) return a && b;
    if (k == OpKind::kOr) return a || b;
    return (a != 0) != (b != 0);  // kXor
  };
  return zip<uint8_t, uint8_t>(c, c.in(0), c.in(1), DType::kBool, f, c.out(0));
}

template <typename T>
Status mod(const ModAttrs& a, Ctx& c) {
  if constexpr (std::is_floating_point_v<T>) {
    if (!a.fmod) return c.fail("Mod of floating-point inputs needs fmod=1");
    return zip<T, T>(c, c.in(0), c.in(1), c.in(0).dtype(), [](T x, T y) { return std::fmod(x, y); }, c.out(0));
  } else {
    bool byZero = false;
    auto f = [&](T x, T y) -> T {
      if (y == 0) return byZero = true, T(0);
      if (std::is_signed_v<T> && y == T(-1)) return T(0);  // no INT_MIN % -1 trap
      const T r = static_cast<T>(x % y);
      if constexpr (std::is_signed_v<T>)
        if (!a.fmod && r != 0 && ((r < 0) != (y < 0))) return static_cast<T>(r + y);  // the divisor's sign
      return r;
    };
    ACCELC_TRY((zip<T, T>(c, c.in(0), c.in(1), c.in(0).dtype(), f, c.out(0))));
    return byZero ? c.fail("integer modulus by zero") : Status::ok();
  }
}

template <typename T>
Status prelu(Ctx& c) {
  ACCELC_TRY(c.expectSameType(0, 1));
  ACCELC_TRY((zip<T, T>(c, c.in(0), c.in(1), c.in(0).dtype(), [](T x, T s) { return x < T(0) ? s * x : x; }, c.out(0))));
  if (c.out(0).shape() != c.in(0).shape())  // the slope broadcasts to x, never the other way
    return c.fail("slope of shape " + support::shapeStr(c.in(1).shape()) + " does not broadcast to x's shape " +
                  support::shapeStr(c.in(0).shape()));
  return Status::ok();
}

/// Min, Max, Sum, Mean: a left fold over the inputs, each step broadcasting.
template <typename T>
Status variadic(OpKind k, Ctx& c) {
  auto f = [k](T a, T b) -> T {
    if constexpr (std::is_floating_point_v<T>)
      if ((k == OpKind::kMin || k == OpKind::kMax) && (std::isnan(a) || std::isnan(b))) return a + b;
    if (k == OpKind::kMin) return b < a ? b : a;
    if (k == OpKind::kMax) return b > a ? b : a;
    if constexpr (std::is_integral_v<T>) {  // integers wrap
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  };
  Tensor acc = c.in(0);
  for (int i = 1; i < c.inputs(); ++i) {
    ACCELC_TRY(c.expectSameType(0, i));
    Tensor next;
    ACCELC_TRY((zip<T, T>(c, acc, c.in(i), acc.dtype(), f, next)));
    acc = std::move(next);
  }
  if constexpr (std::is_floating_point_v<T>)
    if (k == OpKind::kMean)
      for (int64_t i = 0; i < acc.numel(); ++i) acc.data<T>()[i] /= static_cast<T>(c.inputs());
  c.out(0) = std::move(acc);
  return Status::ok();
}

Status where(Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kBool}));
  ACCELC_TRY(c.expectSameType(1, 2));
  Shape shape;
  ACCELC_TRY(broadcastAll(c, 0, 3, shape));
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(c.in(1).dtype(), shape));
  const std::array<Shape, 3> st = {broadcastStrides(c.in(0).shape(), shape),
                                   broadcastStrides(c.in(1).shape(), shape),
                                   broadcastStrides(c.in(2).shape(), shape)};
  const int64_t eb = support::dtypeBytes(out.dtype());
  const uint8_t* cond = c.in(0).data<uint8_t>();
  forEachBroadcastN<3>(shape, st, [&](int64_t o, const std::array<int64_t, 3>& idx) {
    const Tensor& from = cond[idx[0]] ? c.in(1) : c.in(2);
    std::memcpy(&out.bytes()[o * eb], &from.bytes()[(cond[idx[0]] ? idx[1] : idx[2]) * eb], eb);
  });
  c.out(0) = std::move(out);
  return Status::ok();
}

bool isComparison(OpKind k) {
  return k == OpKind::kEqual || k == OpKind::kLess || k == OpKind::kLessOrEqual || k == OpKind::kGreater ||
         k == OpKind::kGreaterOrEqual;
}

}  // namespace

Status broadcastOp(OpKind k, const Attrs& a, Ctx& c) {
  const DType t = c.in(0).dtype();
  if (k == OpKind::kWhere) return where(c);
  if (k == OpKind::kPRelu) {
    ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64}));
    return visitFloat(t, [&](auto v) { return prelu<decltype(v)>(c); });
  }
  if (k == OpKind::kAnd || k == OpKind::kOr || k == OpKind::kXor) return logic(k, c);
  if (isComparison(k)) {
    ACCELC_TRY(c.expectSameType(0, 1));
    if (t == DType::kBool && k != OpKind::kEqual) return c.expectType(0, {DType::kFloat32, DType::kInt32, DType::kInt64});
    return visitDType(t, [&](auto v) { return compare<decltype(v)>(k, c); });
  }
  if (t == DType::kBool) return c.expectType(0, {DType::kFloat32, DType::kInt32, DType::kInt64});
  if (k == OpKind::kMod) {
    ACCELC_TRY(c.expectSameType(0, 1));
    return visitDType(t, [&](auto v) { return mod<decltype(v)>(std::get<ModAttrs>(a), c); });
  }
  if (k == OpKind::kMean && !support::isFloatDType(t)) return c.expectType(0, {DType::kFloat32, DType::kFloat64});
  return visitDType(t, [&](auto v) { return variadic<decltype(v)>(k, c); });
}

}  // namespace accelc::runtime::kernels
