// runtime/kernels/quantize.cc — QuantizeLinear (round half to even, saturate)
// and DequantizeLinear, per tensor or per axis.
#include <cmath>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// The slice of `axis` that element i belongs to (0 for per-tensor parameters).
struct AxisIndex {
  int64_t inner = 1, dim = 1;
  bool perAxis = false;
  int64_t operator()(int64_t i) const { return perAxis ? (i / inner) % dim : 0; }
};

Status axisIndex(const Tensor& x, const Tensor& scale, int64_t axis, Ctx& c, AxisIndex& ix) {
  if (scale.numel() == 1 && scale.rank() <= 1) return Status::ok();
  if (!normAxis(axis, x.rank())) return c.fail("quantization axis out of range");
  if (scale.rank() != 1 || scale.numel() != x.dim(axis))
    return c.fail("per-axis scale has " + std::to_string(scale.numel()) + " values; axis " + std::to_string(axis) +
                  " has " + std::to_string(x.dim(axis)));
  ix.perAxis = true, ix.dim = x.dim(axis);
  for (int64_t d = axis + 1; d < x.rank(); ++d) ix.inner *= x.dim(d);
  return Status::ok();
}

}  // namespace

Status quantize(OpKind k, const AxisAttrs& a, Ctx& c) {
  const Tensor &x = c.in(0), &scale = c.in(1);
  ACCELC_TRY(c.expectType(1, {DType::kFloat32}));
  AxisIndex ix;
  ACCELC_TRY(axisIndex(x, scale, a.axis, c, ix));
  const bool hasZp = c.has(2);
  if (hasZp && c.in(2).numel() != scale.numel()) return c.fail("zero point and scale differ in size");
  if (k == OpKind::kDequantizeLinear) {
    ACCELC_TRY(c.expectType(0, {DType::kInt8, DType::kUint8, DType::kInt32}));
    ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kFloat32, x.shape()));
    if (!ix.perAxis && x.dtype() == DType::kInt8) {  // one scale, int8 data (no per-element dispatch)
      const int8_t* xs = x.data<int8_t>();
      const double zp = hasZp ? c.in(2).at(0) : 0.0, sc = scale.data<float>()[0];
      float* ys = out.data<float>();
      const int64_t n = x.numel();
      for (int64_t i = 0; i < n; ++i) ys[i] = static_cast<float>((xs[i] - zp) * sc);
    } else {
      for (int64_t i = 0; i < x.numel(); ++i) {
        const int64_t s = ix(i);
        const double zp = hasZp ? c.in(2).at(s) : 0.0;
        out.data<float>()[i] = static_cast<float>((x.at(i) - zp) * scale.data<float>()[s]);
      }
    }
    c.out(0) = std::move(out);
    return Status::ok();
  }
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kInt32}));
  const DType to = hasZp ? c.in(2).dtype() : DType::kUint8;
  if (to != DType::kInt8 && to != DType::kUint8) return c.fail("QuantizeLinear supports int8 and uint8 outputs");
  const double lo = to == DType::kInt8 ? -128 : 0, hi = to == DType::kInt8 ? 127 : 255;
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(to, x.shape()));
  // nearbyint(x / scale) + zero point, saturated; NaN gives the zero point. The quotient is first clamped to
  // ±512, past every int8/uint8 value whatever the zero point, so that adding and subtracting 1.5·2^23 rounds it
  // half to even (the default rounding mode, as nearbyint) without a library call: the loop vectorizes.
  const float flo = static_cast<float>(lo), fhi = static_cast<float>(hi);
  auto one = [flo, fhi](float xv, float sc, float zp) {
    float q = xv / sc;
    q = q != q ? 0.0f : q < -512.0f ? -512.0f : q > 512.0f ? 512.0f : q;
    const float v = (q + 0x1.8p23f) - 0x1.8p23f + zp;
    return static_cast<uint8_t>(static_cast<int>(v < flo ? flo : v > fhi ? fhi : v));
  };
  if (!ix.perAxis && x.dtype() == DType::kFloat32) {  // the model's input: one scale, float data (no per-element dispatch)
    const float* xs = x.data<float>();
    const float sc = scale.data<float>()[0], zp = hasZp ? static_cast<float>(c.in(2).at(0)) : 0.0f;
    uint8_t* ys = out.bytes().data();
    const int64_t n = x.numel();  // out of the loop: byte stores may alias the shape it is computed from
    for (int64_t i = 0; i < n; ++i) ys[i] = one(xs[i], sc, zp);
  } else {
    for (int64_t i = 0; i < x.numel(); ++i) {
      const int64_t s = ix(i);
      out.bytes()[i] = one(static_cast<float>(x.at(i)), scale.data<float>()[s],
                           hasZp ? static_cast<float>(c.in(2).at(s)) : 0.0f);
    }
  }
  out.quant.scale.assign(scale.data<float>(), scale.data<float>() + scale.numel());
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
