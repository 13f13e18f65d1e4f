// runtime/attrs.h — typed attributes, one struct per attribute shape.
//
// Every struct lists its fields once, in visitFields(); the ONNX importer, the
// graph text printer and parser all walk that list, so an attribute has one
// name (the ONNX one) and one type everywhere. Defaults are ONNX's; the
// importer overrides the ones that differ between ops (Concat's axis, ...).
#ifndef ACCELC_RUNTIME_ATTRS_H_
#define ACCELC_RUNTIME_ATTRS_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "runtime/tensor.h"

namespace accelc::runtime {

using Ints = std::vector<int64_t>;

/// ONNX auto_pad.
enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };
const char* autoPadName(AutoPad p);
bool parseAutoPad(const std::string& s, AutoPad& out);

struct NoAttrs {
  template <typename V>
  void visitFields(V&) {}
  bool operator==(const NoAttrs&) const { return true; }
};

/// Conv, ConvInteger, QLinearConv.
struct ConvAttrs {
  Ints kernelShape, strides, pads, dilations;  ///< empty = ONNX default
  int64_t group = 1;
  AutoPad autoPad = AutoPad::kNotSet;
  template <typename V>
  void visitFields(V& v) {
    v("kernel_shape", kernelShape), v("strides", strides), v("pads", pads), v("dilations", dilations);
    v("group", group), v("auto_pad", autoPad);
  }
  bool operator==(const ConvAttrs& o) const {
    return kernelShape == o.kernelShape && strides == o.strides && pads == o.pads && dilations == o.dilations &&
           group == o.group && autoPad == o.autoPad;
  }
};

/// MaxPool, AveragePool.
struct PoolAttrs {
  Ints kernelShape, strides, pads, dilations;
  AutoPad autoPad = AutoPad::kNotSet;
  int64_t ceilMode = 0, countIncludePad = 0, storageOrder = 0;
  template <typename V>
  void visitFields(V& v) {
    v("kernel_shape", kernelShape), v("strides", strides), v("pads", pads), v("dilations", dilations);
    v("auto_pad", autoPad), v("ceil_mode", ceilMode), v("count_include_pad", countIncludePad);
    v("storage_order", storageOrder);
  }
  bool operator==(const PoolAttrs& o) const {
    return kernelShape == o.kernelShape && strides == o.strides && pads == o.pads && dilations == o.dilations &&
           autoPad == o.autoPad && ceilMode == o.ceilMode && countIncludePad == o.countIncludePad &&
           storageOrder == o.storageOrder;
  }
};

struct GemmAttrs {
  float alpha = 1.0f, beta = 1.0f;
  int64_t transA = 0, transB = 0;
  template <typename V>
  void visitFields(V& v) {
    v("alpha", alpha), v("beta", beta), v("transA", transA), v("transB", transB);
  }
  bool operator==(const GemmAttrs& o) const {
    return alpha == o.alpha && beta == o.beta && transA == o.transA && transB == o.transB;
  }
};

/// BatchNormalization (epsilon) and LayerNormalization (axis, epsilon).
struct NormAttrs {
  float epsilon = 1e-5f;
  int64_t axis = -1;
  float momentum = 0.9f;  ///< training only; kept so that models with it import
  int64_t stashType = 1;  ///< LayerNormalization's computation type (1 = float)
  int64_t trainingMode = 0;  ///< BatchNormalization: normalize with the batch's statistics
  template <typename V>
  void visitFields(V& v) {
    v("epsilon", epsilon), v("axis", axis), v("momentum", momentum), v("stash_type", stashType);
    v("training_mode", trainingMode);
  }
  bool operator==(const NormAttrs& o) const {
    return epsilon == o.epsilon && axis == o.axis && momentum == o.momentum && stashType == o.stashType &&
           trainingMode == o.trainingMode;
  }
};

/// One axis: Flatten, Concat, Gather, QuantizeLinear, DequantizeLinear.
struct AxisAttrs {
  int64_t axis = 0;
  template <typename V>
  void visitFields(V& v) {
    v("axis", axis);
  }
  bool operator==(const AxisAttrs& o) const { return axis == o.axis; }
};

/// Softmax: `legacy` (opsets < 13) coerces the input to 2-D at `axis`.
struct SoftmaxAttrs {
  int64_t axis = -1;
  int64_t legacy = 0;
  template <typename V>
  void visitFields(V& v) {
    v("axis", axis), v("legacy", legacy);
  }
  bool operator==(const SoftmaxAttrs& o) const { return axis == o.axis && legacy == o.legacy; }
};

struct ReshapeAttrs {
  int64_t allowzero = 0;
  template <typename V>
  void visitFields(V& v) {
    v("allowzero", allowzero);
  }
  bool operator==(const ReshapeAttrs& o) const { return allowzero == o.allowzero; }
};

struct PermAttrs {
  Ints perm;  ///< empty = reverse the axes
  template <typename V>
  void visitFields(V& v) {
    v("perm", perm);
  }
  bool operator==(const PermAttrs& o) const { return perm == o.perm; }
};

/// Squeeze, Unsqueeze: axes from the attribute (opset < 13) or a second input.
struct AxesAttrs {
  Ints axes;
  template <typename V>
  void visitFields(V& v) {
    v("axes", axes);
  }
  bool operator==(const AxesAttrs& o) const { return axes == o.axes; }
};

struct SplitAttrs {
  int64_t axis = 0;
  Ints split;  ///< sizes (opset < 13); else the second input, else equal parts
  template <typename V>
  void visitFields(V& v) {
    v("axis", axis), v("split", split);
  }
  bool operator==(const SplitAttrs& o) const { return axis == o.axis && split == o.split; }
};

