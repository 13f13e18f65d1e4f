// runtime/kernels/normalize.cc — BatchNormalization (inference), LayerNormalization,
// InstanceNormalization, LpNormalization, ReduceMean and Softmax: ops that
// reduce along axes. Float32 in, float32 out (InstanceNormalization and
// LpNormalization also float64 in, float64 out); reductions accumulate in double.
#include <cmath>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

Status batchNorm(const NormAttrs& a, Ctx& c) {
  for (int i = 0; i < 5; ++i) ACCELC_TRY(c.expectType(i, {DType::kFloat32}));
  const Tensor& x = c.in(0);
  if (x.rank() < 2) return c.fail("BatchNormalization needs rank >= 2");
  if (c.outputs() > 1 && !a.trainingMode) return c.fail("BatchNormalization's extra outputs exist only in training mode");
  const int64_t n = x.dim(0), ch = x.dim(1), inner = x.numel() / std::max<int64_t>(n * ch, 1);
  for (int i = 1; i < 5; ++i)
    if (c.in(i).numel() != ch) return c.fail("BatchNormalization input " + std::to_string(i) + " must have " + std::to_string(ch) + " values");
  const float *s = c.in(1).data<float>(), *b = c.in(2).data<float>();
  std::vector<float> mean(c.in(3).data<float>(), c.in(3).data<float>() + ch);
  std::vector<float> var(c.in(4).data<float>(), c.in(4).data<float>() + ch);
  if (a.trainingMode) {  // the batch's own statistics; outputs 1 and 2 are the updated running ones
    ACCELC_ASSIGN_OR_RETURN(Tensor runMean, c.alloc(DType::kFloat32, {ch}));
    ACCELC_ASSIGN_OR_RETURN(Tensor runVar, c.alloc(DType::kFloat32, {ch}));
    for (int64_t k = 0; k < ch; ++k) {
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < inner; ++j) {
          const double v = x.data<float>()[(i * ch + k) * inner + j];
          sum += v, sq += v * v;
        }
      const double cnt = static_cast<double>(n * inner), m = sum / cnt;
      runMean.data<float>()[k] = static_cast<float>(mean[k] * a.momentum + m * (1 - a.momentum));
      runVar.data<float>()[k] = static_cast<float>(var[k] * a.momentum + (sq / cnt - m * m) * (1 - a.momentum));
      mean[k] = static_cast<float>(m), var[k] = static_cast<float>(sq / cnt - m * m);
    }
    if (c.outputs() > 1) c.out(1) = std::move(runMean);
    if (c.outputs() > 2) c.out(2) = std::move(runVar);
  }
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kFloat32, x.shape()));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < ch; ++k) {
      const float scale = s[k] / std::sqrt(var[k] + a.epsilon), shift = b[k] - mean[k] * scale;
      const float* src = x.data<float>() + (i * ch + k) * inner;
      float* dst = out.data<float>() + (i * ch + k) * inner;
      for (int64_t j = 0; j < inner; ++j) dst[j] = src[j] * scale + shift;
    }
  c.out(0) = std::move(out);
  return Status::ok();
}

Status layerNorm(const NormAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32}));
  const Tensor& x = c.in(0);
  int64_t axis = a.axis;
  if (!normAxis(axis, x.rank())) return c.fail("LayerNormalization axis out of range");
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < x.rank(); ++i) (i < axis ? outer : inner) *= x.dim(i);
  if (c.in(1).numel() != inner || (c.has(2) && c.in(2).numel() != inner))
    return c.fail("LayerNormalization scale and bias must have " + std::to_string(inner) + " values");
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kFloat32, x.shape()));
  Shape statShape = x.shape();  // Mean and InvStdDev keep the normalized axes as 1
  for (int64_t i = axis; i < x.rank(); ++i) statShape[i] = 1;
  ACCELC_ASSIGN_OR_RETURN(Tensor meanOut, c.alloc(DType::kFloat32, statShape));
  ACCELC_ASSIGN_OR_RETURN(Tensor invOut, c.alloc(DType::kFloat32, statShape));
  for (int64_t o = 0; o < outer; ++o) {
    const float* src = x.data<float>() + o * inner;
    double mean = 0, var = 0;
    for (int64_t j = 0; j < inner; ++j) mean += src[j];
    mean /= static_cast<double>(inner);
    for (int64_t j = 0; j < inner; ++j) var += (src[j] - mean) * (src[j] - mean);
    var /= static_cast<double>(inner);
    const double inv = 1.0 / std::sqrt(var + a.epsilon);
    meanOut.data<float>()[o] = static_cast<float>(mean), invOut.data<float>()[o] = static_cast<float>(inv);
    for (int64_t j = 0; j < inner; ++j)
      out.data<float>()[o * inner + j] = static_cast<float>((src[j] - mean) * inv * c.in(1).at(j) + (c.has(2) ? c.in(2).at(j) : 0.0));
  }
  c.out(0) = std::move(out);
  if (c.outputs() > 1) c.out(1) = std::move(meanOut);
  if (c.outputs() > 2) c.out(2) = std::move(invOut);
  return Status::ok();
}

