// compiler/host/elementwise.cc — checks of a chain and its schedule.
#include "compiler/host/elementwise.h"

namespace accelc::compiler::host {

using support::error;
using support::Location;

const char* ewOpName(EwOp op) {
  switch (op) {
    case EwOp::kInput:
      return "input";
    case EwOp::kConst:
      return "const";
    case EwOp::kAdd:
      return "Add";
    case EwOp::kSub:
      return "Sub";
    case EwOp::kMul:
      return "Mul";
    case EwOp::kDiv:
      return "Div";
    case EwOp::kPow:
      return "Pow";
    case EwOp::kMin:
      return "Min";
    case EwOp::kMax:
      return "Max";
    case EwOp::kRelu:
      return "Relu";
    case EwOp::kClip:
      return "Clip";
    case EwOp::kSigmoid:
      return "Sigmoid";
    case EwOp::kTanh:
      return "Tanh";
    case EwOp::kErf:
      return "Erf";
    case EwOp::kSqrt:
      return "Sqrt";
    case EwOp::kExp:
      return "Exp";
    case EwOp::kAddSat:
      return "AddSat";
    case EwOp::kMulq:
      return "Mulq";
    case EwOp::kShrr:
      return "Shrr";
    case EwOp::kToFloat:
      return "ToFloat";
    case EwOp::kToInt:
      return "ToInt";
    case EwOp::kRound:
      return "Round";
    case EwOp::kXor:
      return "Xor";
    case EwOp::kDot4:
      return "Dot4";
    case EwOp::kAnd:
      return "And";
    case EwOp::kDot2:
      return "Dot2";
    case EwOp::kDot4S:
      return "Dot4S";
  }
  return "?";
}

int ewArity(EwOp op) {
  switch (op) {
    case EwOp::kInput:
    case EwOp::kConst:
      return 0;
    case EwOp::kAdd:
    case EwOp::kSub:
    case EwOp::kMul:
    case EwOp::kDiv:
    case EwOp::kPow:
    case EwOp::kMin:
    case EwOp::kMax:
    case EwOp::kAddSat:
    case EwOp::kMulq:
    case EwOp::kShrr:
    case EwOp::kXor:
    case EwOp::kDot4:
    case EwOp::kAnd:
    case EwOp::kDot2:
    case EwOp::kDot4S:
      return 2;
    case EwOp::kRelu:
    case EwOp::kClip:
    case EwOp::kSigmoid:
    case EwOp::kTanh:
    case EwOp::kErf:
    case EwOp::kSqrt:
    case EwOp::kExp:
    case EwOp::kToFloat:
    case EwOp::kToInt:
    case EwOp::kRound:
      return 1;
  }
  return 0;
}

bool ewIntegerOp(EwOp op) {
  return op == EwOp::kAddSat || op == EwOp::kMulq || op == EwOp::kShrr || op == EwOp::kToFloat || op == EwOp::kToInt ||
         op == EwOp::kRound || op == EwOp::kXor || op == EwOp::kDot4 || op == EwOp::kAnd || op == EwOp::kDot2 ||
         op == EwOp::kDot4S;
}

support::Status EwKernel::validate(const std::string& name) const {
  if (nodes.empty()) return error(Location::node(name, name), "an elementwise chain needs at least one node");
  for (size_t i = 0; i < nodes.size(); ++i) {
    const EwNode& n = nodes[i];
    const std::string at = "node " + std::to_string(i) + " (" + ewOpName(n.op) + ")";
    if (ewIntegerOp(n.op)) return error(Location::node(name, name), at + " exists in loop kernels only");
    if (n.op == EwOp::kInput && (n.input < 0 || n.input >= numInputs))
      return error(Location::node(name, name), at + " reads input " + std::to_string(n.input) + " of " +
                                                   std::to_string(numInputs));
    const int k = ewArity(n.op);
    for (int operand : {n.a, n.b}) {
      if (k == 0 || (k == 1 && operand == n.b)) continue;
      if (operand < 0 || operand >= static_cast<int>(i))
        return error(Location::node(name, name), at + " reads node " + std::to_string(operand) +
                                                     "; operands must be earlier nodes");
    }
  }
  return support::Status::ok();
}

support::Status EwSchedule::validate(const std::string& name) const {
  if (vector != 1 && vector != 4 && vector != 8 && vector != 16)
    return error(Location::node(name, name), "schedule: vector is " + std::to_string(vector) + "; expected 1, 4, 8 or 16");
  if (unroll < 1 || unroll > 8)
    return error(Location::node(name, name), "schedule: unroll is " + std::to_string(unroll) + "; expected 1 to 8");
  return support::Status::ok();
}

}  // namespace accelc::compiler::host
