// runtime/kernels/conv.cc — Conv, ConvInteger and QLinearConv (1-D and 2-D,
// groups, dilations, explicit pads or auto_pad). One loop nest serves the float
// and the integer forms: out[n][m][oh][ow] = Σ (w - wzp) · (x - xzp).
#include <cmath>

#include "runtime/internal/conv_core.h"
#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

Shape outShape(const Geo& g, int64_t rank) {
  return rank == 4 ? Shape{g.n, g.m, g.oh, g.ow} : Shape{g.n, g.m, g.ow};
}

/// Zero points: a scalar or one per output channel.
template <typename TA>
Status zeroPoints(Ctx& c, int i, int64_t m, std::vector<TA>& out) {
  out.assign(m, 0);
  if (!c.has(i)) return Status::ok();
  const Tensor& z = c.in(i);
  if (z.numel() != 1 && z.numel() != m) return c.fail("zero point has " + std::to_string(z.numel()) + " values");
  for (int64_t k = 0; k < m; ++k) out[k] = static_cast<TA>(z.intAt(z.numel() == 1 ? 0 : k));
  return Status::ok();
}

Status floatConv(const ConvAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32}));
  ACCELC_TRY(c.expectType(1, {DType::kFloat32}));
  Geo g;
  ACCELC_TRY(geometry(a, c.in(0), c.in(1), c, g));
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kFloat32, outShape(g, c.in(0).rank())));
  convCore<float, float, float>(g, c.in(0).data<float>(), 0.0f, c.in(1).data<float>(), std::vector<float>(g.m, 0.0f),
                                out.data<float>());
  if (c.has(2)) {
    if (c.in(2).numel() != g.m) return c.fail("bias has " + std::to_string(c.in(2).numel()) + " values; expected " + std::to_string(g.m));
    const float* b = c.in(2).data<float>();
    float* o = out.data<float>();
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t m = 0; m < g.m; ++m)
        for (int64_t i = 0; i < g.oh * g.ow; ++i) o[(n * g.m + m) * g.oh * g.ow + i] += b[m];
  }
  c.out(0) = std::move(out);
  return Status::ok();
}

/// The int32 accumulators of ConvInteger / QLinearConv (x at input 0, w at `wi`).
Status intConv(const ConvAttrs& a, Ctx& c, int wi, int xzpi, int wzpi, Geo& g, Tensor& acc) {
  ACCELC_TRY(c.expectType(0, {DType::kInt8, DType::kUint8}));
  ACCELC_TRY(c.expectType(wi, {DType::kInt8, DType::kUint8}));
  ACCELC_TRY(geometry(a, c.in(0), c.in(wi), c, g));
  std::vector<int32_t> xz, wz;
  ACCELC_TRY(zeroPoints(c, xzpi, 1, xz));
  ACCELC_TRY(zeroPoints(c, wzpi, g.m, wz));
  ACCELC_ASSIGN_OR_RETURN(acc, c.alloc(DType::kInt32, outShape(g, c.in(0).rank())));
  visitDType(c.in(0).dtype(), [&](auto tx) {
    visitDType(c.in(wi).dtype(), [&](auto tw) {
      using TX = decltype(tx);
      using TW = decltype(tw);
      convCore<TX, TW, int32_t>(g, c.in(0).data<TX>(), xz[0], c.in(wi).data<TW>(), wz, acc.data<int32_t>());
    });
  });
  return Status::ok();
}

/// QLinearConv: requantize (acc + bias) · x_scale · w_scale[m] / y_scale, rounding half to even.
Status qlinearConv(const ConvAttrs& a, Ctx& c) {
  Geo g;
  Tensor acc;
  ACCELC_TRY(intConv(a, c, 3, 2, 5, g, acc));
  const float xs = static_cast<float>(c.in(1).at(0)), ys = static_cast<float>(c.in(6).at(0));
  const Tensor& ws = c.in(4);
  if (ws.numel() != 1 && ws.numel() != g.m) return c.fail("w_scale has " + std::to_string(ws.numel()) + " values");
  const int32_t yzp = static_cast<int32_t>(c.in(7).intAt(0));
  const DType yt = c.in(7).dtype();
  if (c.has(8) && c.in(8).numel() != g.m) return c.fail("bias has " + std::to_string(c.in(8).numel()) + " values; expected " + std::to_string(g.m));
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(yt, acc.shape()));
  const int64_t plane = g.oh * g.ow;
  const int32_t lo = yt == DType::kUint8 ? 0 : -128, hi = yt == DType::kUint8 ? 255 : 127;
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t m = 0; m < g.m; ++m) {
      const float mult = xs * static_cast<float>(ws.at(ws.numel() == 1 ? 0 : m)) / ys;
      const int32_t bias = c.has(8) ? static_cast<int32_t>(c.in(8).intAt(m)) : 0;
      for (int64_t i = 0; i < plane; ++i) {
        const int64_t at = (n * g.m + m) * plane + i;
        const float v = static_cast<float>(acc.data<int32_t>()[at] + bias) * mult;
        const float r = std::nearbyint(v) + static_cast<float>(yzp);  // clamp before converting
        const int32_t q = std::isnan(r) ? yzp : r < lo ? lo : r > hi ? hi : static_cast<int32_t>(r);
        out.bytes()[at] = static_cast<uint8_t>(q);
      }
    }
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace

Status conv(OpKind k, const ConvAttrs& a, Ctx& c) {
  if (k == OpKind::kConv) return floatConv(a, c);
  if (k == OpKind::kQLinearConv) return qlinearConv(a, c);
  Geo g;
  return intConv(a, c, 1, 2, 3, g, c.out(0));
}

}  // namespace accelc::runtime::kernels
