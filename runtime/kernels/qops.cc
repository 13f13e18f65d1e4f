// runtime/kernels/qops.cc — accelc's integer ops: the semantics the accelerator
// implements, written once here (arithmetic from isa/arith.h).
//
// QConv(x, w, bias, mult, shift), x int8 [N,C,H,W], w int8 [M,C/G,KH,KW] in G
// groups, bias/mult/shift int32 [M]; output channel m reads the input
// channels of its group g = m / (M/G):
//   acc[n,m,oh,ow] = bias[m] + Σ_{c,kh,kw} w[m,c,kh,kw] · x'[n,g·C/G + c,oh·sh+kh-pt,ow·sw+kw-pl]
//     (int32, wrapping; x' is x inside the input and pad_value outside)
//   y = clamp(zero_point + shrr(mulq(acc, mult[m]), shift[m]), lo, hi)  as int8
// QGemm is QConv of x [N,K] and w [M,K] as 1×1 convolutions; y is [N,M].
// QAdd(a, b): y = clamp(zero_point + shrr(mulq((a - zero_a)·2^8, mult_a) +sat
//                                         mulq((b - zero_b)·2^8, mult_b), shift), lo, hi).
// (The 2^8 keeps eight fractional bits through the multiplies; the ALU makes
// it with `shr` by -8, a saturating left shift, which cannot saturate here.)
// QAveragePool(x), x int8 [N,C,H,W], an unpadded KH×KW window:
//   acc = (Σ_window x - KH·KW·zero_x)·2^8   (saturating int32 additions)
//   y = clamp(zero_point + shrr(mulq(acc, mult), shift), lo, hi)
// Im2col(x), x int8 [N,C,H,W], a KH×KW window with strides and pads:
//   y[n, (c·KH + i)·KW + j, oy, ox] = x[n, c, oy·sh + i - pt, ox·sw + j - pl]
// (pad_value outside x), y int8 [N, C·KH·KW, OH, OW]. A QConv of y with the
// weights reshaped to [M, C·KH·KW, 1, 1] equals the QConv of x.
#include <algorithm>

#include "isa/arith.h"
#include "runtime/internal/conv_core.h"
#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

int32_t clampTo(int32_t v, int64_t lo, int64_t hi) {
  return static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(v, lo), hi));
}

Status checkParams(Ctx& c, int64_t m) {
  ACCELC_TRY(c.expectType(0, {DType::kInt8}));
  ACCELC_TRY(c.expectType(1, {DType::kInt8}));
  for (int i = 2; i < 5; ++i) {
    ACCELC_TRY(c.expectType(i, {DType::kInt32}));
    if (c.in(i).numel() != m)
      return c.fail("input " + std::to_string(i) + " has " + std::to_string(c.in(i).numel()) + " values; expected " +
                    std::to_string(m));
  }
  return Status::ok();
}

}  // namespace

Status qconv(OpKind k, const QConvAttrs& a, Ctx& c) {
  Tensor x = c.in(0), w = c.in(1);
  if (k == OpKind::kQGemm) {  // [N,K] x [M,K] as 1×1 convolutions
    if (x.rank() != 2 || w.rank() != 2 || x.dim(1) != w.dim(1))
      return c.fail("QGemm shapes " + support::shapeStr(x.shape()) + " and " + support::shapeStr(w.shape()) +
                    " do not agree");
    x.reshape({x.dim(0), x.dim(1), 1, 1});
    w.reshape({w.dim(0), w.dim(1), 1, 1});
  }
  ACCELC_TRY(checkParams(c, w.dim(0)));
  ConvAttrs ca;
  ca.strides = a.strides, ca.pads = a.pads, ca.group = a.group;
  Geo g;
  ACCELC_TRY(geometry(ca, x, w, c, g));
  ACCELC_ASSIGN_OR_RETURN(Tensor acc, c.alloc(DType::kInt32, {g.n, g.m, g.oh, g.ow}));
  const int32_t pad = static_cast<int32_t>(a.padValue);
  convCore<int8_t, int8_t, int32_t>(g, x.data<int8_t>(), pad, w.data<int8_t>(), std::vector<int32_t>(g.m, 0),
                                    acc.data<int32_t>());
  const int64_t plane = g.oh * g.ow, perM = w.numel() / g.m;
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(DType::kInt8, k == OpKind::kQGemm ? Shape{g.n, g.m} : Shape{g.n, g.m, g.oh, g.ow}));
  for (int64_t m = 0; m < g.m; ++m) {
    int32_t wsum = 0;  // convCore measured x - pad_value; add pad_value · Σw back
    for (int64_t i = 0; i < perM; ++i) wsum += w.data<int8_t>()[m * perM + i];
    const int32_t base = isa::arith::gemmAccumulate(c.in(2).data<int32_t>()[m], pad * wsum);
    const int32_t mult = c.in(3).data<int32_t>()[m], shift = c.in(4).data<int32_t>()[m];
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t i = 0; i < plane; ++i) {
        const int64_t at = (n * g.m + m) * plane + i;
        const int32_t v = isa::arith::gemmAccumulate(acc.data<int32_t>()[at], base);
        const int32_t q = isa::arith::addSat(static_cast<int32_t>(a.zeroPoint),
                                             isa::arith::shrRoundAway(isa::arith::mulq(v, mult), shift));
        y.data<int8_t>()[at] = static_cast<int8_t>(clampTo(q, std::max<int64_t>(a.lo, -128), std::min<int64_t>(a.hi, 127)));
      }
  }
  c.out(0) = std::move(y);
  return Status::ok();
}

