// runtime/kernels/conv_transpose.cc — ConvTranspose over 1-D, 2-D and 3-D
// (any number of spatial axes): groups, strides, dilations, pads,
// output_padding, output_shape and auto_pad, optional bias. Float32 or
// float64 (X, W and B alike), accumulated in the data's own type.
//
// Each input element scatters x · w[k] to output position
// i·stride + k·dilation − pad_begin along every axis; positions outside the
// output (cropped by pads, or past an output_shape) are dropped.
#include <algorithm>
#include <string>
#include <vector>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// One spatial axis.
struct TAxis {
  int64_t in = 0, k = 1, s = 1, d = 1, pb = 0, pe = 0, outPad = 0, out = 0;
};

/// a·b + c without overflow; false when it would overflow.
bool mulAdd(int64_t a, int64_t b, int64_t c, int64_t& r) {
  return !__builtin_mul_overflow(a, b, &r) && !__builtin_add_overflow(r, c, &r);
}

/// s·(in−1) + output_padding + (k−1)·d + 1: the output size before pads.
bool fullSize(const TAxis& x, int64_t& r) {
  int64_t span = 0;
  return mulAdd(x.k - 1, x.d, 1 + x.outPad, span) && mulAdd(x.s, x.in - 1, span, r);
}

Status checkAttrSizes(const ConvTransposeAttrs& a, size_t sp, Ctx& c) {
  auto bad = [&](const Ints& v, size_t n) { return !v.empty() && v.size() != n; };
  if (bad(a.kernelShape, sp) || bad(a.strides, sp) || bad(a.dilations, sp) || bad(a.outputPadding, sp) ||
      bad(a.pads, 2 * sp) || (bad(a.outputShape, sp) && a.outputShape.size() != sp + 2))
    return c.fail("kernel_shape, strides, dilations, pads, output_padding and output_shape must match the " +
                  std::to_string(sp) + " spatial axes");
  return Status::ok();
}

/// Pads from a wanted output size: SAME_UPPER puts the odd one at the end,
/// SAME_LOWER and NOTSET at the beginning (ONNX's rule for output_shape).
Status padsForOutput(AutoPad mode, int64_t want, TAxis& x, Ctx& c) {
  int64_t full = 0, total = 0;
  if (want < 0) return c.fail("output_shape must not be negative, found " + std::to_string(want));
  if (!fullSize(x, full) || __builtin_sub_overflow(full, want, &total)) return c.fail("ConvTranspose sizes overflow");
  total = std::max<int64_t>(total, 0);  // a larger output_shape extends the end with zeros (onnxruntime)
  x.pb = mode == AutoPad::kSameUpper ? total / 2 : total - total / 2;
  x.pe = total - x.pb, x.out = want;
  return Status::ok();
}

Status axisOf(const ConvTransposeAttrs& a, const Tensor& xt, const Tensor& w, size_t i, Ctx& c, TAxis& x) {
  const size_t sp = static_cast<size_t>(xt.rank() - 2);
  auto get = [&](const Ints& v, size_t j, int64_t def) { return v.empty() ? def : v[j]; };
  x.in = xt.dim(2 + i), x.k = w.dim(2 + i);
  x.s = get(a.strides, i, 1), x.d = get(a.dilations, i, 1), x.outPad = get(a.outputPadding, i, 0);
  if (!a.kernelShape.empty() && a.kernelShape[i] != x.k)
    return c.fail("kernel_shape " + std::to_string(a.kernelShape[i]) + " does not match the weight's " +
                  std::to_string(x.k));
  if (x.s < 1 || x.d < 1) return c.fail("strides and dilations must be at least 1");
  if (x.outPad < 0) return c.fail("output_padding must not be negative");
  if (!a.outputShape.empty()) return padsForOutput(a.autoPad, a.outputShape[a.outputShape.size() - sp + i], x, c);
  if (a.autoPad == AutoPad::kSameUpper || a.autoPad == AutoPad::kSameLower) {
    int64_t want = 0;
    if (__builtin_mul_overflow(x.in, x.s, &want)) return c.fail("ConvTranspose sizes overflow");
    return padsForOutput(a.autoPad, want, x, c);  // SAME: the output is input · stride
  }
  if (a.autoPad == AutoPad::kNotSet && !a.pads.empty()) x.pb = a.pads[i], x.pe = a.pads[i + sp];
  if (x.pb < 0 || x.pe < 0) return c.fail("pads must not be negative");
  int64_t full = 0;
  if (!fullSize(x, full) || __builtin_sub_overflow(full, x.pb, &full) || __builtin_sub_overflow(full, x.pe, &x.out))
    return c.fail("ConvTranspose sizes overflow");
  if (x.out < 0)
    return c.fail("the output size is negative (" + std::to_string(x.out) +
                  "): the pads crop more than the whole output");
  return Status::ok();
}

/// Advances a row-major multi-index over `dims`; false after the last one.
bool next(std::vector<int64_t>& at, const std::vector<int64_t>& dims) {
  for (size_t d = dims.size(); d-- > 0;) {
    if (++at[d] < dims[d]) return true;
    at[d] = 0;
  }
  return false;
}