Status reduceMean(const ReduceAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32}));
  const Tensor& x = c.in(0);
  Ints axes = a.axes;
  if (c.has(1))
    for (int64_t i = 0; i < c.in(1).numel(); ++i) axes.push_back(c.in(1).intAt(i));
  if (axes.empty() && a.noopWithEmptyAxes) {
    c.out(0) = x;
    return Status::ok();
  }
  std::vector<bool> reduce(x.rank(), axes.empty());
  for (int64_t ax : axes) {
    if (!normAxis(ax, x.rank())) return c.fail("ReduceMean axis out of range");
    reduce[ax] = true;
  }
  Shape kept, full;
  for (int64_t i = 0; i < x.rank(); ++i) {
    full.push_back(reduce[i] ? 1 : x.dim(i));
    if (!reduce[i]) kept.push_back(x.dim(i));
  }
  std::vector<double> sum(support::shapeElements(full), 0.0);
  const Shape inSt = stridesOf(x.shape()), outSt = stridesOf(full);
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t o = 0;
    for (int64_t d = 0; d < x.rank(); ++d) o += reduce[d] ? 0 : ((i / inSt[d]) % x.dim(d)) * outSt[d];
    sum[o] += x.data<float>()[i];
  }
  const double count = static_cast<double>(x.numel()) / static_cast<double>(std::max<size_t>(sum.size(), 1));
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kFloat32, a.keepdims ? full : kept));
  for (size_t i = 0; i < sum.size(); ++i) out.data<float>()[i] = static_cast<float>(sum[i] / count);
  c.out(0) = std::move(out);
  return Status::ok();
}

Status softmax(const SoftmaxAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32}));
  const Tensor& x = c.in(0);
  int64_t axis = a.axis;
  if (!normAxis(axis, x.rank())) return c.fail("Softmax axis out of range");
  int64_t outer = 1, n = 1, inner = 1;  // legacy: 2-D at axis; else along one axis
  for (int64_t i = 0; i < x.rank(); ++i) (i < axis ? outer : i == axis || a.legacy ? n : inner) *= x.dim(i);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kFloat32, x.shape()));
  if (n == 0) {
    c.out(0) = std::move(out);
    return Status::ok();
  }
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      const float* src = x.data<float>() + o * n * inner + j;
      float* dst = out.data<float>() + o * n * inner + j;
      float mx = src[0];
      for (int64_t k = 1; k < n; ++k) mx = std::max(mx, src[k * inner]);
      double sum = 0;
      for (int64_t k = 0; k < n; ++k) sum += std::exp(static_cast<double>(src[k * inner] - mx));
      for (int64_t k = 0; k < n; ++k) dst[k * inner] = static_cast<float>(std::exp(static_cast<double>(src[k * inner] - mx)) / sum);
    }
  c.out(0) = std::move(out);
  return Status::ok();
}

/// Inputs 0..n-1 share one float dtype, float32 or float64 (the result's).
Status expectSameFloat(Ctx& c, int n) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64}));
  for (int i = 1; i < n; ++i) ACCELC_TRY(c.expectSameType(0, i));
  return Status::ok();
}

