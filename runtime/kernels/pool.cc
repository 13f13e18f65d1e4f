// runtime/kernels/pool.cc — MaxPool, AveragePool (ceil_mode, count_include_pad,
// pads, auto_pad, dilations) and GlobalAveragePool over 1-D and 2-D inputs.
#include <cmath>
#include <limits>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// One spatial axis: input size, kernel, stride, dilation, pads, output size.
struct Axis {
  int64_t in = 1, k = 1, s = 1, d = 1, pb = 0, pe = 0, out = 1;
};

Status axisOf(const PoolAttrs& a, int64_t in, size_t i, size_t sp, Ctx& c, Axis& x) {
  if (a.kernelShape.size() != sp) return c.fail("kernel_shape must have " + std::to_string(sp) + " values");
  x.in = in, x.k = a.kernelShape[i];
  x.s = a.strides.empty() ? 1 : a.strides[i];
  x.d = a.dilations.empty() ? 1 : a.dilations[i];
  if (a.autoPad == AutoPad::kSameUpper || a.autoPad == AutoPad::kSameLower) {
    const int64_t out = (in + x.s - 1) / x.s, total = std::max<int64_t>(0, (out - 1) * x.s + (x.k - 1) * x.d + 1 - in);
    x.pb = a.autoPad == AutoPad::kSameLower ? total - total / 2 : total / 2;
    x.pe = total - x.pb;
  } else if (a.autoPad == AutoPad::kNotSet && !a.pads.empty()) {
    x.pb = a.pads[i], x.pe = a.pads[i + sp];
  }
  const int64_t span = (x.k - 1) * x.d + 1, room = in + x.pb + x.pe - span;
  if (room < 0 || x.s < 1) return c.fail("the pooling window does not fit the padded input");
  x.out = (a.ceilMode ? (room + x.s - 1) / x.s : room / x.s) + 1;
  if (a.ceilMode && (x.out - 1) * x.s >= in + x.pb) --x.out;  // the last window must start inside
  return Status::ok();
}

template <typename T>
void poolCore(bool isMax, const PoolAttrs& a, const Axis& y, const Axis& x, int64_t planes, const T* in, T* out) {
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t oy = 0; oy < y.out; ++oy)
      for (int64_t ox = 0; ox < x.out; ++ox) {
        const int64_t y0 = oy * y.s - y.pb, x0 = ox * x.s - x.pb;
        double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
        int64_t count = 0;
        for (int64_t ky = 0; ky < y.k; ++ky)
          for (int64_t kx = 0; kx < x.k; ++kx) {
            const int64_t iy = y0 + ky * y.d, ix = x0 + kx * x.d;
            if (iy < 0 || iy >= y.in || ix < 0 || ix >= x.in) continue;
            const double v = static_cast<double>(in[(p * y.in + iy) * x.in + ix]);
            acc = isMax ? std::max(acc, v) : acc + v;
            ++count;
          }
        if (!isMax && a.countIncludePad) {  // the window clipped to the padded input
          const int64_t hy = std::min(y0 + y.k, y.in + y.pe) - y0, hx = std::min(x0 + x.k, x.in + x.pe) - x0;
          count = hy * hx;
        }
        const double v = isMax ? acc : count ? acc / static_cast<double>(count) : 0.0;
        out[(p * y.out + oy) * x.out + ox] = static_cast<T>(v);
      }
}

}  // namespace

Status pool(OpKind k, const PoolAttrs& attrs, Ctx& c) {
  const Tensor& t = c.in(0);
  if (t.rank() != 3 && t.rank() != 4) return c.fail("pooling supports 1-D and 2-D inputs (rank 3 or 4)");
  const bool twoD = t.rank() == 4;
  PoolAttrs a = attrs;
  if (k == OpKind::kGlobalAveragePool) {
    a = PoolAttrs{};
    a.kernelShape = twoD ? Ints{t.dim(2), t.dim(3)} : Ints{t.dim(2)};
  }
  const size_t sp = twoD ? 2 : 1;
  Axis y, x;
  if (twoD) ACCELC_TRY(axisOf(a, t.dim(2), 0, sp, c, y));
  ACCELC_TRY(axisOf(a, t.dim(-1), sp - 1, sp, c, x));
  const bool isMax = k == OpKind::kMaxPool;
  if (!isMax) ACCELC_TRY(c.expectType(0, {DType::kFloat32}));
  Shape shape = twoD ? Shape{t.dim(0), t.dim(1), y.out, x.out} : Shape{t.dim(0), t.dim(1), x.out};
  Tensor out(t.dtype(), shape);
  visitDType(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    poolCore<T>(isMax, a, y, x, t.dim(0) * t.dim(1), t.data<T>(), out.data<T>());
  });
  if (isMax && c.outputs() > 1) return c.fail("MaxPool's Indices output is not supported");
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
