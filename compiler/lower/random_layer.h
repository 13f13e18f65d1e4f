// compiler/lower/random_layer.h — seeded random int8 convolutions, their
// reference result and their standalone program, for the lowering tests and
// the differential campaign (bench/differential_campaign).
//
// A random layer has random weights, bias and per-channel requantization
// whose outputs spread over the int8 range. On an ALU without mulq (ice40)
// it does not rescale (multipliers 2^31 - 1, no shift, weights in -1..1, see
// compiler/lower/conv.cc), and without shrr it does not shift, so that every
// target with min, max, add and mov can run it.
#ifndef ACCELC_COMPILER_LOWER_RANDOM_LAYER_H_
#define ACCELC_COMPILER_LOWER_RANDOM_LAYER_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/lower/conv.h"
#include "isa/program.h"
#include "isa/target.h"

namespace accelc::compiler::lower {

/// The shape of a square-kernel convolution with equal strides and pads, in `group` channel groups.
struct ConvShape {
  int64_t c = 1, m = 1, h = 1, w = 1, k = 1, stride = 1, pad = 0, group = 1;
};

/// A random shape for `hw`: channels up to three blocks and a few more, images
/// up to 12×12, kernels 1, 2, 3 or 5, strides 1–2, pads below the kernel; one
/// in four is a dense layer (1×1 over a row of pixels); one convolution in four
/// is grouped (depthwise, groups that divide a block, or groups of whole blocks).
ConvShape randomConvShape(const hwspec::HwSpec& hw, uint64_t seed);
/// A random layer of shape `s` (borders: the pads, and a random output border).
ConvLayer randomConvLayer(const hwspec::HwSpec& hw, uint64_t seed, const ConvShape& s);
/// A random input for `l` (-10..10 when the layer does not rescale).
runtime::Tensor randomConvInput(const ConvLayer& l, const hwspec::HwSpec& hw, uint64_t seed);
/// The layer on the reference kernel (runtime QConv): the golden result.
support::Expected<runtime::Tensor> referenceConv(const ConvLayer& l, const runtime::Tensor& x);

/// DRAM writes before a run: (byte address, bytes).
using DramWrites = std::vector<std::pair<uint64_t, std::vector<uint8_t>>>;

/// A layer compiled alone: the program, what to write before running it (the
/// packed input, a zeroed output), and where its blocked output lies.
struct LayerProgram {
  isa::Program program;
  DramWrites writes;
  uint64_t out = 0, outBytes = 0;
};

/// `l` under `s` (checked first) on `t`, for input `x`; `serialize` emits the
/// units' instructions without overlap (emitKernel). A layer of per-image
/// weights (matmulLayer) takes them from `right`, a matrix product's right
/// operand [..., K, N], packed and written before the run.
support::Expected<LayerProgram> convProgram(const ConvLayer& l, const ConvSchedule& s, const isa::Target& t,
                                            const runtime::Tensor& x, bool serialize,
                                            const runtime::Tensor* right = nullptr);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_RANDOM_LAYER_H_