/// The planes of InstanceNormalization, statistics in double.
template <typename T>
void instanceNormPlanes(double epsilon, int64_t ch, int64_t planes, int64_t inner, Ctx& c, Tensor& out) {
  for (int64_t p = 0; p < planes; ++p) {
    const T* src = c.in(0).data<T>() + p * inner;
    T* dst = out.data<T>() + p * inner;
    double mean = 0, var = 0;
    for (int64_t j = 0; j < inner; ++j) mean += src[j];
    mean /= static_cast<double>(std::max<int64_t>(inner, 1));
    for (int64_t j = 0; j < inner; ++j) var += (src[j] - mean) * (src[j] - mean);
    var /= static_cast<double>(std::max<int64_t>(inner, 1));
    const double k = c.in(1).data<T>()[p % ch] / std::sqrt(var + epsilon), b = c.in(2).data<T>()[p % ch];
    for (int64_t j = 0; j < inner; ++j) dst[j] = static_cast<T>((src[j] - mean) * k + b);
  }
}

/// InstanceNormalization: each (n, c) plane normalized by its own mean and
/// variance, then scaled and shifted by channel c's scale and B.
Status instanceNorm(const NormAttrs& a, Ctx& c) {
  ACCELC_TRY(expectSameFloat(c, 3));
  const Tensor& x = c.in(0);
  if (x.rank() < 2) return c.fail("InstanceNormalization needs rank >= 2, found " + std::to_string(x.rank()));
  const int64_t ch = x.dim(1), planes = x.dim(0) * ch, inner = planes ? x.numel() / planes : 0;
  if (c.in(1).numel() != ch || c.in(2).numel() != ch)
    return c.fail("InstanceNormalization scale and B must have " + std::to_string(ch) + " values");
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), x.shape()));
  visitFloat(x.dtype(), [&](auto v) { instanceNormPlanes<decltype(v)>(a.epsilon, ch, planes, inner, c, out); });
  c.out(0) = std::move(out);
  return Status::ok();
}

/// Divides each length-n row (stride `inner`) by its L1 or L2 norm, in double.
template <typename T>
void lpNormRows(int64_t p, int64_t outer, int64_t n, int64_t inner, const Tensor& x, Tensor& out) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      const T* src = x.data<T>() + o * n * inner + j;
      T* dst = out.data<T>() + o * n * inner + j;
      double norm = 0;
      for (int64_t k = 0; k < n; ++k) {
        const double v = src[k * inner];
        norm += p == 1 ? std::fabs(v) : v * v;
      }
      if (p == 2) norm = std::sqrt(norm);
      for (int64_t k = 0; k < n; ++k) dst[k * inner] = norm == 0 ? T{0} : static_cast<T>(src[k * inner] / norm);
    }
}

/// LpNormalization: x divided by its L1 or L2 norm along `axis`; a zero
/// vector stays zero (rather than 0/0).
Status lpNorm(const LpNormAttrs& a, Ctx& c) {
  ACCELC_TRY(expectSameFloat(c, 1));
  if (a.p != 1 && a.p != 2) return c.fail("LpNormalization p must be 1 or 2, found " + std::to_string(a.p));
  const Tensor& x = c.in(0);
  int64_t axis = a.axis;
  if (!normAxis(axis, x.rank()))
    return c.fail("LpNormalization axis " + std::to_string(a.axis) + " is out of range for rank " +
                  std::to_string(x.rank()));
  int64_t outer = 1, n = x.dim(axis), inner = 1;
  for (int64_t i = 0; i < x.rank(); ++i)
    if (i != axis) (i < axis ? outer : inner) *= x.dim(i);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), x.shape()));
  visitFloat(x.dtype(), [&](auto v) { lpNormRows<decltype(v)>(a.p, outer, n, inner, x, out); });
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace

Status normalize(OpKind k, const Attrs& a, Ctx& c) {
  if (k == OpKind::kBatchNormalization) return batchNorm(std::get<NormAttrs>(a), c);
  if (k == OpKind::kLayerNormalization) return layerNorm(std::get<NormAttrs>(a), c);
  if (k == OpKind::kReduceMean) return reduceMean(std::get<ReduceAttrs>(a), c);
  if (k == OpKind::kInstanceNormalization) return instanceNorm(std::get<NormAttrs>(a), c);
  if (k == OpKind::kLpNormalization) return lpNorm(std::get<LpNormAttrs>(a), c);
  return softmax(std::get<SoftmaxAttrs>(a), c);
}

}  // namespace accelc::runtime::kernels
