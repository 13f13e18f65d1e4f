// runtime/kernels/elementwise.cc — unary and broadcasting binary ops, Clip,
// Cast, Identity, Dropout (inference: identity).
#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/internal/broadcast.h"
#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// The type integer arithmetic wraps in (unsigned), floats unchanged.
template <typename T, bool = std::is_integral_v<T>>
struct Wrapping {
  using type = T;
};
template <typename T>
struct Wrapping<T, true> {
  using type = std::make_unsigned_t<T>;
};

template <typename T>
Status binary(OpKind k, Ctx& c, const Shape& shape) {
  const Tensor &x = c.in(0), &y = c.in(1);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), shape));
  const T* a = x.data<T>();
  T* o = out.data<T>();
  const Shape sa = broadcastStrides(x.shape(), shape), sb = broadcastStrides(y.shape(), shape);
  if (k == OpKind::kPow) {  // the exponent may have another type
    const bool floats = std::is_same_v<T, float> && y.dtype() == DType::kFloat32;
    forEachBroadcast(shape, sa, sb, [&](int64_t i, int64_t ia, int64_t ib) {
      if constexpr (std::is_integral_v<T>) {  // exponentiation by squaring, wrapping like ONNX's integers
        using W = typename Wrapping<T>::type;
        W base = static_cast<W>(a[ia]), r = 1;
        int64_t e = static_cast<int64_t>(y.at(ib));
        for (; e > 0; e >>= 1, base = static_cast<W>(base * base))
          if (e & 1) r = static_cast<W>(r * base);
        o[i] = e < 0 ? T{0} : static_cast<T>(r);
      } else {
        o[i] = floats ? static_cast<T>(std::pow(static_cast<float>(a[ia]), static_cast<float>(y.at(ib))))
                      : static_cast<T>(std::pow(static_cast<double>(a[ia]), y.at(ib)));
      }
    });
    c.out(0) = std::move(out);
    return Status::ok();
  }
  if (y.dtype() != x.dtype())
    return c.fail(std::string("inputs have dtypes ") + support::dtypeName(x.dtype()) + " and " +
                  support::dtypeName(y.dtype()) + "; expected one dtype");
  const T* b = y.data<T>();
  bool divByZero = false;
  forEachBroadcast(shape, sa, sb, [&](int64_t i, int64_t ia, int64_t ib) {
    using W = typename Wrapping<T>::type;  // integers wrap
    if (k == OpKind::kAdd) {
      o[i] = static_cast<T>(static_cast<W>(a[ia]) + static_cast<W>(b[ib]));
    } else if (k == OpKind::kSub) {
      o[i] = static_cast<T>(static_cast<W>(a[ia]) - static_cast<W>(b[ib]));
    } else if (k == OpKind::kMul) {
      o[i] = static_cast<T>(static_cast<W>(a[ia]) * static_cast<W>(b[ib]));
    } else if (std::is_integral_v<T> && b[ib] == 0) {  // kDiv
      divByZero = true;
      o[i] = 0;
    } else if (std::is_signed_v<T> && std::is_integral_v<T> && b[ib] == T(-1)) {  // no INT_MIN / -1 trap
      o[i] = static_cast<T>(W{0} - static_cast<W>(a[ia]));
    } else {
      o[i] = static_cast<T>(a[ia] / b[ib]);
    }
  });
  if (divByZero) return c.fail("integer division by zero");
  c.out(0) = std::move(out);
  return Status::ok();
}

/// Relu, Sigmoid, Tanh, Erf or Sqrt of one float or double.
template <typename T>
T unaryFloat(OpKind k, T v) {
  if (k == OpKind::kRelu) return v > 0 ? v : T(0);
  if (k == OpKind::kSigmoid) return T(1) / (T(1) + std::exp(-v));
  if (k == OpKind::kTanh) return std::tanh(v);
  if (k == OpKind::kErf) return std::erf(v);
  return std::sqrt(v);
}

template <typename T>
void unaryFloats(OpKind k, const Tensor& x, Tensor& out) {
  const T* a = x.data<T>();
  T* o = out.data<T>();
  for (int64_t i = 0; i < x.numel(); ++i) o[i] = unaryFloat(k, a[i]);
}

