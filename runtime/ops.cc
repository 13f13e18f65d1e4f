// runtime/ops.cc — the op table and dispatch to the kernel families.
#include "runtime/ops.h"

#include "runtime/internal/kernels.h"
#include "support/half.h"
#include "support/memory.h"

namespace accelc::runtime {

namespace {
const OpInfo kInfo[] = {
#define ACCELC_OP(Name, AttrsT, minIn, maxIn, onnx) {#Name, minIn, maxIn, onnx != 0},
#include "runtime/ops.def"
#undef ACCELC_OP
};
}  // namespace

const OpInfo& opInfo(OpKind k) { return kInfo[static_cast<int>(k)]; }

std::optional<OpKind> findOp(const std::string& name) {
  for (size_t i = 0; i < std::size(kInfo); ++i)
    if (name == kInfo[i].name) return OpKind(i);
  return std::nullopt;
}

std::vector<OpKind> allOps() {
  std::vector<OpKind> v;
  for (size_t i = 0; i < std::size(kInfo); ++i) v.push_back(OpKind(i));
  return v;
}

Attrs defaultAttrs(OpKind k) {
  switch (k) {
#define ACCELC_OP(Name, AttrsT, minIn, maxIn, onnx) \
  case OpKind::k##Name:                       \
    return AttrsT{};
#include "runtime/ops.def"
#undef ACCELC_OP
  }
  return NoAttrs{};
}

namespace {

/// A copy of `t` with float16 (from) converted to float32, or back (to half).
Tensor convertHalf(const Tensor& t, bool toHalf) {
  Tensor out(toHalf ? DType::kFloat16 : DType::kFloat32, t.shape());
  out.quant = t.quant;
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (toHalf) out.data<uint16_t>()[i] = support::floatToHalf(t.data<float>()[i]);
    else out.data<float>()[i] = support::halfToFloat(t.data<uint16_t>()[i]);
  }
  return out;
}

/// The dtype attribute of the ops whose result type is an attribute, or null.
DType* targetDType(OpKind k, Attrs& a) {
  if (k == OpKind::kCast) return &std::get<CastAttrs>(a).to;
  if (k == OpKind::kEyeLike) return &std::get<EyeLikeAttrs>(a).dtype;
  return nullptr;
}

support::Status dispatch(OpKind k, const Attrs& attrs, const std::vector<const Tensor*>& inputs,
                         std::vector<Tensor>& outputs, const support::Location& loc);

}  // namespace

// float16 is computed in float32, as most runtimes without half arithmetic
// do: float16 inputs are widened, the kernel runs, and its float32 results
// are rounded back to float16 (for Cast and EyeLike: when float16 is their
// target). So every kernel serves float16 without instantiating for it.
support::Status runOp(OpKind k, const Attrs& attrs, const std::vector<const Tensor*>& inputs,
                      std::vector<Tensor>& outputs, const support::Location& loc) {
  if (k == OpKind::kCastLike && inputs.size() == 2 && inputs[0] && inputs[1])  // Cast to the second input's dtype
    return runOp(OpKind::kCast, CastAttrs{inputs[1]->dtype()}, {inputs[0]}, outputs, loc);
  Attrs a = attrs;
  DType* target = targetDType(k, a);
  const bool halfTarget = target && *target == DType::kFloat16;
  bool halfInput = false;
  for (const Tensor* t : inputs) halfInput = halfInput || (t && t->dtype() == DType::kFloat16);
  if (!halfTarget && !halfInput) return dispatch(k, attrs, inputs, outputs, loc);
  std::vector<Tensor> wide(inputs.size());
  std::vector<const Tensor*> ptrs(inputs);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i] && inputs[i]->dtype() == DType::kFloat16) wide[i] = convertHalf(*inputs[i], false), ptrs[i] = &wide[i];
  if (halfTarget) *target = DType::kFloat32;
  ACCELC_TRY(dispatch(k, a, ptrs, outputs, loc));
  if (target && !halfTarget) return support::Status::ok();  // a cast from float16 to another type
  for (Tensor& t : outputs)
    if (t.dtype() == DType::kFloat32) t = convertHalf(t, true);
  return support::Status::ok();
}

