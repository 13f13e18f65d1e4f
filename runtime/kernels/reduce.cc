// runtime/kernels/reduce.cc — Reduce* over axes, ArgMax/ArgMin, LogSoftmax,
// Hardmax, CumSum and TopK: ops that reduce, scan or rank along axes. Floats
// accumulate in double and round once; integers wrap (two's complement).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// What a reduction accumulates T in: double for floats; uint64 for integers,
/// whose wrap-around truncates to T's own wrap-around.
template <typename T>
using AccOf = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;

template <typename T>
bool isNan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  return false;
}

/// a ranks above b, NaN above everything (numpy's order): a strict weak order.
template <typename T>
bool above(T a, T b) {
  if (isNan(a)) return !isNan(b);
  return !isNan(b) && a > b;
}

/// |v| in the accumulator type (no overflow at INT_MIN: it wraps in uint64).
template <typename T>
AccOf<T> absAcc(T v) {
  if constexpr (std::is_signed_v<T>)
    if (v < 0) return AccOf<T>{0} - static_cast<AccOf<T>>(v);
  return static_cast<AccOf<T>>(v);
}

/// The start of a max (min when `high`): -inf/+inf for floats, else the type's extremes.
template <typename T>
T extremeOf(bool high) {
  using L = std::numeric_limits<T>;
  if constexpr (L::has_infinity) return high ? L::infinity() : -L::infinity();
  return high ? L::max() : L::lowest();
}

const char* nameOf(OpKind k) { return opInfo(k).name; }

// ---- Reduce* ---------------------------------------------------------------

/// The shapes of one Reduce* node's result.
struct ReducePlan {
  Shape full;        ///< the result with reduced axes kept as 1
  Shape result;      ///< the result's shape (keepdims or not)
  Shape outStrides;  ///< per input axis: the stride in the result, 0 on reduced axes
};

/// Calls f(i, o) for every input element i with the result element o it reduces into.
template <typename F>
void forEachReduced(const Shape& in, const Shape& outStrides, F f) {
  const int64_t n = support::shapeElements(in), r = static_cast<int64_t>(in.size());
  Shape idx(in.size(), 0);
  int64_t o = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(i, o);
    for (int64_t d = r - 1; d >= 0; --d) {  // odometer, last axis fastest
      o += outStrides[d];
      if (++idx[d] < in[d]) break;
      o -= outStrides[d] * in[d];
      idx[d] = 0;
    }
  }
}

/// The axes: input 1 (ReduceSum opset 13+, the others 18+) when given, else the attribute.
Status readAxes(const ReduceAttrs& a, Ctx& c, Ints& axes) {
  axes = a.axes;
  if (!c.has(1)) return Status::ok();
  ACCELC_TRY(c.expectType(1, {DType::kInt64, DType::kInt32}));
  if (c.in(1).rank() > 1) return c.fail("reduction axes must be 1-D, got rank " + std::to_string(c.in(1).rank()));
  axes.clear();
  for (int64_t i = 0; i < c.in(1).numel(); ++i) axes.push_back(c.in(1).intAt(i));
  return Status::ok();
}

Status planReduce(const Ints& axes, const ReduceAttrs& a, Ctx& c, ReducePlan& p) {
  const Tensor& x = c.in(0);
  std::vector<bool> reduced(x.rank(), axes.empty());  // empty axes: all of them
  for (int64_t ax : axes) {
    const int64_t given = ax;
    if (!normAxis(ax, x.rank()))
      return c.fail("reduction axis " + std::to_string(given) + " out of range for rank " + std::to_string(x.rank()));
    if (reduced[ax]) return c.fail("reduction axis " + std::to_string(given) + " is given twice");
    reduced[ax] = true;
  }
  for (int64_t d = 0; d < x.rank(); ++d) {
    p.full.push_back(reduced[d] ? 1 : x.dim(d));
    if (!reduced[d] || a.keepdims) p.result.push_back(p.full.back());
  }
  const Shape st = stridesOf(p.full);
  for (int64_t d = 0; d < x.rank(); ++d) p.outStrides.push_back(reduced[d] ? 0 : st[d]);
  return Status::ok();
}

/// Folds every reduced element into its accumulator, starting at `init`
/// (the result for an empty reduction, as ONNX defines), then maps it through `finish`.
template <typename T, typename Acc, typename Step, typename Finish>
Status reduceWith(const ReducePlan& p, Ctx& c, Acc init, Step step, Finish finish) {
  const Tensor& x = c.in(0);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), p.result));
  std::vector<Acc> acc(static_cast<size_t>(out.numel()), init);
  const T* src = x.data<T>();
  forEachReduced(x.shape(), p.outStrides, [&](int64_t i, int64_t o) { acc[o] = step(acc[o], src[i]); });
  T* dst = out.data<T>();
  for (size_t o = 0; o < acc.size(); ++o) dst[o] = finish(acc[o]);
  c.out(0) = std::move(out);
  return Status::ok();
}