struct ReduceAttrs {
  Ints axes;  ///< empty = all (unless noop_with_empty_axes)
  int64_t keepdims = 1, noopWithEmptyAxes = 0;
  template <typename V>
  void visitFields(V& v) {
    v("axes", axes), v("keepdims", keepdims), v("noop_with_empty_axes", noopWithEmptyAxes);
  }
  bool operator==(const ReduceAttrs& o) const {
    return axes == o.axes && keepdims == o.keepdims && noopWithEmptyAxes == o.noopWithEmptyAxes;
  }
};

struct CastAttrs {
  DType to = DType::kFloat32;
  template <typename V>
  void visitFields(V& v) {
    v("to", to);
  }
  bool operator==(const CastAttrs& o) const { return to == o.to; }
};

struct ShapeAttrs {
  int64_t start = 0, end = INT64_MAX;
  template <typename V>
  void visitFields(V& v) {
    v("start", start), v("end", end);
  }
  bool operator==(const ShapeAttrs& o) const { return start == o.start && end == o.end; }
};

struct DropoutAttrs {
  int64_t seed = 0;  ///< ignored at inference
  float ratio = 0.5f;  ///< opset < 12; ignored at inference
  template <typename V>
  void visitFields(V& v) {
    v("seed", seed), v("ratio", ratio);
  }
  bool operator==(const DropoutAttrs& o) const { return seed == o.seed && ratio == o.ratio; }
};

struct ConstantAttrs {
  Tensor value;
  template <typename V>
  void visitFields(V& v) {
    v("value", value);
  }
  bool operator==(const ConstantAttrs& o) const { return value == o.value; }
};

/// QConv and QGemm: an int8 convolution (QGemm: a dense layer) whose int32
/// result is requantized with the normative formula of isa/arith.h.
struct QConvAttrs {
  Ints strides, pads;      ///< as Conv's (2-D); empty = 1s and 0s
  int64_t padValue = 0;    ///< the int8 value padding stands for (the input's zero point)
  int64_t zeroPoint = 0;   ///< output zero point (int8 domain)
  int64_t lo = -128, hi = 127;  ///< output clamp (ReLU: lo = zeroPoint)
  template <typename V>
  void visitFields(V& v) {
    v("strides", strides), v("pads", pads), v("pad_value", padValue), v("zero_point", zeroPoint);
    v("lo", lo), v("hi", hi);
  }
  bool operator==(const QConvAttrs& o) const {
    return strides == o.strides && pads == o.pads && padValue == o.padValue && zeroPoint == o.zeroPoint &&
           lo == o.lo && hi == o.hi;
  }
};

/// QAdd: the sum of two int8 tensors with their own scales, requantized.
struct QAddAttrs {
  int64_t zeroA = 0, multA = 0, zeroB = 0, multB = 0;  ///< input zero points and Q31 multipliers
  int64_t shift = 0, zeroPoint = 0, lo = -128, hi = 127;  ///< output shift, zero point, clamp
  template <typename V>
  void visitFields(V& v) {
    v("zero_a", zeroA), v("mult_a", multA), v("zero_b", zeroB), v("mult_b", multB);
    v("shift", shift), v("zero_point", zeroPoint), v("lo", lo), v("hi", hi);
  }
  bool operator==(const QAddAttrs& o) const {
    return zeroA == o.zeroA && multA == o.multA && zeroB == o.zeroB && multB == o.multB && shift == o.shift &&
           zeroPoint == o.zeroPoint && lo == o.lo && hi == o.hi;
  }
};

/// QAveragePool: an unpadded window average requantized like QAdd's operands.
struct QPoolAttrs {
  Ints kernelShape, strides;                 ///< 2-D window and strides (empty = 1s)
  int64_t zeroX = 0, mult = 0, shift = 0;    ///< input zero point, Q31 multiplier, output shift
  int64_t zeroPoint = 0, lo = -128, hi = 127;  ///< output zero point and clamp
  template <typename V>
  void visitFields(V& v) {
    v("kernel_shape", kernelShape), v("strides", strides), v("zero_x", zeroX), v("mult", mult), v("shift", shift);
    v("zero_point", zeroPoint), v("lo", lo), v("hi", hi);
  }
  bool operator==(const QPoolAttrs& o) const {
    return kernelShape == o.kernelShape && strides == o.strides && zeroX == o.zeroX && mult == o.mult &&
           shift == o.shift && zeroPoint == o.zeroPoint && lo == o.lo && hi == o.hi;
  }
};

/// Im2col: a 2-D convolution's input windows unrolled into channels.
struct Im2colAttrs {
  Ints kernelShape, strides, pads;  ///< 2-D window, strides (empty = 1s), pads [top, left, bottom, right] (empty = 0s)
  int64_t padValue = 0;             ///< the int8 value padding stands for
  template <typename V>
  void visitFields(V& v) {
    v("kernel_shape", kernelShape), v("strides", strides), v("pads", pads), v("pad_value", padValue);
  }
  bool operator==(const Im2colAttrs& o) const {
    return kernelShape == o.kernelShape && strides == o.strides && pads == o.pads && padValue == o.padValue;
  }
};

/// Any op's attributes.
using Attrs = std::variant<NoAttrs, ConvAttrs, PoolAttrs, GemmAttrs, NormAttrs, AxisAttrs, SoftmaxAttrs, ReshapeAttrs,
                           PermAttrs, AxesAttrs, SplitAttrs, ReduceAttrs, CastAttrs, ShapeAttrs, DropoutAttrs,
                           ConstantAttrs, QConvAttrs, QAddAttrs, QPoolAttrs, Im2colAttrs>;

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_ATTRS_H_
