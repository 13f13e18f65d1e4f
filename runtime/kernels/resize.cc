// runtime/kernels/resize.cc — Resize (opsets 11-17): nearest (any dtype),
// n-linear and cubic (float32 or float64, computed in double) over every axis, with every coordinate
// transformation mode. Each axis is planned on its own — which input indices
// and weights each output index reads — and the output sums the tensor
// product of those taps, so the interpolation is separable by construction.
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// One input index an output index reads, with its weight.
struct Tap {
  int64_t index = 0;
  double weight = 1.0;
};

/// One axis: sizes, scale and crop window.
struct AxisGeo {
  int64_t in = 0, out = 0;
  double scale = 1.0;             ///< out / in, as given or derived from sizes
  double length = 0.0;            ///< align_corners/tf_crop_and_resize divisor: scale * in unrounded (sizes: out)
  double roi0 = 0.0, roi1 = 1.0;  ///< tf_crop_and_resize's normalized window
};

/// The taps of every output index of one axis; `outside` marks indices that
/// tf_crop_and_resize maps beyond the input (they take extrapolation_value).
struct AxisPlan {
  std::vector<std::vector<Tap>> taps;
  std::vector<uint8_t> outside;
};

/// An input of Resize counts only when present and non-empty (opsets 11-12
/// pass empty tensors for the unused ones).
bool given(const Ctx& c, int i) { return c.has(i) && c.in(i).numel() > 0; }

// Larger outputs are refused before the double is converted to an integer.
constexpr double kMaxDim = 1099511627776.0;  // 2^40, checkedShapeElements' limit

Status axesFromScales(Ctx& c, std::vector<AxisGeo>& axes) {
  ACCELC_TRY(c.expectType(2, {DType::kFloat32}));
  const Tensor& s = c.in(2);
  if (s.numel() != static_cast<int64_t>(axes.size()))
    return c.fail("scales has " + std::to_string(s.numel()) + " values; expected one per axis (" +
                  std::to_string(axes.size()) + ")");
  for (size_t d = 0; d < axes.size(); ++d) {
    const double scale = s.at(static_cast<int64_t>(d));
    if (!(scale > 0) || !std::isfinite(scale))
      return c.fail("scales must be positive and finite, found " + std::to_string(scale));
    // The reference divides by the unrounded scale * in (this is what the
    // expected data of the align_corners downsampling tests follow).
    const double length = scale * static_cast<double>(axes[d].in);
    if (length >= kMaxDim) return c.fail("scale " + std::to_string(scale) + " gives an output too large");
    axes[d].scale = scale, axes[d].length = length, axes[d].out = static_cast<int64_t>(std::floor(length));
  }
  return Status::ok();
}

Status axesFromSizes(Ctx& c, std::vector<AxisGeo>& axes) {
  ACCELC_TRY(c.expectType(3, {DType::kInt64}));
  const Tensor& s = c.in(3);
  if (s.numel() != static_cast<int64_t>(axes.size()))
    return c.fail("sizes has " + std::to_string(s.numel()) + " values; expected one per axis (" +
                  std::to_string(axes.size()) + ")");
  for (size_t d = 0; d < axes.size(); ++d) {
    const int64_t out = s.intAt(static_cast<int64_t>(d));
    if (out < 0) return c.fail("sizes must not be negative, found " + std::to_string(out));
    if (axes[d].in == 0 && out > 0) return c.fail("cannot resize an empty axis to " + std::to_string(out));
    axes[d].out = out, axes[d].length = static_cast<double>(out);
    axes[d].scale = axes[d].in ? static_cast<double>(out) / static_cast<double>(axes[d].in) : 1.0;
  }
  return Status::ok();
}

Status readRoi(const ResizeAttrs& a, Ctx& c, std::vector<AxisGeo>& axes) {
  if (a.coordMode != CoordMode::kTfCropAndResize) return Status::ok();  // roi is ignored otherwise
  const int64_t r = static_cast<int64_t>(axes.size());
  if (!given(c, 1) || c.in(1).numel() != 2 * r)
    return c.fail("tf_crop_and_resize needs a roi of " + std::to_string(2 * r) + " values (starts, then ends)");
  for (int64_t d = 0; d < r; ++d) axes[d].roi0 = c.in(1).at(d), axes[d].roi1 = c.in(1).at(d + r);
  return Status::ok();
}

