// runtime/internal/conv_core.h — the convolution loop nest shared by Conv,
// ConvInteger, QLinearConv and accelc's QConv/QGemm.
#ifndef ACCELC_RUNTIME_INTERNAL_CONV_CORE_H_
#define ACCELC_RUNTIME_INTERNAL_CONV_CORE_H_

#include <algorithm>
#include <vector>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

/// The geometry of one 2-D convolution (1-D runs with h = kh = 1).
struct Geo {
  int64_t n = 0, c = 0, h = 0, w = 0, m = 0, group = 1;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0, oh = 0, ow = 0;
};

/// Begin/end padding of one spatial axis under auto_pad.
inline void autoPad(AutoPad mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t& begin, int64_t& end) {
  if (mode == AutoPad::kValid) {
    begin = end = 0;
    return;
  }
  const int64_t out = (in + s - 1) / s, total = std::max<int64_t>(0, (out - 1) * s + (k - 1) * d + 1 - in);
  begin = mode == AutoPad::kSameLower ? total - total / 2 : total / 2;
  end = total - begin;
}

/// Fills the geometry from X [N,C,(H,)W], W [M,C/group,(KH,)KW] and the attributes.
inline Status geometry(const ConvAttrs& a, const Tensor& x, const Tensor& w, Ctx& c, Geo& g) {
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
  for (int64_t v : {g.sh, g.sw, g.dh, g.dw})
    if (v < 1) return c.fail("strides and dilations must be at least 1");
  for (int64_t p : a.pads)
    if (p < 0) return c.fail("pads must not be negative");
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

}  // namespace accelc::runtime::kernels

#endif  // ACCELC_RUNTIME_INTERNAL_CONV_CORE_H_
