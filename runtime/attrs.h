// runtime/attrs.h — typed attributes, one struct per attribute shape.
//
// Every struct lists its fields once, in visitFields(); the ONNX importer, the
// graph text printer and parser all walk that list, so an attribute has one
// name (the ONNX one) and one type everywhere. Defaults are ONNX's; the
// importer overrides the ones that differ between ops (Concat's axis, ...).
#ifndef ACCELC_RUNTIME_ATTRS_H_
#define ACCELC_RUNTIME_ATTRS_H_

#include <cstdint>
#include <iterator>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "runtime/tensor.h"

namespace accelc::runtime {

using Ints = std::vector<int64_t>;

/// String attributes are closed sets: each is an enum, and AttrEnum<E>::kNames
/// lists its ONNX spellings in enumerator order. The importer, the graph
/// text and the bundle handle every such enum through enumName/parseEnum.
template <typename E>
struct AttrEnum;

/// True for the enums that AttrEnum describes.
template <typename E, typename = void>
struct IsAttrEnum : std::false_type {};
template <typename E>
struct IsAttrEnum<E, std::void_t<decltype(AttrEnum<E>::kNames)>> : std::true_type {};

/// The ONNX spelling of `e`.
template <typename E>
const char* enumName(E e) {
  return AttrEnum<E>::kNames[static_cast<size_t>(e)];
}
/// How many enumerators E has.
template <typename E>
constexpr size_t enumCount() {
  return std::size(AttrEnum<E>::kNames);
}
/// Parses an ONNX spelling; false when `s` is none of them.
template <typename E>
bool parseEnum(const std::string& s, E& out) {
  for (size_t i = 0; i < enumCount<E>(); ++i)
    if (s == AttrEnum<E>::kNames[i]) {
      out = static_cast<E>(i);
      return true;
    }
  return false;
}
/// "a, b or c": the spellings, for "expected ..." messages.
template <typename E>
std::string enumChoices() {
  std::string s;
  for (size_t i = 0; i < enumCount<E>(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == enumCount<E>() ? " or " : ", ") + AttrEnum<E>::kNames[i];
  return s;
}

/// ONNX auto_pad.
enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };
template <>
struct AttrEnum<AutoPad> {
  static constexpr const char* kNames[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
};
/// Pad's mode.
enum class PadMode { kConstant, kReflect, kEdge };
template <>
struct AttrEnum<PadMode> {
  static constexpr const char* kNames[] = {"constant", "reflect", "edge"};
};
/// Resize's interpolation.
enum class ResizeMode { kNearest, kLinear, kCubic };
template <>
struct AttrEnum<ResizeMode> {
  static constexpr const char* kNames[] = {"nearest", "linear", "cubic"};
};
/// Resize's coordinate_transformation_mode: how an output coordinate maps to the input.
enum class CoordMode { kHalfPixel, kPytorchHalfPixel, kAlignCorners, kAsymmetric, kTfCropAndResize, kTfHalfPixelForNn };
template <>
struct AttrEnum<CoordMode> {
  static constexpr const char* kNames[] = {"half_pixel", "pytorch_half_pixel", "align_corners",
                                           "asymmetric", "tf_crop_and_resize",  "tf_half_pixel_for_nn"};
};
/// Resize's nearest_mode: how a fractional coordinate picks its pixel.
enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };
template <>
struct AttrEnum<NearestMode> {
  static constexpr const char* kNames[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
};
/// DepthToSpace's mode: depth-column-row or column-row-depth.
enum class DepthMode { kDCR, kCRD };
template <>
struct AttrEnum<DepthMode> {
  static constexpr const char* kNames[] = {"DCR", "CRD"};
};
/// How a scatter combines an update with the value it lands on.
enum class ScatterReduction { kNone, kAdd, kMul };
template <>
struct AttrEnum<ScatterReduction> {
  static constexpr const char* kNames[] = {"none", "add", "mul"};
};
/// How a loss reduces its per-element values.
enum class LossReduction { kNone, kSum, kMean };
template <>
struct AttrEnum<LossReduction> {
  static constexpr const char* kNames[] = {"none", "sum", "mean"};
};
/// The direction a recurrent layer runs in.
enum class RnnDirection { kForward, kReverse, kBidirectional };
template <>
struct AttrEnum<RnnDirection> {
  static constexpr const char* kNames[] = {"forward", "reverse", "bidirectional"};
};
/// Gelu's approximation.
enum class GeluApprox { kNone, kTanh };
template <>
struct AttrEnum<GeluApprox> {
  static constexpr const char* kNames[] = {"none", "tanh"};
};

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

/// LeakyRelu, Elu, Celu, ThresholdedRelu: one coefficient (ONNX's default
/// differs per op; the importer sets it).
struct AlphaAttrs {
  float alpha = 1.0f;
  template <typename V>
  void visitFields(V& v) {
    v("alpha", alpha);
  }
  bool operator==(const AlphaAttrs& o) const { return alpha == o.alpha; }
};

/// HardSigmoid: max(0, min(1, alpha * x + beta)).
struct AlphaBetaAttrs {
  float alpha = 0.2f, beta = 0.5f;
  template <typename V>
  void visitFields(V& v) {
    v("alpha", alpha), v("beta", beta);
  }
  bool operator==(const AlphaBetaAttrs& o) const { return alpha == o.alpha && beta == o.beta; }
};

/// Selu: gamma * (x > 0 ? x : alpha * (exp(x) - 1)).
struct SeluAttrs {
  float alpha = 1.67326319217681884765625f, gamma = 1.05070102214813232421875f;
  template <typename V>
  void visitFields(V& v) {
    v("alpha", alpha), v("gamma", gamma);
  }
  bool operator==(const SeluAttrs& o) const { return alpha == o.alpha && gamma == o.gamma; }
};

/// Shrink: x < -lambd ? x + bias : x > lambd ? x - bias : 0.
struct ShrinkAttrs {
  float bias = 0.0f, lambd = 0.5f;
  template <typename V>
  void visitFields(V& v) {
    v("bias", bias), v("lambd", lambd);
  }
  bool operator==(const ShrinkAttrs& o) const { return bias == o.bias && lambd == o.lambd; }
};

struct GeluAttrs {
  GeluApprox approximate = GeluApprox::kNone;
  template <typename V>
  void visitFields(V& v) {
    v("approximate", approximate);
  }
  bool operator==(const GeluAttrs& o) const { return approximate == o.approximate; }
};

struct IsInfAttrs {
  int64_t detectNegative = 1, detectPositive = 1;
  template <typename V>
  void visitFields(V& v) {
    v("detect_negative", detectNegative), v("detect_positive", detectPositive);
  }
  bool operator==(const IsInfAttrs& o) const {
    return detectNegative == o.detectNegative && detectPositive == o.detectPositive;
  }
};

/// Mod: fmod = 1 takes the dividend's sign (C fmod), 0 the divisor's (Python %).
struct ModAttrs {
  int64_t fmod = 0;
  template <typename V>
  void visitFields(V& v) {
    v("fmod", fmod);
  }
  bool operator==(const ModAttrs& o) const { return fmod == o.fmod; }
};

/// ArgMax, ArgMin.
struct ArgAttrs {
  int64_t axis = 0, keepdims = 1, selectLastIndex = 0;
  template <typename V>
  void visitFields(V& v) {
    v("axis", axis), v("keepdims", keepdims), v("select_last_index", selectLastIndex);
  }
  bool operator==(const ArgAttrs& o) const {
    return axis == o.axis && keepdims == o.keepdims && selectLastIndex == o.selectLastIndex;
  }
};

struct CumSumAttrs {
  int64_t exclusive = 0, reverse = 0;
  template <typename V>
  void visitFields(V& v) {
    v("exclusive", exclusive), v("reverse", reverse);
  }
  bool operator==(const CumSumAttrs& o) const { return exclusive == o.exclusive && reverse == o.reverse; }
};

struct TopKAttrs {
  int64_t axis = -1, largest = 1, sorted = 1;
  template <typename V>
  void visitFields(V& v) {
    v("axis", axis), v("largest", largest), v("sorted", sorted);
  }
  bool operator==(const TopKAttrs& o) const { return axis == o.axis && largest == o.largest && sorted == o.sorted; }
};

/// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss.
struct LossAttrs {
  static constexpr int64_t kNoIgnore = INT64_MIN;  ///< ignore_index absent: every target counts
  int64_t ignoreIndex = kNoIgnore;
  LossReduction reduction = LossReduction::kMean;
  template <typename V>
  void visitFields(V& v) {
    v("ignore_index", ignoreIndex), v("reduction", reduction);
  }
  bool operator==(const LossAttrs& o) const { return ignoreIndex == o.ignoreIndex && reduction == o.reduction; }
};

/// Pad: pads and value are attributes before opset 11, inputs after.
struct PadAttrs {
  PadMode mode = PadMode::kConstant;
  Ints pads;
  float value = 0.0f;
  template <typename V>
  void visitFields(V& v) {
    v("mode", mode), v("pads", pads), v("value", value);
  }
  bool operator==(const PadAttrs& o) const { return mode == o.mode && pads == o.pads && value == o.value; }
};

struct ResizeAttrs {
  CoordMode coordMode = CoordMode::kHalfPixel;
  float cubicCoeffA = -0.75f;
  int64_t excludeOutside = 0;
  float extrapolationValue = 0.0f;
  ResizeMode mode = ResizeMode::kNearest;
  NearestMode nearestMode = NearestMode::kRoundPreferFloor;
  template <typename V>
  void visitFields(V& v) {
    v("coordinate_transformation_mode", coordMode), v("cubic_coeff_a", cubicCoeffA);
    v("exclude_outside", excludeOutside), v("extrapolation_value", extrapolationValue), v("mode", mode);
    v("nearest_mode", nearestMode);
  }
  bool operator==(const ResizeAttrs& o) const {
    return coordMode == o.coordMode && cubicCoeffA == o.cubicCoeffA && excludeOutside == o.excludeOutside &&
           extrapolationValue == o.extrapolationValue && mode == o.mode && nearestMode == o.nearestMode;
  }
};

/// DepthToSpace (blocksize, mode), SpaceToDepth (blocksize).
struct BlockAttrs {
  int64_t blocksize = 1;
  DepthMode mode = DepthMode::kDCR;
  template <typename V>
  void visitFields(V& v) {
    v("blocksize", blocksize), v("mode", mode);
  }
  bool operator==(const BlockAttrs& o) const { return blocksize == o.blocksize && mode == o.mode; }
};

struct GatherNDAttrs {
  int64_t batchDims = 0;
  template <typename V>
  void visitFields(V& v) {
    v("batch_dims", batchDims);
  }
  bool operator==(const GatherNDAttrs& o) const { return batchDims == o.batchDims; }
};

/// ScatterElements (axis, reduction), ScatterND (reduction).
struct ScatterAttrs {
  int64_t axis = 0;
  ScatterReduction reduction = ScatterReduction::kNone;
  template <typename V>
  void visitFields(V& v) {
    v("axis", axis), v("reduction", reduction);
  }
  bool operator==(const ScatterAttrs& o) const { return axis == o.axis && reduction == o.reduction; }
};

struct TriluAttrs {
  int64_t upper = 1;
  template <typename V>
  void visitFields(V& v) {
    v("upper", upper);
  }
  bool operator==(const TriluAttrs& o) const { return upper == o.upper; }
};

/// EyeLike: `dtype` is the input's when the model gives none (the importer fills it in).
struct EyeLikeAttrs {
  DType dtype = DType::kFloat32;
  int64_t k = 0;
  template <typename V>
  void visitFields(V& v) {
    v("dtype", dtype), v("k", k);
  }
  bool operator==(const EyeLikeAttrs& o) const { return dtype == o.dtype && k == o.k; }
};

struct ConvTransposeAttrs {
  Ints kernelShape, strides, pads, dilations;  ///< empty = ONNX default
  Ints outputPadding, outputShape;             ///< empty = 0s / computed from pads
  int64_t group = 1;
  AutoPad autoPad = AutoPad::kNotSet;
  template <typename V>
  void visitFields(V& v) {
    v("kernel_shape", kernelShape), v("strides", strides), v("pads", pads), v("dilations", dilations);
    v("output_padding", outputPadding), v("output_shape", outputShape), v("group", group), v("auto_pad", autoPad);
  }
  bool operator==(const ConvTransposeAttrs& o) const {
    return kernelShape == o.kernelShape && strides == o.strides && pads == o.pads && dilations == o.dilations &&
           outputPadding == o.outputPadding && outputShape == o.outputShape && group == o.group &&
           autoPad == o.autoPad;
  }
};

/// LpNormalization.
struct LpNormAttrs {
  int64_t axis = -1, p = 2;
  template <typename V>
  void visitFields(V& v) {
    v("axis", axis), v("p", p);
  }
  bool operator==(const LpNormAttrs& o) const { return axis == o.axis && p == o.p; }
};

/// RNN, GRU, LSTM with their default activations (Tanh; Sigmoid and Tanh for
/// the gates). `clip` 0 means no clipping (ONNX's default; a clip must be > 0).
struct RnnAttrs {
  int64_t hiddenSize = 0;
  RnnDirection direction = RnnDirection::kForward;
  int64_t layout = 0;             ///< 0: [seq, batch, ...]; 1: [batch, seq, ...]
  float clip = 0.0f;
  int64_t linearBeforeReset = 0;  ///< GRU: apply the reset gate after the recurrent product
  int64_t inputForget = 0;        ///< LSTM: couple the input and forget gates
  template <typename V>
  void visitFields(V& v) {
    v("hidden_size", hiddenSize), v("direction", direction), v("layout", layout), v("clip", clip);
    v("linear_before_reset", linearBeforeReset), v("input_forget", inputForget);
  }
  bool operator==(const RnnAttrs& o) const {
    return hiddenSize == o.hiddenSize && direction == o.direction && layout == o.layout && clip == o.clip &&
           linearBeforeReset == o.linearBeforeReset && inputForget == o.inputForget;
  }
};

/// QConv and QGemm: an int8 convolution (QGemm: a dense layer) whose int32
/// result is requantized with the normative formula of isa/arith.h.
struct QConvAttrs {
  Ints strides, pads;      ///< as Conv's (2-D); empty = 1s and 0s
  int64_t padValue = 0;    ///< the int8 value padding stands for (the input's zero point)
  int64_t zeroPoint = 0;   ///< output zero point (int8 domain)
  int64_t lo = -128, hi = 127;  ///< output clamp (ReLU: lo = zeroPoint)
  int64_t group = 1;            ///< channel groups, as Conv's (depthwise: one channel per group)
  template <typename V>
  void visitFields(V& v) {
    v("strides", strides), v("pads", pads), v("pad_value", padValue), v("zero_point", zeroPoint);
    v("lo", lo), v("hi", hi), v("group", group);
  }
  bool operator==(const QConvAttrs& o) const {
    return strides == o.strides && pads == o.pads && padValue == o.padValue && zeroPoint == o.zeroPoint &&
           lo == o.lo && hi == o.hi && group == o.group;
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

/// QClip and QHardSigmoid: one int8 input rescaled with an offset, then clamped:
///   y = clamp(zero_point + shrr(mulq((x - zero_x)·2^8, mult) +sat offset, shift), lo, hi)
struct QRescaleAttrs {
  int64_t zeroX = 0, mult = 0, shift = 0, offset = 0;  ///< input zero point, Q31 multiplier, shift, offset
  int64_t zeroPoint = 0, lo = -128, hi = 127;          ///< output zero point and clamp
  template <typename V>
  void visitFields(V& v) {
    v("zero_x", zeroX), v("mult", mult), v("shift", shift), v("offset", offset);
    v("zero_point", zeroPoint), v("lo", lo), v("hi", hi);
  }
  bool operator==(const QRescaleAttrs& o) const {
    return zeroX == o.zeroX && mult == o.mult && shift == o.shift && offset == o.offset && zeroPoint == o.zeroPoint &&
           lo == o.lo && hi == o.hi;
  }
};

/// QHardSwish: x · hardsigmoid(x) in integers. With d = x - zero_x,
///   h = clamp(shrr(mulq(d·2^8, mult_h) +sat offset_h, shift_h), 0, one_h)   (hardsigmoid, one_h stands for 1)
///   y = clamp(zero_point + shrr(mulq(d·h, mult), shift), lo, hi)
struct QHardSwishAttrs {
  int64_t zeroX = 0, multH = 0, offsetH = 0, shiftH = 0, oneH = 1;  ///< the gate h
  int64_t mult = 0, shift = 0, zeroPoint = 0, lo = -128, hi = 127;  ///< the product's requantization
  template <typename V>
  void visitFields(V& v) {
    v("zero_x", zeroX), v("mult_h", multH), v("offset_h", offsetH), v("shift_h", shiftH), v("one_h", oneH);
    v("mult", mult), v("shift", shift), v("zero_point", zeroPoint), v("lo", lo), v("hi", hi);
  }
  bool operator==(const QHardSwishAttrs& o) const {
    return zeroX == o.zeroX && multH == o.multH && offsetH == o.offsetH && shiftH == o.shiftH && oneH == o.oneH &&
           mult == o.mult && shift == o.shift && zeroPoint == o.zeroPoint && lo == o.lo && hi == o.hi;
  }
};

/// QMul (elementwise, b broadcast to a) and QMatMul (numpy matmul, batch dims broadcast) of two int8 tensors:
///   y = clamp(zero_point + shrr(mulq(P, mult), shift), lo, hi),  P = (a - zero_a)·(b - zero_b)
/// (QMatMul: P = Σ_k (a - zero_a)·(b - zero_b), int32 wrapping).
struct QMulAttrs {
  int64_t zeroA = 0, zeroB = 0, mult = 0, shift = 0;  ///< input zero points, Q31 multiplier, shift
  int64_t zeroPoint = 0, lo = -128, hi = 127;         ///< output zero point and clamp
  template <typename V>
  void visitFields(V& v) {
    v("zero_a", zeroA), v("zero_b", zeroB), v("mult", mult), v("shift", shift);
    v("zero_point", zeroPoint), v("lo", lo), v("hi", hi);
  }
  bool operator==(const QMulAttrs& o) const {
    return zeroA == o.zeroA && zeroB == o.zeroB && mult == o.mult && shift == o.shift && zeroPoint == o.zeroPoint &&
           lo == o.lo && hi == o.hi;
  }
};

/// QConcat: int8 inputs joined along `axis`, input i rescaled to the output's scale:
///   y_i = clamp(zero_point + shrr(mulq((x_i - zeros[i])·2^8, mults[i]), shift), -128, 127)
/// (an input whose mult is 2^(23 + shift) and zero the output's is copied unchanged).
struct QConcatAttrs {
  int64_t axis = 0;     ///< the joined axis
  Ints zeros, mults;    ///< per input: zero point, Q31 multiplier
  int64_t shift = 0, zeroPoint = 0;  ///< output shift and zero point
  template <typename V>
  void visitFields(V& v) {
    v("axis", axis), v("zeros", zeros), v("mults", mults), v("shift", shift), v("zero_point", zeroPoint);
  }
  bool operator==(const QConcatAttrs& o) const {
    return axis == o.axis && zeros == o.zeros && mults == o.mults && shift == o.shift && zeroPoint == o.zeroPoint;
  }
};

/// Any op's attributes.
using Attrs = std::variant<NoAttrs, ConvAttrs, PoolAttrs, GemmAttrs, NormAttrs, AxisAttrs, SoftmaxAttrs, ReshapeAttrs,
                           PermAttrs, AxesAttrs, SplitAttrs, ReduceAttrs, CastAttrs, ShapeAttrs, DropoutAttrs,
                           ConstantAttrs, QConvAttrs, QAddAttrs, QPoolAttrs, Im2colAttrs, AlphaAttrs, AlphaBetaAttrs,
                           SeluAttrs, GeluAttrs, IsInfAttrs, ModAttrs, ArgAttrs, CumSumAttrs, TopKAttrs, LossAttrs,
                           PadAttrs, ResizeAttrs, BlockAttrs, GatherNDAttrs, ScatterAttrs, TriluAttrs, EyeLikeAttrs,
                           ConvTransposeAttrs, LpNormAttrs, RnnAttrs, ShrinkAttrs, QRescaleAttrs, QHardSwishAttrs,
                           QMulAttrs, QConcatAttrs>;

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_ATTRS_H_