/// The input coordinate of output index x; false when tf_crop_and_resize puts it outside.
bool sourceCoord(const ResizeAttrs& a, const AxisGeo& g, double x, double& src) {
  const double in = static_cast<double>(g.in);
  switch (a.coordMode) {
    case CoordMode::kHalfPixel:
      src = (x + 0.5) / g.scale - 0.5;
      return true;
    case CoordMode::kPytorchHalfPixel:
      src = g.out > 1 ? (x + 0.5) / g.scale - 0.5 : 0.0;
      return true;
    case CoordMode::kAlignCorners:
      src = g.length > 1 ? x * (in - 1) / (g.length - 1) : 0.0;
      return true;
    case CoordMode::kAsymmetric:
      src = x / g.scale;
      return true;
    case CoordMode::kTfHalfPixelForNn:
      src = (x + 0.5) / g.scale;
      return true;
    case CoordMode::kTfCropAndResize:
      src = g.length > 1 ? g.roi0 * (in - 1) + x * (g.roi1 - g.roi0) * (in - 1) / (g.length - 1)
                         : 0.5 * (g.roi0 + g.roi1) * (in - 1);
      return src >= 0 && src <= in - 1;
  }
  return true;
}

int64_t clampIndex(int64_t i, int64_t in) { return i < 0 ? 0 : i >= in ? in - 1 : i; }

/// The one pixel nearest_mode picks for coordinate `src`.
int64_t nearestIndex(NearestMode m, double src) {
  const double fl = std::floor(src), t = src - fl;
  if (t == 0) return static_cast<int64_t>(fl);
  bool up = false;
  switch (m) {
    case NearestMode::kRoundPreferFloor:
      up = t > 0.5;
      break;
    case NearestMode::kRoundPreferCeil:
      up = t >= 0.5;
      break;
    case NearestMode::kFloor:
      up = false;
      break;
    case NearestMode::kCeil:
      up = true;
      break;
  }
  return static_cast<int64_t>(fl) + (up ? 1 : 0);
}

/// The Keys cubic kernel's four weights for pixels floor-1 .. floor+2 at fraction t.
void cubicWeights(double A, double t, double (&w)[4]) {
  const double t1 = t + 1, u = 1 - t, u1 = u + 1;
  w[0] = ((A * t1 - 5 * A) * t1 + 8 * A) * t1 - 4 * A;
  w[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
  w[2] = ((A + 2) * u - (A + 3)) * u * u + 1;
  w[3] = ((A * u1 - 5 * A) * u1 + 8 * A) * u1 - 4 * A;
}

/// Linear or cubic taps around `src`: pixels past the edge repeat the edge
/// one, or (exclude_outside) weigh nothing, the others renormalized.
std::vector<Tap> interpTaps(const ResizeAttrs& a, double src, int64_t in) {
  const double fl = std::floor(src), t = src - fl;
  const int64_t base = static_cast<int64_t>(fl);
  double w[4] = {1 - t, t, 0, 0};
  int64_t first = base, n = 2;
  if (a.mode == ResizeMode::kCubic) cubicWeights(a.cubicCoeffA, t, w), first = base - 1, n = 4;
  std::vector<Tap> taps;
  double sum = 0;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t i = first + k;
    const double wk = a.excludeOutside && (i < 0 || i >= in) ? 0.0 : w[k];
    if (wk != 0) taps.push_back({clampIndex(i, in), wk}), sum += wk;
  }
  if (a.excludeOutside && sum != 0)
    for (Tap& tap : taps) tap.weight /= sum;
  return taps;
}

AxisPlan planAxis(const ResizeAttrs& a, const AxisGeo& g) {
  AxisPlan p;
  p.taps.resize(g.out), p.outside.assign(g.out, 0);
  for (int64_t x = 0; x < g.out; ++x) {
    double src = 0;
    // A coordinate far outside the input (a crop window beyond it) never
    // reaches the integer conversion below.
    if (!sourceCoord(a, g, static_cast<double>(x), src) || !(std::fabs(src) < kMaxDim)) {
      p.outside[x] = 1;
      continue;
    }
    if (a.mode == ResizeMode::kNearest)
      p.taps[x] = {{clampIndex(nearestIndex(a.nearestMode, src), g.in), 1.0}};
    else
      p.taps[x] = interpTaps(a, src, g.in);
  }
  return p;
}