/// log(sum(exp(x))) with the maximum taken out first, so large inputs do not overflow.
template <typename T>
Status reduceLogSumExp(const ReducePlan& p, Ctx& c) {
  const Tensor& x = c.in(0);
  const T* src = x.data<T>();
  const size_t n = static_cast<size_t>(support::shapeElements(p.full));
  std::vector<double> mx(n, -std::numeric_limits<double>::infinity());
  forEachReduced(x.shape(), p.outStrides, [&](int64_t i, int64_t o) { mx[o] = std::max<double>(mx[o], src[i]); });
  auto step = [&](double s, int64_t i, int64_t o) { return std::isinf(mx[o]) ? s : s + std::exp(src[i] - mx[o]); };
  std::vector<double> sum(n, 0.0);
  forEachReduced(x.shape(), p.outStrides, [&](int64_t i, int64_t o) { sum[o] = step(sum[o], i, o); });
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), p.result));
  for (size_t o = 0; o < n; ++o)  // an empty reduction gives -inf; an infinite maximum itself
    out.data<T>()[o] = static_cast<T>(std::isinf(mx[o]) ? mx[o] : mx[o] + std::log(sum[o]));
  c.out(0) = std::move(out);
  return Status::ok();
}

template <typename T>
Status reduceTyped(OpKind k, const ReducePlan& p, Ctx& c) {
  using A = AccOf<T>;
  auto cast = [](auto v) { return static_cast<T>(v); };
  auto add = [](A s, T v) { return static_cast<A>(s + static_cast<A>(v)); };
  auto addSquare = [](A s, T v) { return static_cast<A>(s + static_cast<A>(v) * static_cast<A>(v)); };
  auto addAbs = [](A s, T v) { return static_cast<A>(s + absAcc(v)); };
  if (k == OpKind::kReduceSum) return reduceWith<T>(p, c, A{0}, add, cast);
  if (k == OpKind::kReduceSumSquare) return reduceWith<T>(p, c, A{0}, addSquare, cast);
  if (k == OpKind::kReduceL1) return reduceWith<T>(p, c, A{0}, addAbs, cast);
  if (k == OpKind::kReduceProd)
    return reduceWith<T>(p, c, A{1}, [](A s, T v) { return static_cast<A>(s * static_cast<A>(v)); }, cast);
  if (k == OpKind::kReduceMax)  // an empty reduction gives the lowest value (-inf for floats)
    return reduceWith<T>(p, c, extremeOf<T>(false), [](T m, T v) { return above(v, m) ? v : m; }, cast);
  if (k == OpKind::kReduceMin)
    return reduceWith<T>(p, c, extremeOf<T>(true), [](T m, T v) { return !isNan(m) && (isNan(v) || v < m) ? v : m; }, cast);
  if constexpr (std::is_floating_point_v<T>) {  // the rest are float-only (checked by the caller)
    if (k == OpKind::kReduceL2) return reduceWith<T>(p, c, A{0}, addSquare, [](A s) { return T(std::sqrt(s)); });
    if (k == OpKind::kReduceLogSum) return reduceWith<T>(p, c, A{0}, add, [](A s) { return T(std::log(s)); });
    if (k == OpKind::kReduceLogSumExp) return reduceLogSumExp<T>(p, c);
  }
  return c.fail(std::string(nameOf(k)) + " does not support dtype " + support::dtypeName(c.in(0).dtype()));
}

Status reduceAxes(OpKind k, const ReduceAttrs& a, Ctx& c) {
  const bool floatOnly = k == OpKind::kReduceL2 || k == OpKind::kReduceLogSum || k == OpKind::kReduceLogSumExp;
  if (floatOnly) ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64}));
  else ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64, DType::kInt8, DType::kUint8, DType::kInt16, DType::kUint16}));
  Ints axes;
  ACCELC_TRY(readAxes(a, c, axes));
  if (axes.empty() && a.noopWithEmptyAxes) {  // the spec: the input unchanged (for every Reduce*)
    c.out(0) = c.in(0);
    return Status::ok();
  }
  ReducePlan p;
  ACCELC_TRY(planReduce(axes, a, c, p));
  return visitDType(c.in(0).dtype(), [&](auto t) { return reduceTyped<decltype(t)>(k, p, c); });
}