namespace {

support::Status dispatch(OpKind k, const Attrs& attrs, const std::vector<const Tensor*>& inputs,
                         std::vector<Tensor>& outputs, const support::Location& loc) {
  kernels::Ctx c(inputs, outputs, loc);
  const OpInfo& info = opInfo(k);
  for (int i = 0; i < info.minInputs; ++i)
    if (!c.has(i)) return c.fail(std::string(info.name) + ": input " + std::to_string(i) + " is required");
  switch (k) {
    case OpKind::kConv:
    case OpKind::kConvInteger:
    case OpKind::kQLinearConv:
      return kernels::conv(k, std::get<ConvAttrs>(attrs), c);
    case OpKind::kGemm:
      return kernels::matmul(k, std::get<GemmAttrs>(attrs), c);
    case OpKind::kMatMul:
    case OpKind::kMatMulInteger:
    case OpKind::kQLinearMatMul:
      return kernels::matmul(k, GemmAttrs{}, c);
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
      return kernels::pool(k, std::get<PoolAttrs>(attrs), c);
    case OpKind::kGlobalAveragePool:
      return kernels::pool(k, PoolAttrs{}, c);
    case OpKind::kQuantizeLinear:
    case OpKind::kDequantizeLinear:
      return kernels::quantize(k, std::get<AxisAttrs>(attrs), c);
    case OpKind::kQConv:
    case OpKind::kQGemm:
      return kernels::qconv(k, std::get<QConvAttrs>(attrs), c);
    case OpKind::kQAdd:
      return kernels::qadd(std::get<QAddAttrs>(attrs), c);
    case OpKind::kQAveragePool:
      return kernels::qavgpool(std::get<QPoolAttrs>(attrs), c);
    case OpKind::kQClip:
    case OpKind::kQHardSigmoid:
      return kernels::qrescale(std::get<QRescaleAttrs>(attrs), c);
    case OpKind::kQHardSwish:
      return kernels::qhardswish(std::get<QHardSwishAttrs>(attrs), c);
    case OpKind::kQMul:
    case OpKind::kQMatMul:
      return kernels::qmul(k, std::get<QMulAttrs>(attrs), c);
    case OpKind::kQConcat:
      return kernels::qconcat(std::get<QConcatAttrs>(attrs), c);
    case OpKind::kIm2col:
      return kernels::im2col(std::get<Im2colAttrs>(attrs), c);
    case OpKind::kBatchNormalization:
    case OpKind::kLayerNormalization:
    case OpKind::kReduceMean:
    case OpKind::kSoftmax:
      return kernels::normalize(k, attrs, c);
    case OpKind::kFlatten:
    case OpKind::kReshape:
    case OpKind::kTranspose:
    case OpKind::kSqueeze:
    case OpKind::kUnsqueeze:
    case OpKind::kConcat:
    case OpKind::kSplit:
    case OpKind::kSlice:
    case OpKind::kGather:
    case OpKind::kShape:
    case OpKind::kConstant:
    case OpKind::kConstantOfShape:
      return kernels::shapeOp(k, attrs, c);
    case OpKind::kAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kDiv:
    case OpKind::kPow:
    case OpKind::kRelu:
    case OpKind::kSigmoid:
    case OpKind::kTanh:
    case OpKind::kErf:
    case OpKind::kSqrt:
    case OpKind::kClip:
    case OpKind::kCast:
    case OpKind::kIdentity:
    case OpKind::kDropout:
      return kernels::elementwise(k, attrs, c);
    case OpKind::kCastLike:  // runOp turned it into a Cast: here its inputs are missing
      return c.fail("CastLike needs its input and the tensor whose dtype it takes");
    case OpKind::kExp:
    case OpKind::kLog:
    case OpKind::kNeg:
    case OpKind::kAbs:
    case OpKind::kReciprocal:
    case OpKind::kFloor:
    case OpKind::kCeil:
    case OpKind::kRound:
    case OpKind::kSign:
    case OpKind::kSin:
    case OpKind::kCos:
    case OpKind::kTan:
    case OpKind::kAsin:
    case OpKind::kAcos:
    case OpKind::kAtan:
    case OpKind::kSinh:
    case OpKind::kCosh:
    case OpKind::kAsinh:
    case OpKind::kAcosh:
    case OpKind::kAtanh:
    case OpKind::kSoftplus:
    case OpKind::kSoftsign:
    case OpKind::kHardSwish:
    case OpKind::kLeakyRelu:
    case OpKind::kElu:
    case OpKind::kCelu:
    case OpKind::kThresholdedRelu:
    case OpKind::kHardSigmoid:
    case OpKind::kSelu:
    case OpKind::kGelu:
    case OpKind::kIsNaN:
    case OpKind::kIsInf:
    case OpKind::kNot:
    case OpKind::kSilu:
    case OpKind::kShrink:
      return kernels::activation(k, attrs, c);
    case OpKind::kPRelu:
    case OpKind::kMod:
    case OpKind::kEqual:
    case OpKind::kLess:
    case OpKind::kLessOrEqual:
    case OpKind::kGreater:
    case OpKind::kGreaterOrEqual:
    case OpKind::kAnd:
    case OpKind::kOr:
    case OpKind::kXor:
    case OpKind::kMin:
    case OpKind::kMax:
    case OpKind::kMean:
    case OpKind::kSum:
    case OpKind::kWhere:
      return kernels::broadcastOp(k, attrs, c);
    case OpKind::kReduceSum:
    case OpKind::kReduceMax:
    case OpKind::kReduceMin:
    case OpKind::kReduceProd:
    case OpKind::kReduceL1:
    case OpKind::kReduceL2:
    case OpKind::kReduceLogSum:
    case OpKind::kReduceLogSumExp:
    case OpKind::kReduceSumSquare:
    case OpKind::kArgMax:
    case OpKind::kArgMin:
    case OpKind::kLogSoftmax:
    case OpKind::kHardmax:
    case OpKind::kCumSum:
    case OpKind::kTopK:
      return kernels::reduce(k, attrs, c);
    case OpKind::kNegativeLogLikelihoodLoss:
    case OpKind::kSoftmaxCrossEntropyLoss:
      return kernels::loss(k, std::get<LossAttrs>(attrs), c);
    case OpKind::kExpand:
    case OpKind::kTile:
    case OpKind::kRange:
    case OpKind::kPad:
    case OpKind::kDepthToSpace:
    case OpKind::kSpaceToDepth:
    case OpKind::kGatherElements:
    case OpKind::kGatherND:
    case OpKind::kScatterElements:
    case OpKind::kScatterND:
    case OpKind::kOneHot:
    case OpKind::kTrilu:
    case OpKind::kSize:
    case OpKind::kEyeLike:
    case OpKind::kNonZero:
      return kernels::dataOp(k, attrs, c);
    case OpKind::kResize:
      return kernels::resize(std::get<ResizeAttrs>(attrs), c);
    case OpKind::kConvTranspose:
      return kernels::convTranspose(std::get<ConvTransposeAttrs>(attrs), c);
    case OpKind::kGlobalMaxPool:
      return kernels::pool(k, PoolAttrs{}, c);
    case OpKind::kInstanceNormalization:
    case OpKind::kLpNormalization:
      return kernels::normalize(k, attrs, c);
    case OpKind::kRNN:
    case OpKind::kGRU:
    case OpKind::kLSTM:
      return kernels::recurrent(k, std::get<RnnAttrs>(attrs), c);
  }
  return c.fail("unhandled op");
}

}  // namespace