/// Visits every output element: fn(flat output index, output coordinates).
template <typename Fn>
void forEachOutput(const Shape& shape, Fn&& fn) {
  if (support::shapeElements(shape) == 0) return;
  std::vector<int64_t> at(shape.size(), 0);
  for (int64_t o = 0;; ++o) {
    fn(o, at);
    size_t d = shape.size();
    while (d > 0 && ++at[d - 1] == shape[d - 1]) at[--d] = 0;
    if (d == 0) return;
  }
}

bool isOutside(const std::vector<AxisPlan>& plans, const std::vector<int64_t>& at) {
  for (size_t d = 0; d < plans.size(); ++d)
    if (plans[d].outside[at[d]]) return true;
  return false;
}

/// Σ over the tensor product of the taps of axes d.. of weight · x.
template <typename T>
double weightedSum(const std::vector<AxisPlan>& plans, const Shape& st, const std::vector<int64_t>& at, size_t d,
                   int64_t off, const T* x) {
  if (d == plans.size()) return x[off];
  double s = 0;
  for (const Tap& t : plans[d].taps[at[d]]) s += t.weight * weightedSum(plans, st, at, d + 1, off + t.index * st[d], x);
  return s;
}

/// extrapolation_value in T: an integer type saturates (a plain cast of an
/// out-of-range float is undefined), NaN becomes 0.
template <typename T>
T fromFloat(float v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    if (std::isnan(v)) return T{0};
    if (v <= static_cast<float>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (v >= static_cast<float>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }
}

template <typename T>
void gatherNearest(const std::vector<AxisPlan>& plans, const Shape& st, float extrapolation, const T* x, Tensor& out) {
  T* y = out.data<T>();
  forEachOutput(out.shape(), [&](int64_t o, const std::vector<int64_t>& at) {
    if (isOutside(plans, at)) {
      y[o] = fromFloat<T>(extrapolation);
      return;
    }
    int64_t off = 0;
    for (size_t d = 0; d < plans.size(); ++d) off += plans[d].taps[at[d]][0].index * st[d];
    y[o] = x[off];
  });
}

template <typename T>
void interpolate(const std::vector<AxisPlan>& plans, const Shape& st, float extrapolation, const T* x, Tensor& out) {
  T* y = out.data<T>();
  forEachOutput(out.shape(), [&](int64_t o, const std::vector<int64_t>& at) {
    y[o] = isOutside(plans, at) ? static_cast<T>(extrapolation) : static_cast<T>(weightedSum(plans, st, at, 0, 0, x));
  });
}

Status axesOf(const ResizeAttrs& a, Ctx& c, std::vector<AxisGeo>& axes) {
  const Tensor& x = c.in(0);
  axes.resize(x.rank());
  for (int64_t d = 0; d < x.rank(); ++d) axes[d].in = x.dim(d);
  if (given(c, 2) == given(c, 3)) return c.fail("Resize needs exactly one of scales and sizes (non-empty)");
  ACCELC_TRY(given(c, 2) ? axesFromScales(c, axes) : axesFromSizes(c, axes));
  return readRoi(a, c, axes);
}

}  // namespace

Status resize(const ResizeAttrs& a, Ctx& c) {
  // roi and scales keep their own dtypes (ONNX's T2 and float): only X sets the result's.
  if (a.mode != ResizeMode::kNearest) ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64}));
  if (c.in(0).dtype() == DType::kBool) return c.fail("Resize does not take bool data");
  std::vector<AxisGeo> axes;
  ACCELC_TRY(axesOf(a, c, axes));
  Shape shape;
  for (const AxisGeo& g : axes) shape.push_back(g.out);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(c.in(0).dtype(), shape));
  if (out.numel() == 0) {  // nothing to plan: another axis may still be long
    c.out(0) = std::move(out);
    return Status::ok();
  }
  std::vector<AxisPlan> plans;
  for (const AxisGeo& g : axes) plans.push_back(planAxis(a, g));
  const Shape st = stridesOf(c.in(0).shape());
  if (a.mode != ResizeMode::kNearest && out.dtype() == DType::kFloat64) {
    interpolate<double>(plans, st, a.extrapolationValue, c.in(0).data<double>(), out);
  } else if (a.mode != ResizeMode::kNearest) {
    interpolate<float>(plans, st, a.extrapolationValue, c.in(0).data<float>(), out);
  } else {
    visitDType(out.dtype(), [&](auto tag) {
      using T = decltype(tag);
      gatherNearest<T>(plans, st, a.extrapolationValue, c.in(0).data<T>(), out);
    });
  }
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
