// runtime/kernels/activation.cc — unary math and activations: Exp ... Atanh,
// the ONNX activations with coefficients (LeakyRelu, Elu, Selu, HardSigmoid,
// Gelu, ...), the predicates IsNaN and IsInf, Not, and accelc's fused Silu.
//
// Float ops compute in the element type (float32 as numpy's float32 does);
// Neg, Abs and Sign also take integers, where Neg and Abs wrap (ONNX leaves
// -INT_MIN undefined; two's complement gives INT_MIN back, as onnxruntime does).
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// The function of an op that only takes floating-point inputs; null for
/// every other kind. Resolved once per call, not per element.
template <typename T>
using UnaryFn = T (*)(T);
template <typename T>
UnaryFn<T> floatFn(OpKind k) {
  const std::pair<OpKind, UnaryFn<T>> table[] = {
      {OpKind::kExp, [](T x) { return std::exp(x); }},
      {OpKind::kLog, [](T x) { return std::log(x); }},
      {OpKind::kReciprocal, [](T x) { return T(1) / x; }},
      {OpKind::kFloor, [](T x) { return std::floor(x); }},
      {OpKind::kCeil, [](T x) { return std::ceil(x); }},
      {OpKind::kRound, [](T x) { return std::nearbyint(x); }},  // the default rounding mode: half to even, as ONNX
      {OpKind::kSin, [](T x) { return std::sin(x); }},
      {OpKind::kCos, [](T x) { return std::cos(x); }},
      {OpKind::kTan, [](T x) { return std::tan(x); }},
      {OpKind::kAsin, [](T x) { return std::asin(x); }},
      {OpKind::kAcos, [](T x) { return std::acos(x); }},
      {OpKind::kAtan, [](T x) { return std::atan(x); }},
      {OpKind::kSinh, [](T x) { return std::sinh(x); }},
      {OpKind::kCosh, [](T x) { return std::cosh(x); }},
      {OpKind::kAsinh, [](T x) { return std::asinh(x); }},
      {OpKind::kAcosh, [](T x) { return std::acosh(x); }},
      {OpKind::kAtanh, [](T x) { return std::atanh(x); }},
      // log(1 + e^x) without overflowing e^x.
      {OpKind::kSoftplus, [](T x) { return x > T(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }},
      {OpKind::kSoftsign, [](T x) { return x / (T(1) + std::abs(x)); }},
      {OpKind::kHardSwish, [](T x) { return x * std::max(T(0), std::min(T(1), x / T(6) + T(0.5))); }},
      {OpKind::kSilu, [](T x) { return x / (T(1) + std::exp(-x)); }},
  };
  for (const auto& [kind, fn] : table)
    if (kind == k) return fn;
  return nullptr;
}

/// An activation with coefficients from its attributes.
template <typename T>
T withCoefficients(OpKind k, const Attrs& a, T x) {
  if (k == OpKind::kHardSigmoid) {
    const auto& hs = std::get<AlphaBetaAttrs>(a);
    return std::max(T(0), std::min(T(1), T(hs.alpha) * x + T(hs.beta)));
  }
  if (k == OpKind::kSelu) {
    const auto& s = std::get<SeluAttrs>(a);
    return T(s.gamma) * (x > T(0) ? x : T(s.alpha) * (std::exp(x) - T(1)));
  }
  if (k == OpKind::kShrink) {
    const auto& sh = std::get<ShrinkAttrs>(a);
    return x < T(-sh.lambd) ? x + T(sh.bias) : x > T(sh.lambd) ? x - T(sh.bias) : T(0);
  }
  if (k == OpKind::kGelu) {
    if (std::get<GeluAttrs>(a).approximate == GeluApprox::kTanh) {
      const T inner = T(0.7978845608028654) * (x + T(0.044715) * x * x * x);  // sqrt(2/pi)
      return T(0.5) * x * (T(1) + std::tanh(inner));
    }
    return T(0.5) * x * (T(1) + std::erf(x * T(0.7071067811865476)));  // x / sqrt(2)
  }
  const T alpha = T(std::get<AlphaAttrs>(a).alpha);
  if (k == OpKind::kLeakyRelu) return x >= T(0) ? x : alpha * x;
  if (k == OpKind::kElu) return x >= T(0) ? x : alpha * (std::exp(x) - T(1));
  if (k == OpKind::kCelu) return std::max(T(0), x) + std::min(T(0), alpha * (std::exp(x / alpha) - T(1)));
  return x > alpha ? x : T(0);  // kThresholdedRelu
}

/// Applies f to every element of input 0 into a result of dtype `to`.
template <typename T, typename R, typename F>
Status mapInto(Ctx& c, DType to, F f) {
  const Tensor& x = c.in(0);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(to, x.shape()));
  const T* a = x.data<T>();
  R* o = out.data<R>();
  for (int64_t i = 0; i < x.numel(); ++i) o[i] = f(a[i]);
  c.out(0) = std::move(out);
  return Status::ok();
}

