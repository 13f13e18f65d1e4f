// runtime/ops.h — op kinds (from ops.def) and running one op on host tensors.
//
// These reference kernels are the golden semantics of every operator (ONNX's,
// opsets 11-17): every other engine is compared with them. They are written
// for obvious correctness, one loop nest per op family templated over the
// element type, and fast enough to run ResNet-18 in seconds.
#ifndef ACCELC_RUNTIME_OPS_H_
#define ACCELC_RUNTIME_OPS_H_

#include <optional>
#include <string>
#include <vector>

#include "runtime/attrs.h"
#include "runtime/tensor.h"
#include "support/status.h"

namespace accelc::runtime {

enum class OpKind {
#define ACCELC_OP(Name, AttrsT, minIn, maxIn, onnx) k##Name,
#include "runtime/ops.def"
#undef ACCELC_OP
};

/// Static facts about an op kind.
struct OpInfo {
  const char* name;  ///< ONNX op type
  int minInputs;     ///< required inputs
  int maxInputs;     ///< with the optional ones
  bool onnx;         ///< an ONNX operator (else one of accelc's integer ops)
};
const OpInfo& opInfo(OpKind k);
/// The op kind of an op type name (ONNX's or accelc's), if accelc has it.
std::optional<OpKind> findOp(const std::string& name);
/// Every op kind, in table order.
std::vector<OpKind> allOps();
/// Default-constructed attributes of the right struct for `k`.
Attrs defaultAttrs(OpKind k);

/// Why integer-op attributes lie outside the values their semantics are
/// defined on (zero points in int8, Q31 multipliers in [0, 2^31), shifts in
/// [0, 31], offsets in int32, one_h in [1, 2^23]), as "attribute NAME is V;
/// expected a value in [LO, HI]"; "" when they are fine. The reference
/// kernels and the accelerator's lowering both check with these.
std::string attrsProblem(const QRescaleAttrs& a);
std::string attrsProblem(const QHardSwishAttrs& a);
std::string attrsProblem(const QMulAttrs& a);
std::string attrsProblem(const QConcatAttrs& a);

/// Runs op `k` on `inputs` (null for an omitted optional input) and fills
/// `outputs` (its size is the node's output count). `loc` names the node.
support::Status runOp(OpKind k, const Attrs& attrs, const std::vector<const Tensor*>& inputs,
                      std::vector<Tensor>& outputs, const support::Location& loc);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_OPS_H_