/// One (input channel, output channel) pair: scatters the input plane `x`
/// times the kernel `w` into the output plane `y`.
template <typename T>
void scatterPlane(const std::vector<TAxis>& ax, const T* x, const T* w, T* y) {
  std::vector<int64_t> kDims, inDims, oSt(ax.size(), 1);
  for (const TAxis& t : ax) kDims.push_back(t.k), inDims.push_back(t.in);
  for (size_t d = ax.size(); d-- > 1;) oSt[d - 1] = oSt[d] * ax[d].out;
  std::vector<int64_t> k(ax.size(), 0);
  int64_t kFlat = 0;
  do {
    const T wv = w[kFlat++];
    std::vector<int64_t> i(ax.size(), 0);
    int64_t iFlat = 0;
    do {
      int64_t o = 0;
      bool inside = true;
      for (size_t d = 0; d < ax.size() && inside; ++d) {
        const int64_t p = i[d] * ax[d].s + k[d] * ax[d].d - ax[d].pb;
        inside = p >= 0 && p < ax[d].out;
        if (inside) o += p * oSt[d];
      }
      if (inside) y[o] += x[iFlat] * wv;
      ++iFlat;
    } while (next(i, inDims));
  } while (next(k, kDims));
}

Status checkShapes(const Tensor& x, const Tensor& w, int64_t group, Ctx& c) {
  if (x.rank() < 3 || x.rank() > 5 || w.rank() != x.rank())
    return c.fail("ConvTranspose supports 1-D to 3-D inputs with a weight of the same rank, found ranks " +
                  std::to_string(x.rank()) + " and " + std::to_string(w.rank()));
  if (group < 1 || x.dim(1) % group || w.dim(0) != x.dim(1))
    return c.fail("weight shape " + support::shapeStr(w.shape()) + " does not match " + std::to_string(x.dim(1)) +
                  " input channels in " + std::to_string(group) + " groups");
  return Status::ok();
}

template <typename T>
void addBias(const Tensor& b, Tensor& out) {
  const int64_t m = out.dim(1), plane = m ? out.numel() / std::max<int64_t>(out.dim(0) * m, 1) : 0;
  T* y = out.data<T>();
  for (int64_t n = 0; n < out.dim(0); ++n)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t p = 0; p < plane; ++p) y[(n * m + j) * plane + p] += b.data<T>()[j];
}

/// Scatters every (batch, input channel, output channel) plane, then adds B.
template <typename T>
void scatterAll(const std::vector<TAxis>& ax, int64_t group, Ctx& c, Tensor& out) {
  const Tensor &x = c.in(0), &w = c.in(1);
  const int64_t cg = x.dim(1) / group, mg = w.dim(1), m = out.dim(1);
  const int64_t inPlane = support::shapeElements(Shape(x.shape().begin() + 2, x.shape().end()));
  const int64_t kPlane = support::shapeElements(Shape(w.shape().begin() + 2, w.shape().end()));
  const int64_t outPlane = support::shapeElements(Shape(out.shape().begin() + 2, out.shape().end()));
  if (inPlane > 0 && kPlane > 0 && outPlane > 0)
    for (int64_t n = 0; n < x.dim(0); ++n)
      for (int64_t ci = 0; ci < x.dim(1); ++ci)
        for (int64_t j = 0; j < mg; ++j) {
          const int64_t mo = (ci / cg) * mg + j;  // output channel j of input channel ci's group
          scatterPlane<T>(ax, x.data<T>() + (n * x.dim(1) + ci) * inPlane, w.data<T>() + (ci * mg + j) * kPlane,
                          out.data<T>() + (n * m + mo) * outPlane);
        }
  if (c.has(2)) addBias<T>(c.in(2), out);
}

}  // namespace

Status convTranspose(const ConvTransposeAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kFloat64}));  // X, W and B (when given) share it
  ACCELC_TRY(c.expectSameType(0, 1));
  ACCELC_TRY(c.expectSameType(0, 2));
  const Tensor &x = c.in(0), &w = c.in(1);
  ACCELC_TRY(checkShapes(x, w, a.group, c));
  const size_t sp = static_cast<size_t>(x.rank() - 2);
  ACCELC_TRY(checkAttrSizes(a, sp, c));
  std::vector<TAxis> ax(sp);
  for (size_t i = 0; i < sp; ++i) ACCELC_TRY(axisOf(a, x, w, i, c, ax[i]));
  int64_t m = 0;
  if (!mulAdd(w.dim(1), a.group, 0, m)) return c.fail("group " + std::to_string(a.group) + " is too large");
  if (c.has(2) && c.in(2).numel() != m)
    return c.fail("bias has " + std::to_string(c.in(2).numel()) + " values; expected " + std::to_string(m));
  Shape shape = {x.dim(0), m};
  for (const TAxis& t : ax) shape.push_back(t.out);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), shape));
  visitFloat(x.dtype(), [&](auto v) { scatterAll<decltype(v)>(ax, a.group, c, out); });
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