/// Neg, Abs, Sign on any numeric type.
template <typename T>
Status signOp(OpKind k, Ctx& c) {
  return mapInto<T, T>(c, c.in(0).dtype(), [k](T x) -> T {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;  // wrap instead of overflowing
      const U neg = static_cast<U>(U{0} - static_cast<U>(x));
      if (k == OpKind::kNeg) return static_cast<T>(neg);
      if (k == OpKind::kAbs) return x < T(0) ? static_cast<T>(neg) : x;
      return static_cast<T>((x > T(0)) - (x < T(0)));
    } else {
      if (k == OpKind::kNeg) return -x;
      if (k == OpKind::kAbs) return std::abs(x);
      return std::isnan(x) ? x : static_cast<T>((x > T(0)) - (x < T(0)));
    }
  });
}

/// IsNaN and IsInf: float in, bool out.
template <typename T>
Status predicate(OpKind k, const Attrs& a, Ctx& c) {
  if (k == OpKind::kIsNaN) return mapInto<T, uint8_t>(c, DType::kBool, [](T x) -> uint8_t { return std::isnan(x); });
  const auto& f = std::get<IsInfAttrs>(a);
  return mapInto<T, uint8_t>(c, DType::kBool, [&f](T x) -> uint8_t {
    return std::isinf(x) && ((x > 0 && f.detectPositive) || (x < 0 && f.detectNegative));
  });
}

/// Every float-only op, on element type T.
template <typename T>
Status floating(OpKind k, const Attrs& a, Ctx& c) {
  const DType t = c.in(0).dtype();
  if (k == OpKind::kIsNaN || k == OpKind::kIsInf) return predicate<T>(k, a, c);
  if (UnaryFn<T> fn = floatFn<T>(k)) return mapInto<T, T>(c, t, fn);
  return mapInto<T, T>(c, t, [k, &a](T x) { return withCoefficients(k, a, x); });
}

}  // namespace

Status activation(OpKind k, const Attrs& a, Ctx& c) {
  const DType t = c.in(0).dtype();
  if (k == OpKind::kNot) {
    ACCELC_TRY(c.expectType(0, {DType::kBool}));
    return mapInto<uint8_t, uint8_t>(c, DType::kBool, [](uint8_t x) -> uint8_t { return !x; });
  }
  if (k == OpKind::kNeg || k == OpKind::kAbs || k == OpKind::kSign) {
    if (t == DType::kBool) return c.expectType(0, {DType::kFloat32, DType::kFloat64, DType::kInt8, DType::kInt32, DType::kInt64});
    return visitDType(t, [&](auto v) { return signOp<decltype(v)>(k, c); });
  }
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64}));
  return visitFloat(t, [&](auto v) { return floating<decltype(v)>(k, a, c); });
}

}  // namespace accelc::runtime::kernels