namespace kernels {

Status Ctx::expectType(int i, std::initializer_list<DType> ok) const {
  for (DType t : ok)
    if (in(i).dtype() == t) return Status::ok();
  std::string names;
  for (DType t : ok) names += std::string(names.empty() ? "" : ", ") + support::dtypeName(t);
  return fail("input " + std::to_string(i) + " has dtype " + support::dtypeName(in(i).dtype()) + "; expected " + names);
}

Status Ctx::expectSameType(int i, int j) const {
  if (!has(j) || in(j).dtype() == in(i).dtype()) return Status::ok();
  return fail("input " + std::to_string(j) + " has dtype " + support::dtypeName(in(j).dtype()) +
              "; expected one dtype with input " + std::to_string(i) + " (" + support::dtypeName(in(i).dtype()) + ")");
}

Status Ctx::expectRank(int i, int64_t r) const {
  if (in(i).rank() == r) return Status::ok();
  return fail("input " + std::to_string(i) + " has rank " + std::to_string(in(i).rank()) + "; expected " +
              std::to_string(r));
}

support::Expected<Tensor> Ctx::alloc(DType t, Shape shape) const {
  ACCELC_TRY(support::checkTensorAllocation(t, shape, "a result", loc_));
  return Tensor(t, std::move(shape));
}

bool normAxis(int64_t& axis, int64_t rank) {
  if (axis < -rank || axis >= rank) return false;
  if (axis < 0) axis += rank;
  return true;
}

Ints intsOf(const Tensor& t) {
  Ints v(t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = t.intAt(i);
  return v;
}

Shape stridesOf(const Shape& s) {
  Shape st(s.size(), 1);
  for (int64_t i = static_cast<int64_t>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

bool broadcastShape(const Shape& a, const Shape& b, Shape& out) {
  size_t r = std::max(a.size(), b.size());
  out.assign(r, 1);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

}  // namespace kernels
}  // namespace accelc::runtime
