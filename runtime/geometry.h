// runtime/geometry.h — the output geometry of convolutions and pools, from
// ONNX's attributes (pads, auto_pad, strides, dilations, ceil_mode).
//
// The reference kernels and the generated host kernels (compiler/host) both
// size their loops with these, so a padding rule is written once. Each
// function returns "" when the attributes fit the shapes, else what is wrong.
#ifndef ACCELC_RUNTIME_GEOMETRY_H_
#define ACCELC_RUNTIME_GEOMETRY_H_

#include <cstdint>
#include <string>

#include "runtime/attrs.h"
#include "runtime/tensor.h"

namespace accelc::runtime {

/// One 2-D convolution (1-D runs with h = kh = 1).
struct ConvGeometry {
  int64_t n = 0, c = 0, h = 0, w = 0, m = 0, group = 1;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0, oh = 0, ow = 0;
};

/// Begin/end padding of one spatial axis under auto_pad (SAME_* or VALID).
void autoPadding(AutoPad mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t& begin, int64_t& end);

/// Fills `g` from X [N,C,(H,)W], W [M,C/group,(KH,)KW] and the attributes.
std::string convGeometry(const ConvAttrs& a, const Shape& x, const Shape& w, ConvGeometry& g);

/// One spatial axis of a pool: input size, kernel, stride, dilation, pads, output size.
struct PoolAxis {
  int64_t in = 1, k = 1, s = 1, d = 1, pb = 0, pe = 0, out = 1;
};

/// Fills spatial axis `i` of `sp` from the attributes, for an input of size `in` on it.
std::string poolAxis(const PoolAttrs& a, int64_t in, size_t i, size_t sp, PoolAxis& x);

/// The elements a Slice reads: out[i] = x[begin + Σ_d i_d · step_d] per axis,
/// from ONNX's starts, ends, axes (empty: 0, 1, ...) and steps (empty: 1s),
/// negative indices counting from the end and clamped as ONNX says.
struct SliceGeometry {
  Ints begin, step;  ///< per axis of x
  Shape out;
};
/// Fills `g` for x of shape `x`; "" when the arguments fit, else what is wrong.
std::string sliceGeometry(const Shape& x, const Ints& starts, const Ints& ends, Ints axes, Ints steps, SliceGeometry& g);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_GEOMETRY_H_
