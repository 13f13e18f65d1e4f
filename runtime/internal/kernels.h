// runtime/internal/kernels.h — the reference kernels' shared context and entry points.
#ifndef ACCELC_RUNTIME_INTERNAL_KERNELS_H_
#define ACCELC_RUNTIME_INTERNAL_KERNELS_H_

#include <string>
#include <vector>

#include "runtime/attrs.h"
#include "runtime/ops.h"
#include "runtime/tensor.h"
#include "support/status.h"

namespace accelc::runtime::kernels {

using support::Status;

/// Inputs, outputs and the node's location for one kernel call.
class Ctx {
 public:
  Ctx(const std::vector<const Tensor*>& in, std::vector<Tensor>& out, const support::Location& loc)
      : in_(in), out_(out), loc_(loc) {}
  int inputs() const { return static_cast<int>(in_.size()); }
  bool has(int i) const { return i < inputs() && in_[i] != nullptr; }
  const Tensor& in(int i) const { return *in_[i]; }
  int outputs() const { return static_cast<int>(out_.size()); }
  Tensor& out(int i) { return out_[i]; }
  /// An error at the node: "model.onnx:node: error: msg".
  support::Diagnostic fail(const std::string& msg) const { return support::error(loc_, msg); }
  /// Fails unless input i has dtype one of `ok`.
  Status expectType(int i, std::initializer_list<DType> ok) const;
  /// Fails unless input j, when present, has input i's dtype.
  Status expectSameType(int i, int j) const;
  /// Fails unless input i has rank r.
  Status expectRank(int i, int64_t r) const;
  /// A zero tensor for a result, once its size is checked against the
  /// memory budget (support/memory.h): shapes come from the model.
  support::Expected<Tensor> alloc(DType t, Shape shape) const;

 private:
  const std::vector<const Tensor*>& in_;  ///< inputs (null = omitted)
  std::vector<Tensor>& out_;              ///< outputs to fill
  const support::Location& loc_;          ///< the node
};

/// Normalizes a possibly negative axis of a rank-r tensor; false when out of range.
bool normAxis(int64_t& axis, int64_t rank);
/// The int64 values of an integer tensor (a shape, axes, repeats, pads).
Ints intsOf(const Tensor& t);
/// Calls fn(double{}) for float64 and fn(float{}) otherwise: the element type
/// of the kernels that take float32 or float64 (checked by the caller).
template <typename Fn>
auto visitFloat(DType t, Fn&& fn) {
  return t == DType::kFloat64 ? fn(double{}) : fn(float{});
}
/// Row-major strides of a shape.
Shape stridesOf(const Shape& s);
/// The numpy broadcast of two shapes; false when they do not broadcast.
bool broadcastShape(const Shape& a, const Shape& b, Shape& out);

// Each family file defines the kernels of its ops.
Status elementwise(OpKind k, const Attrs& a, Ctx& c);   // unary, binary, Clip, Cast, Identity, Dropout
Status conv(OpKind k, const ConvAttrs& a, Ctx& c);        // Conv, ConvInteger, QLinearConv
Status matmul(OpKind k, const GemmAttrs& a, Ctx& c);      // MatMul, Gemm, MatMulInteger, QLinearMatMul
Status pool(OpKind k, const PoolAttrs& a, Ctx& c);        // MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool
Status shapeOp(OpKind k, const Attrs& a, Ctx& c);         // Flatten ... Constant
Status normalize(OpKind k, const Attrs& a, Ctx& c);       // BatchNorm, LayerNorm, InstanceNorm, LpNorm, ReduceMean, Softmax
Status quantize(OpKind k, const AxisAttrs& a, Ctx& c);    // QuantizeLinear, DequantizeLinear
Status qconv(OpKind k, const QConvAttrs& a, Ctx& c);      // QConv, QGemm (accelc integer ops)
Status qadd(const QAddAttrs& a, Ctx& c);                  // QAdd
Status qavgpool(const QPoolAttrs& a, Ctx& c);             // QAveragePool
Status qrescale(const QRescaleAttrs& a, Ctx& c);          // QClip, QHardSigmoid
Status qhardswish(const QHardSwishAttrs& a, Ctx& c);      // QHardSwish
Status qmul(OpKind k, const QMulAttrs& a, Ctx& c);        // QMul, QMatMul
Status qconcat(const QConcatAttrs& a, Ctx& c);            // QConcat
Status im2col(const Im2colAttrs& a, Ctx& c);              // Im2col
Status activation(OpKind k, const Attrs& a, Ctx& c);    // unary math and activations (activation.cc)
Status broadcastOp(OpKind k, const Attrs& a, Ctx& c);   // PRelu, Mod, comparisons, logic, Min/Max/Mean/Sum, Where
Status reduce(OpKind k, const Attrs& a, Ctx& c);        // Reduce*, ArgMax/ArgMin, LogSoftmax, Hardmax, CumSum, TopK
Status loss(OpKind k, const LossAttrs& a, Ctx& c);      // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
Status dataOp(OpKind k, const Attrs& a, Ctx& c);        // Expand ... NonZero: data movement and generation
Status resize(const ResizeAttrs& a, Ctx& c);            // Resize
Status convTranspose(const ConvTransposeAttrs& a, Ctx& c);  // ConvTranspose
Status recurrent(OpKind k, const RnnAttrs& a, Ctx& c);  // RNN, GRU, LSTM

}  // namespace accelc::runtime::kernels

#endif  // ACCELC_RUNTIME_INTERNAL_KERNELS_H_
