// runtime/kernels/pool.cc — MaxPool, AveragePool (ceil_mode, count_include_pad,
// pads, auto_pad, dilations), GlobalAveragePool and GlobalMaxPool.
#include <cmath>
#include <limits>

#include "runtime/geometry.h"
#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

using Axis = PoolAxis;

Status axisOf(const PoolAttrs& a, int64_t in, size_t i, size_t sp, Ctx& c, Axis& x) {
  const std::string problem = poolAxis(a, in, i, sp, x);
  return problem.empty() ? Status::ok() : c.fail(problem);
}

/// Pools every (n, c) plane over up to three spatial axes z, y, x; `idx`
/// receives MaxPool's flat argmax indices (row-major, or column-major over the
/// spatial axes when storage_order is 1) when non-null.
template <typename T>
void poolCore(bool isMax, const PoolAttrs& a, const Axis (&ax)[3], int64_t planes, const T* in, T* out, int64_t* idx) {
  const Axis &z = ax[0], &y = ax[1], &x = ax[2];
  const int64_t inPlane = z.in * y.in * x.in, outPlane = z.out * y.out * x.out;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t oz = 0; oz < z.out; ++oz)
      for (int64_t oy = 0; oy < y.out; ++oy)
        for (int64_t ox = 0; ox < x.out; ++ox) {
          const int64_t z0 = oz * z.s - z.pb, y0 = oy * y.s - y.pb, x0 = ox * x.s - x.pb;
          double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
          int64_t count = 0, best = 0;
          for (int64_t kz = 0; kz < z.k; ++kz)
            for (int64_t ky = 0; ky < y.k; ++ky)
              for (int64_t kx = 0; kx < x.k; ++kx) {
                const int64_t iz = z0 + kz * z.d, iy = y0 + ky * y.d, ix = x0 + kx * x.d;
                if (iz < 0 || iz >= z.in || iy < 0 || iy >= y.in || ix < 0 || ix >= x.in) continue;
                const int64_t at = (iz * y.in + iy) * x.in + ix;
                const double v = static_cast<double>(in[p * inPlane + at]);
                if (isMax && v > acc) acc = v, best = a.storageOrder ? (ix * y.in + iy) * z.in + iz : at;
                if (!isMax) acc += v;
                ++count;
              }
          if (!isMax && a.countIncludePad)  // the window clipped to the padded input
            count = (std::min(z0 + z.k, z.in + z.pe) - z0) * (std::min(y0 + y.k, y.in + y.pe) - y0) *
                    (std::min(x0 + x.k, x.in + x.pe) - x0);
          const int64_t o = p * outPlane + (oz * y.out + oy) * x.out + ox;
          // A max window wholly in the padding holds no element: it gives the
          // type's lowest value, as onnxruntime's pools start from it (never
          // -inf converted to an integer type, which is undefined).
          if (isMax && count == 0) out[o] = std::numeric_limits<T>::lowest();
          else out[o] = static_cast<T>(isMax ? acc : count ? acc / static_cast<double>(count) : 0.0);
          if (idx) idx[o] = p * inPlane + best;
        }
}

/// GlobalMaxPool: the max of each (n, c) plane over every spatial axis, any
/// number of them; the spatial axes stay as 1s.
template <typename T>
void planeMax(int64_t planes, int64_t inner, const T* in, T* out) {
  for (int64_t p = 0; p < planes; ++p) {
    T best = std::numeric_limits<T>::lowest();  // an empty plane gives the lowest value, as MaxPool's empty windows
    for (int64_t j = 0; j < inner; ++j) best = std::max(best, in[p * inner + j]);
    out[p] = best;
  }
}

Status globalMaxPool(Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32}));
  const Tensor& t = c.in(0);
  if (t.rank() < 3)
    return c.fail("GlobalMaxPool needs an input [N, C, spatial...] of rank >= 3, found rank " +
                  std::to_string(t.rank()));
  Shape shape(t.rank(), 1);
  shape[0] = t.dim(0), shape[1] = t.dim(1);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(t.dtype(), shape));
  const int64_t planes = t.dim(0) * t.dim(1), inner = planes ? t.numel() / planes : 0;
  visitDType(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    planeMax<T>(planes, inner, t.data<T>(), out.data<T>());
  });
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace

Status pool(OpKind k, const PoolAttrs& attrs, Ctx& c) {
  if (k == OpKind::kGlobalMaxPool) return globalMaxPool(c);
  const Tensor& t = c.in(0);
  const int64_t sp = t.rank() - 2;
  if (sp < 1 || sp > 3) return c.fail("pooling supports 1-D, 2-D and 3-D inputs (rank 3 to 5)");
  PoolAttrs a = attrs;
  if (k == OpKind::kGlobalAveragePool) {
    a = PoolAttrs{};
    a.kernelShape.assign(t.shape().begin() + 2, t.shape().end());
  }
  Axis ax[3];  // z, y, x; the leading ones stay size 1 for fewer spatial axes
  for (int64_t i = 0; i < sp; ++i) ACCELC_TRY(axisOf(a, t.dim(2 + i), static_cast<size_t>(i), static_cast<size_t>(sp), c, ax[3 - sp + i]));
  const bool isMax = k == OpKind::kMaxPool;
  if (!isMax) ACCELC_TRY(c.expectType(0, {DType::kFloat32}));
  Shape shape = {t.dim(0), t.dim(1)};
  for (int64_t i = 0; i < sp; ++i) shape.push_back(ax[3 - sp + i].out);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(t.dtype(), shape));
  ACCELC_ASSIGN_OR_RETURN(Tensor indices, c.alloc(DType::kInt64, shape));
  const bool wantIdx = isMax && c.outputs() > 1;
  visitDType(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    poolCore<T>(isMax, a, ax, t.dim(0) * t.dim(1), t.data<T>(), out.data<T>(), wantIdx ? indices.data<int64_t>() : nullptr);
  });
  c.out(0) = std::move(out);
  if (wantIdx) c.out(1) = std::move(indices);
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