// ---- ops along one axis ----------------------------------------------------

/// A tensor seen as [outer, n, inner] around one axis (legacy: n is every axis from `axis` on).
struct AxisSplit {
  int64_t outer = 1, n = 1, inner = 1;
  int64_t at(int64_t o, int64_t k, int64_t j) const { return (o * n + k) * inner + j; }
};

AxisSplit splitAt(const Shape& s, int64_t axis, bool legacy) {
  AxisSplit r;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
    (d < axis ? r.outer : d == axis || legacy ? r.n : r.inner) *= s[d];
  return r;
}

/// Calls f(o, j) once per lane: the n elements at s.at(o, 0..n-1, j).
template <typename F>
void forEachLane(const AxisSplit& s, F f) {
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t j = 0; j < s.inner; ++j) f(o, j);
}

Status axisOf(const char* op, int64_t& axis, const Tensor& x, Ctx& c) {
  const int64_t given = axis;
  if (normAxis(axis, x.rank())) return Status::ok();
  return c.fail(std::string(op) + " axis " + std::to_string(given) + " out of range for rank " + std::to_string(x.rank()));
}

template <typename T>
Status argReduce(bool isMax, const ArgAttrs& a, int64_t axis, Ctx& c) {
  const Tensor& x = c.in(0);
  const AxisSplit s = splitAt(x.shape(), axis, false);
  if (s.n == 0 && s.outer * s.inner > 0) return c.fail("ArgMax/ArgMin over an empty axis has no answer");
  Shape shape = x.shape();
  if (a.keepdims) shape[axis] = 1;
  else shape.erase(shape.begin() + axis);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kInt64, shape));
  const T* src = x.data<T>();
  forEachLane(s, [&](int64_t o, int64_t j) {
    int64_t best = 0;
    for (int64_t k = 1; k < s.n; ++k) {
      const T v = src[s.at(o, k, j)], b = src[s.at(o, best, j)];
      const bool better = isMax ? above(v, b) : above(b, v);
      if (better || (a.selectLastIndex && !above(v, b) && !above(b, v))) best = k;
    }
    out.data<int64_t>()[o * s.inner + j] = best;
  });
  c.out(0) = std::move(out);
  return Status::ok();
}

Status argOp(OpKind k, const ArgAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64, DType::kInt8, DType::kUint8, DType::kInt16, DType::kUint16}));
  int64_t axis = a.axis;
  ACCELC_TRY(axisOf(nameOf(k), axis, c.in(0), c));
  return visitDType(c.in(0).dtype(), [&](auto t) { return argReduce<decltype(t)>(k == OpKind::kArgMax, a, axis, c); });
}

/// LogSoftmax (x - max - log(sum(exp(x - max)))) or Hardmax (1 at the first maximum).
template <typename T>
Status softmaxLikeTyped(OpKind k, const AxisSplit& s, Ctx& c) {
  const Tensor& x = c.in(0);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), x.shape()));
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  forEachLane(s, [&](int64_t o, int64_t j) {
    if (s.n == 0) return;
    int64_t best = 0;
    for (int64_t m = 1; m < s.n; ++m)
      if (above(src[s.at(o, m, j)], src[s.at(o, best, j)])) best = m;
    if (k == OpKind::kHardmax) {
      dst[s.at(o, best, j)] = T(1);
      return;
    }
    const double mx = src[s.at(o, best, j)];
    double sum = 0;
    for (int64_t m = 0; m < s.n; ++m) sum += std::exp(src[s.at(o, m, j)] - mx);
    for (int64_t m = 0; m < s.n; ++m) dst[s.at(o, m, j)] = static_cast<T>(src[s.at(o, m, j)] - mx - std::log(sum));
  });
  c.out(0) = std::move(out);
  return Status::ok();
}

Status softmaxLike(OpKind k, const SoftmaxAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64}));
  int64_t axis = a.axis;
  ACCELC_TRY(axisOf(nameOf(k), axis, c.in(0), c));
  const AxisSplit s = splitAt(c.in(0).shape(), axis, a.legacy != 0);
  return visitFloat(c.in(0).dtype(), [&](auto v) { return softmaxLikeTyped<decltype(v)>(k, s, c); });
}

