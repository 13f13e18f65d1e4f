// runtime/kernels/conv.cc — Conv, ConvInteger and QLinearConv (1-D and 2-D,
// groups, dilations, explicit pads or auto_pad). One loop nest serves the float
// and the integer forms: out[n][m][oh][ow] = Σ (w - wzp) · (x - xzp).
#include <cmath>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// The geometry of one 2-D convolution (1-D runs with h = kh = 1).
struct Geo {
  int64_t n = 0, c = 0, h = 0, w = 0, m = 0, group = 1;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0, oh = 0, ow = 0;
};

/// Begin/end padding of one spatial axis under auto_pad.
void autoPad(AutoPad mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t& begin, int64_t& end) {
  if (mode == AutoPad::kValid) {
    begin = end = 0;
    return;
  }
  const int64_t out = (in + s - 1) / s, total = std::max<int64_t>(0, (out - 1) * s + (k - 1) * d + 1 - in);
  begin = mode == AutoPad::kSameLower ? total - total / 2 : total / 2;
  end = total - begin;
}

/// Fills the geometry from X [N,C,(H,)W], W [M,C/group,(KH,)KW] and the attributes.
Status geometry(const ConvAttrs& a, const Tensor& x, const Tensor& w, Ctx& c, Geo& g) {
  const int64_t r = x.rank();
  if ((r != 3 && r != 4) || w.rank() != r)
    return c.fail("only 1-D and 2-D convolutions are supported (input rank " + std::to_string(r) + ", weight rank " +
                  std::to_string(w.rank()) + ")");
  const bool twoD = r == 4;
  g.n = x.dim(0), g.c = x.dim(1), g.h = twoD ? x.dim(2) : 1, g.w = x.dim(-1);
  g.m = w.dim(0), g.group = a.group, g.kh = twoD ? w.dim(2) : 1, g.kw = w.dim(-1);
  if (g.group < 1 || g.c % g.group || g.m % g.group || w.dim(1) != g.c / g.group)
    return c.fail("weight shape " + support::shapeStr(w.shape()) + " does not match " + std::to_string(g.c) +
                  " input channels in " + std::to_string(g.group) + " groups");
  auto get = [&](const Ints& v, size_t i, int64_t def) { return v.empty() ? def : v[i]; };
  const size_t sp = twoD ? 2 : 1;
  if ((!a.strides.empty() && a.strides.size() != sp) || (!a.dilations.empty() && a.dilations.size() != sp) ||
      (!a.pads.empty() && a.pads.size() != 2 * sp))
    return c.fail("strides, dilations or pads do not match the " + std::to_string(sp) + " spatial axes");
  g.sh = twoD ? get(a.strides, 0, 1) : 1, g.sw = get(a.strides, sp - 1, 1);
  g.dh = twoD ? get(a.dilations, 0, 1) : 1, g.dw = get(a.dilations, sp - 1, 1);
  if (a.autoPad != AutoPad::kNotSet) {
    if (twoD) autoPad(a.autoPad, g.h, g.kh, g.sh, g.dh, g.pt, g.pb);
    autoPad(a.autoPad, g.w, g.kw, g.sw, g.dw, g.pl, g.pr);
  } else if (!a.pads.empty()) {
    g.pt = twoD ? a.pads[0] : 0, g.pl = a.pads[sp - 1], g.pb = twoD ? a.pads[2] : 0, g.pr = a.pads[2 * sp - 1];
  }
  g.oh = (g.h + g.pt + g.pb - ((g.kh - 1) * g.dh + 1)) / g.sh + 1;
  g.ow = (g.w + g.pl + g.pr - ((g.kw - 1) * g.dw + 1)) / g.sw + 1;
  if (g.oh < 1 || g.ow < 1 || g.sh < 1 || g.sw < 1) return c.fail("the kernel does not fit the padded input");
  return Status::ok();
}

/// out[n][m] += Σ_{ci,kh,kw} (w - wzp[m]) · (x - xzp): the one loop nest.
template <typename TX, typename TW, typename TA>
void convCore(const Geo& g, const TX* x, TA xzp, const TW* w, const std::vector<TA>& wzp, TA* out) {
  const int64_t cg = g.c / g.group, mg = g.m / g.group, plane = g.oh * g.ow;
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t m = 0; m < g.m; ++m) {
      TA* o = out + (n * g.m + m) * plane;
      const int64_t gi = m / mg;
      for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t ky = 0; ky < g.kh; ++ky)
          for (int64_t kx = 0; kx < g.kw; ++kx) {
            const TA wv = static_cast<TA>(w[((m * cg + ci) * g.kh + ky) * g.kw + kx]) - wzp[m];
            // Output columns whose input column lies inside the row.
            const int64_t off = kx * g.dw - g.pl;
            const int64_t lo = off >= 0 ? 0 : (-off + g.sw - 1) / g.sw;
            const int64_t hi = std::min(g.ow, g.w - off > 0 ? (g.w - off + g.sw - 1) / g.sw : 0);
            for (int64_t oy = 0; oy < g.oh; ++oy) {
              const int64_t iy = oy * g.sh + ky * g.dh - g.pt;
              if (iy < 0 || iy >= g.h) continue;
              const TX* row = x + ((n * g.c + gi * cg + ci) * g.h + iy) * g.w;
              TA* orow = o + oy * g.ow;
              for (int64_t ox = lo; ox < hi; ++ox) orow[ox] += wv * (static_cast<TA>(row[ox * g.sw + off]) - xzp);
            }
          }
    }
}

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
  Tensor out(DType::kFloat32, outShape(g, c.in(0).rank()));
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
  acc = Tensor(DType::kInt32, outShape(g, c.in(0).rank()));
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
  Tensor out(yt, acc.shape());
  const int64_t plane = g.oh * g.ow;
  const int32_t lo = yt == DType::kUint8 ? 0 : -128, hi = yt == DType::kUint8 ? 255 : 127;
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t m = 0; m < g.m; ++m) {
      const float mult = xs * static_cast<float>(ws.at(ws.numel() == 1 ? 0 : m)) / ys;
      const int32_t bias = c.has(8) ? static_cast<int32_t>(c.in(8).intAt(m)) : 0;
      for (int64_t i = 0; i < plane; ++i) {
        const int64_t at = (n * g.m + m) * plane + i;
        const float v = static_cast<float>(acc.data<int32_t>()[at] + bias) * mult;
        const int32_t q = static_cast<int32_t>(std::nearbyint(v)) + yzp;
        out.bytes()[at] = static_cast<uint8_t>(std::min(std::max(q, lo), hi));
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
