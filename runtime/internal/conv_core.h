// runtime/internal/conv_core.h — the convolution loop nest shared by Conv,
// ConvInteger, QLinearConv and accelc's QConv/QGemm.
#ifndef ACCELC_RUNTIME_INTERNAL_CONV_CORE_H_
#define ACCELC_RUNTIME_INTERNAL_CONV_CORE_H_

#include <algorithm>
#include <vector>

#include "runtime/geometry.h"
#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

using Geo = ConvGeometry;

/// Fills the geometry from X [N,C,(H,)W], W [M,C/group,(KH,)KW] and the attributes.
inline Status geometry(const ConvAttrs& a, const Tensor& x, const Tensor& w, Ctx& c, Geo& g) {
  const std::string problem = convGeometry(a, x.shape(), w.shape(), g);
  return problem.empty() ? Status::ok() : c.fail(problem);
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