Status unary(OpKind k, Ctx& c) {
  const Tensor& x = c.in(0);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), x.shape()));
  if (x.dtype() == DType::kFloat32 || x.dtype() == DType::kFloat64) {
    visitFloat(x.dtype(), [&](auto v) { unaryFloats<decltype(v)>(k, x, out); });
  } else if (k == OpKind::kRelu && x.dtype() != DType::kBool) {
    visitDType(x.dtype(), [&](auto t) {
      using T = decltype(t);
      for (int64_t i = 0; i < x.numel(); ++i) out.data<T>()[i] = std::max<T>(x.data<T>()[i], T{0});
    });
  } else {
    return c.expectType(0, {DType::kFloat32, DType::kFloat64});
  }
  c.out(0) = std::move(out);
  return Status::ok();
}

Status clip(Ctx& c) {
  const Tensor& x = c.in(0);
  Tensor out = x;
  Status st = visitDType(x.dtype(), [&](auto t) -> Status {
    using T = decltype(t);
    T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
    for (int i : {1, 2}) {
      if (!c.has(i)) continue;
      if (c.in(i).dtype() != x.dtype() || c.in(i).numel() != 1) return c.fail("Clip bounds must be scalars of the input's dtype");
      (i == 1 ? lo : hi) = c.in(i).data<T>()[0];
    }
    T* o = out.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = std::min(std::max(o[i], lo), hi);
    return Status::ok();
  });
  ACCELC_TRY(st);
  c.out(0) = std::move(out);
  return Status::ok();
}

Status cast(const CastAttrs& a, Ctx& c) {
  const Tensor& x = c.in(0);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(a.to, x.shape()));
  const bool fromFloat = support::isFloatDType(x.dtype());
  visitDType(a.to, [&](auto t) {
    using T = decltype(t);
    T* o = out.data<T>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        o[i] = static_cast<T>(x.at(i));
      } else if (a.to == DType::kBool) {
        o[i] = x.at(i) != 0;
      } else if (!fromFloat) {  // integer to integer: two's complement wrap
        o[i] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<uint64_t>(x.intAt(i))));
      } else {  // float to integer: truncate toward zero, saturate out-of-range values, NaN -> 0
        const double v = x.at(i), lo = static_cast<double>(std::numeric_limits<T>::lowest());
        const double hi = std::nextafter(static_cast<double>(std::numeric_limits<T>::max()), 0.0);
        o[i] = std::isnan(v) ? T{0} : v <= lo ? std::numeric_limits<T>::lowest()
                                    : v >= hi ? std::numeric_limits<T>::max() : static_cast<T>(std::trunc(v));
      }
    }
  });
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace

Status elementwise(OpKind k, const Attrs& a, Ctx& c) {
  if (k == OpKind::kAdd || k == OpKind::kSub || k == OpKind::kMul || k == OpKind::kDiv || k == OpKind::kPow) {
    Shape shape;
    if (!broadcastShape(c.in(0).shape(), c.in(1).shape(), shape))
      return c.fail("shapes " + support::shapeStr(c.in(0).shape()) + " and " + support::shapeStr(c.in(1).shape()) +
                    " do not broadcast");
    if (c.in(0).dtype() == DType::kBool) return c.expectType(0, {DType::kFloat32, DType::kInt32, DType::kInt64});
    return visitDType(c.in(0).dtype(), [&](auto t) { return binary<decltype(t)>(k, c, shape); });
  }
  if (k == OpKind::kClip) return clip(c);
  if (k == OpKind::kCast) return cast(std::get<CastAttrs>(a), c);
  if (k == OpKind::kIdentity || k == OpKind::kDropout) {
    c.out(0) = c.in(0);
    if (c.outputs() > 1) {  // Dropout's mask: all true at inference
      ACCELC_ASSIGN_OR_RETURN(c.out(1), c.alloc(DType::kBool, c.in(0).shape()));
      std::fill(c.out(1).bytes().begin(), c.out(1).bytes().end(), 1);
    }
    return Status::ok();
  }
  return unary(k, c);
}

}  // namespace accelc::runtime::kernels