Status qadd(const QAddAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kInt8}));
  ACCELC_TRY(c.expectType(1, {DType::kInt8}));
  if (c.in(0).shape() != c.in(1).shape())
    return c.fail("QAdd shapes " + support::shapeStr(c.in(0).shape()) + " and " + support::shapeStr(c.in(1).shape()) +
                  " differ");
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(DType::kInt8, c.in(0).shape()));
  const int8_t *pa = c.in(0).data<int8_t>(), *pb = c.in(1).data<int8_t>();
  for (int64_t i = 0; i < y.numel(); ++i) {
    const int32_t ra = isa::arith::mulq((pa[i] - static_cast<int32_t>(a.zeroA)) * (1 << 8), static_cast<int32_t>(a.multA));
    const int32_t rb = isa::arith::mulq((pb[i] - static_cast<int32_t>(a.zeroB)) * (1 << 8), static_cast<int32_t>(a.multB));
    const int32_t q = isa::arith::addSat(static_cast<int32_t>(a.zeroPoint),
                                         isa::arith::shrRoundAway(isa::arith::addSat(ra, rb), a.shift));
    y.data<int8_t>()[i] = static_cast<int8_t>(clampTo(q, std::max<int64_t>(a.lo, -128), std::min<int64_t>(a.hi, 127)));
  }
  c.out(0) = std::move(y);
  return Status::ok();
}

Status qavgpool(const QPoolAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kInt8}));
  const Tensor& x = c.in(0);
  if (x.rank() != 4 || a.kernelShape.size() != 2 || (!a.strides.empty() && a.strides.size() != 2))
    return c.fail("QAveragePool needs a 4-D input and a 2-D window");
  const int64_t kh = a.kernelShape[0], kw = a.kernelShape[1];
  const int64_t sh = a.strides.empty() ? 1 : a.strides[0], sw = a.strides.empty() ? 1 : a.strides[1];
  if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || kh > x.dim(2) || kw > x.dim(3))
    return c.fail("QAveragePool window " + std::to_string(kh) + "x" + std::to_string(kw) + " does not fit the input " +
                  support::shapeStr(x.shape()));
  const int64_t oh = (x.dim(2) - kh) / sh + 1, ow = (x.dim(3) - kw) / sw + 1, planes = x.dim(0) * x.dim(1);
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(DType::kInt8, {x.dim(0), x.dim(1), oh, ow}));
  const int32_t start = static_cast<int32_t>(-kh * kw * a.zeroX);
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        int32_t acc = start;
        for (int64_t u = 0; u < kh; ++u)
          for (int64_t v = 0; v < kw; ++v)
            acc = isa::arith::addSat(acc, x.data<int8_t>()[(p * x.dim(2) + i * sh + u) * x.dim(3) + j * sw + v]);
        for (int d = 0; d < 8; ++d) acc = isa::arith::addSat(acc, acc);
        const int32_t q = isa::arith::addSat(static_cast<int32_t>(a.zeroPoint),
                                             isa::arith::shrRoundAway(isa::arith::mulq(acc, static_cast<int32_t>(a.mult)), a.shift));
        y.data<int8_t>()[(p * oh + i) * ow + j] =
            static_cast<int8_t>(clampTo(q, std::max<int64_t>(a.lo, -128), std::min<int64_t>(a.hi, 127)));
      }
  c.out(0) = std::move(y);
  return Status::ok();
}

Status im2col(const Im2colAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kInt8}));
  const Tensor& x = c.in(0);
  const Ints& p = a.pads;
  if (x.rank() != 4 || a.kernelShape.size() != 2 || !(a.strides.empty() || a.strides.size() == 2) ||
      !(p.empty() || p.size() == 4))
    return c.fail("Im2col needs a 4-D input, a 2-D window, 2 strides and 4 pads");
  const int64_t n = x.dim(0), ch = x.dim(1), h = x.dim(2), w = x.dim(3), kh = a.kernelShape[0], kw = a.kernelShape[1];
  const int64_t sh = a.strides.empty() ? 1 : a.strides[0], sw = a.strides.empty() ? 1 : a.strides[1];
  const int64_t pt = p.empty() ? 0 : p[0], pl = p.empty() ? 0 : p[1], pb = p.empty() ? 0 : p[2], pr = p.empty() ? 0 : p[3];
  if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || h + pt + pb < kh || w + pl + pr < kw)
    return c.fail("Im2col window " + std::to_string(kh) + "x" + std::to_string(kw) + " does not fit the padded input " +
                  support::shapeStr(x.shape()));
  const int64_t oh = (h + pt + pb - kh) / sh + 1, ow = (w + pl + pr - kw) / sw + 1;
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(DType::kInt8, {n, ch * kh * kw, oh, ow}));
  const int8_t* px = x.data<int8_t>();
  int8_t* py = y.data<int8_t>();
  const int8_t pad = static_cast<int8_t>(a.padValue);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < ch * kh * kw; ++k) {
      const int64_t cc = k / (kh * kw), i = k / kw % kh, j = k % kw;
      // The columns whose tap lies inside the input: ox in [first, last), the same for every row.
      const int64_t first = std::min(ow, std::max<int64_t>(0, (pl - j + sw - 1) / sw));
      const int64_t last = std::max(first, std::min(ow, (w + pl - j + sw - 1) / sw));
      for (int64_t oy = 0; oy < oh; ++oy, py += ow) {
        const int64_t iy = oy * sh + i - pt;
        if (iy < 0 || iy >= h) {
          std::fill(py, py + ow, pad);
          continue;
        }
        const int64_t row = ((b * ch + cc) * h + iy) * w + j - pl;  // + ox·sw: the tap of column ox
        std::fill(py, py + first, pad);
        for (int64_t ox = first; ox < last; ++ox) py[ox] = px[row + ox * sw];
        std::fill(py + last, py + ow, pad);
      }
    }
  c.out(0) = std::move(y);
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
