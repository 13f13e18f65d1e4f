// runtime/kernels/loss.cc — NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss:
// input [N, C, d1...], integer target [N, d1...], optional class weights [C].
// Sums accumulate in double; "mean" divides by the summed weights of the
// targets that count (an ignored target weighs 0). Input and weight are float32
// or float64 (one dtype per node); the losses and log_prob have that dtype.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// The input seen as [n, classes, inner].
struct LossShape {
  int64_t n = 0, classes = 0, inner = 1;
};

Status checkLossInputs(OpKind k, Ctx& c, LossShape& s) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64}));
  ACCELC_TRY(c.expectType(1, {DType::kInt64, DType::kInt32}));
  const Tensor &x = c.in(0), &t = c.in(1);
  const std::string op = opInfo(k).name;
  if (x.rank() < 2) return c.fail(op + " needs an input [N, C, ...], got rank " + std::to_string(x.rank()));
  Shape want = x.shape();
  want.erase(want.begin() + 1);
  if (t.shape() != want)
    return c.fail(op + " target must have shape " + support::shapeStr(want) + ", got " + support::shapeStr(t.shape()));
  s.n = x.dim(0), s.classes = x.dim(1);
  for (int64_t d = 2; d < x.rank(); ++d) s.inner *= x.dim(d);
  if (!c.has(2)) return Status::ok();
  ACCELC_TRY(c.expectType(2, {x.dtype()}));  // the weight shares the input's dtype
  if (c.in(2).shape() != Shape{s.classes})
    return c.fail(op + " weight must have shape " + std::to_string(s.classes) + ", got " + support::shapeStr(c.in(2).shape()));
  return Status::ok();
}

/// The per-target losses reduced as asked, in element type T: none keeps the
/// target's shape, sum and mean give a scalar.
template <typename T>
Status writeLoss(LossReduction r, const std::vector<double>& loss, const std::vector<double>& weight, Ctx& c) {
  double total = 0, weights = 0;
  for (size_t i = 0; i < loss.size(); ++i) total += loss[i], weights += weight[i];
  switch (r) {
    case LossReduction::kNone: {
      ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(dtypeOf<T>(), c.in(1).shape()));
      for (size_t i = 0; i < loss.size(); ++i) out.data<T>()[i] = static_cast<T>(loss[i]);
      c.out(0) = std::move(out);
      return Status::ok();
    }
    case LossReduction::kSum:
      c.out(0) = Tensor::of<T>({}, {static_cast<T>(total)});
      return Status::ok();
    case LossReduction::kMean:  // no weight counts (all ignored, or no targets): 0/0 = NaN, as ONNX's reference
      c.out(0) = Tensor::of<T>({}, {static_cast<T>(total / weights)});
      return Status::ok();
  }
  return c.fail("unknown loss reduction");
}

/// loss[i, d] = -logp[i, target, d] * weight[target]; an ignored target gives 0 and weighs 0.
template <typename T>
Status negativeLogLikelihood(const LossAttrs& a, const LossShape& s, const T* logp, Ctx& c) {
  const Tensor& target = c.in(1);
  const T* w = c.has(2) ? c.in(2).data<T>() : nullptr;
  std::vector<double> loss(static_cast<size_t>(target.numel()), 0.0), weight(loss.size(), 0.0);
  for (int64_t i = 0; i < s.n; ++i)
    for (int64_t d = 0; d < s.inner; ++d) {
      const int64_t e = i * s.inner + d, cls = target.intAt(e);
      if (a.ignoreIndex != LossAttrs::kNoIgnore && cls == a.ignoreIndex) continue;
      if (cls < 0 || cls >= s.classes)
        return c.fail("target " + std::to_string(cls) + " is out of range [0, " + std::to_string(s.classes) + ")");
      weight[e] = w ? static_cast<double>(w[cls]) : 1.0;
      loss[e] = -static_cast<double>(logp[(i * s.classes + cls) * s.inner + d]) * weight[e];
    }
  return writeLoss<T>(a.reduction, loss, weight, c);
}

/// log(softmax(x)) over the class axis (axis 1).
template <typename T>
Status logSoftmaxOverClasses(const LossShape& s, Ctx& c, Tensor& logp) {
  const Tensor& x = c.in(0);
  ACCELC_ASSIGN_OR_RETURN(logp, c.alloc(x.dtype(), x.shape()));
  const T* src = x.data<T>();
  T* dst = logp.data<T>();
  for (int64_t i = 0; i < s.n; ++i)
    for (int64_t d = 0; d < s.inner; ++d) {
      const int64_t base = i * s.classes * s.inner + d;
      double mx = -std::numeric_limits<double>::infinity(), sum = 0;
      for (int64_t k = 0; k < s.classes; ++k) mx = std::max<double>(mx, src[base + k * s.inner]);
      for (int64_t k = 0; k < s.classes; ++k) sum += std::exp(static_cast<double>(src[base + k * s.inner]) - mx);
      for (int64_t k = 0; k < s.classes; ++k)
        dst[base + k * s.inner] = static_cast<T>(static_cast<double>(src[base + k * s.inner]) - mx - std::log(sum));
    }
  return Status::ok();
}

template <typename T>
Status lossOf(OpKind k, const LossAttrs& a, const LossShape& s, Ctx& c) {
  if (k == OpKind::kNegativeLogLikelihoodLoss) return negativeLogLikelihood(a, s, c.in(0).data<T>(), c);
  Tensor logp;  // SoftmaxCrossEntropyLoss: the NLL of the log-probabilities, which are output 1
  ACCELC_TRY(logSoftmaxOverClasses<T>(s, c, logp));
  ACCELC_TRY(negativeLogLikelihood(a, s, logp.data<T>(), c));
  if (c.outputs() > 1) c.out(1) = std::move(logp);
  return Status::ok();
}

}  // namespace

Status loss(OpKind k, const LossAttrs& a, Ctx& c) {
  LossShape s;
  ACCELC_TRY(checkLossInputs(k, c, s));
  // checkLossInputs admits float32 and float64 only.
  return visitFloat(c.in(0).dtype(), [&](auto v) { return lossOf<decltype(v)>(k, a, s, c); });
}

}  // namespace accelc::runtime::kernels