template <typename T>
Status cumSumTyped(const CumSumAttrs& a, int64_t axis, Ctx& c) {
  const Tensor& x = c.in(0);
  const AxisSplit s = splitAt(x.shape(), axis, false);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), x.shape()));
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  forEachLane(s, [&](int64_t o, int64_t j) {
    AccOf<T> acc = 0;
    for (int64_t t = 0; t < s.n; ++t) {
      const int64_t i = s.at(o, a.reverse ? s.n - 1 - t : t, j);
      if (a.exclusive) dst[i] = static_cast<T>(acc);  // exclusive: the sum before this element
      acc = static_cast<AccOf<T>>(acc + static_cast<AccOf<T>>(src[i]));
      if (!a.exclusive) dst[i] = static_cast<T>(acc);
    }
  });
  c.out(0) = std::move(out);
  return Status::ok();
}

/// Reads a one-value integer input (CumSum's axis, TopK's K).
Status scalarInput(int i, const char* what, Ctx& c, int64_t& v) {
  ACCELC_TRY(c.expectType(i, {DType::kInt64, DType::kInt32}));
  if (c.in(i).numel() != 1 || c.in(i).rank() > 1)
    return c.fail(std::string(what) + " must be a single value, got shape " + support::shapeStr(c.in(i).shape()));
  v = c.in(i).intAt(0);
  return Status::ok();
}

Status cumSum(const CumSumAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64}));
  int64_t axis = 0;
  ACCELC_TRY(scalarInput(1, "CumSum's axis", c, axis));
  ACCELC_TRY(axisOf("CumSum", axis, c.in(0), c));
  return visitDType(c.in(0).dtype(), [&](auto t) { return cumSumTyped<decltype(t)>(a, axis, c); });
}

template <typename T>
Status topKTyped(const TopKAttrs& a, int64_t axis, int64_t k, Ctx& c) {
  const Tensor& x = c.in(0);
  const AxisSplit s = splitAt(x.shape(), axis, false);
  Shape shape = x.shape();
  shape[axis] = k;
  ACCELC_ASSIGN_OR_RETURN(Tensor values, c.alloc(x.dtype(), shape));
  ACCELC_ASSIGN_OR_RETURN(Tensor indices, c.alloc(DType::kInt64, shape));
  const T* src = x.data<T>();
  const AxisSplit o = {s.outer, k, s.inner};
  std::vector<int64_t> order(static_cast<size_t>(s.n));
  forEachLane(s, [&](int64_t l, int64_t j) {
    auto ranksFirst = [&](int64_t p, int64_t q) {  // ties: the lower index first
      const T u = src[s.at(l, p, j)], v = src[s.at(l, q, j)];
      const bool pAbove = a.largest ? above(u, v) : above(v, u), qAbove = a.largest ? above(v, u) : above(u, v);
      return pAbove || (!qAbove && p < q);
    };
    std::iota(order.begin(), order.end(), int64_t{0});
    std::partial_sort(order.begin(), order.begin() + k, order.end(), ranksFirst);
    for (int64_t m = 0; m < k; ++m) {  // unsorted output may come in any order: sorted is one
      values.data<T>()[o.at(l, m, j)] = src[s.at(l, order[m], j)];
      indices.data<int64_t>()[o.at(l, m, j)] = order[m];
    }
  });
  c.out(0) = std::move(values);
  if (c.outputs() > 1) c.out(1) = std::move(indices);
  return Status::ok();
}

Status topK(const TopKAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64, DType::kInt8, DType::kUint8, DType::kInt16, DType::kUint16}));
  int64_t axis = a.axis, k = 0;
  ACCELC_TRY(axisOf("TopK", axis, c.in(0), c));
  ACCELC_TRY(scalarInput(1, "TopK's K", c, k));
  if (k < 0 || k > c.in(0).dim(axis))
    return c.fail("TopK's K must be in [0, " + std::to_string(c.in(0).dim(axis)) + "], got " + std::to_string(k));
  return visitDType(c.in(0).dtype(), [&](auto t) { return topKTyped<decltype(t)>(a, axis, k, c); });
}

}  // namespace

Status reduce(OpKind k, const Attrs& a, Ctx& c) {
  if (k == OpKind::kArgMax || k == OpKind::kArgMin) return argOp(k, std::get<ArgAttrs>(a), c);
  if (k == OpKind::kLogSoftmax || k == OpKind::kHardmax) return softmaxLike(k, std::get<SoftmaxAttrs>(a), c);
  if (k == OpKind::kCumSum) return cumSum(std::get<CumSumAttrs>(a), c);
  if (k == OpKind::kTopK) return topK(std::get<TopKAttrs>(a), c);
  return reduceAxes(k, std::get<ReduceAttrs>(a), c);
}

}  // namespace accelc::runtime::kernels
