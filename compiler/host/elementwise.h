// compiler/host/elementwise.h — the host kernels' first form: a fused chain of
// elementwise float operations, and the schedule its loop runs under.
//
// A chain is a small expression DAG over its inputs (each holding as many
// float32 elements as the output) in topological order; the last node is the
// result. The algorithm (EwKernel) and the schedule (EwSchedule: vector width
// and unroll) are separate, as the accelerator's are. Each operation means
// what the runtime's reference kernel computes for one float element
// (runtime/kernels/elementwise.cc): Relu is `x > 0 ? x : 0`, Clip is
// `min(max(x, lo), hi)` in std::min/std::max's order, Min and Max are
// std::min(a, b) and std::max(a, b) (`b < a ? b : a`, `a < b ? b : a`), Sigmoid is
// `1 / (1 + exp(-x))`, and exp, pow, tanh and erf are the C library's (float), so a
// generated kernel gives the reference's bits.
#ifndef ACCELC_COMPILER_HOST_ELEMENTWISE_H_
#define ACCELC_COMPILER_HOST_ELEMENTWISE_H_

#include <string>
#include <vector>

#include "support/status.h"

namespace accelc::compiler::host {

/// The operations of a chain. The last eight are the integer ops' arithmetic
/// (isa/arith.h) and the conversions between float and int32; only loop
/// kernels use them (ewIntegerOp), where int32 values also take Add, Sub and
/// Mul (wrapping), Min, Max, Relu and Clip (compiler/host/loop_ir.h).
enum class EwOp {
  kInput,
  kConst,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kMin,
  kMax,
  kRelu,
  kClip,
  kSigmoid,
  kTanh,
  kErf,
  kSqrt,
  kExp,
  kAddSat,   ///< int32: isa::arith::addSat
  kMulq,     ///< int32: isa::arith::mulq
  kShrr,     ///< int32: isa::arith::shrRoundAway(a, b)
  kToFloat,  ///< int32 -> float, rounded to nearest
  kToInt,    ///< float -> int32, toward zero, saturating, NaN to 0
  kRound,    ///< float: to the nearest integer, ties to even (nearbyint)
  kXor,      ///< int32: bitwise exclusive or
  kDot4,     ///< int32: Σ_t u8(byte t of a) · s8(byte t of b), the 4-byte dot product of x86's vpdpbusd
  kAnd,      ///< int32: bitwise and
  kDot2,     ///< int32: Σ_t s16(half t of a) · s16(half t of b), wrapping: the pair product of x86's vpmaddwd
  kDot4S,    ///< int32: Σ_t s8(byte t of a) · s8(byte t of b), both bytes signed (AMX's tdpbssd)
};

/// Whether `op` is one of the loop kernels' own operations (kAddSat .. kDot4S).
bool ewIntegerOp(EwOp op);

/// One node: an input, a constant, or an operation on earlier nodes.
struct EwNode {
  EwOp op = EwOp::kInput;
  int a = -1, b = -1;          ///< operands (earlier nodes); b for the binary operations
  int input = -1;              ///< kInput: which input
  float value = 0.0f;          ///< kConst
  float lo = 0.0f, hi = 0.0f;  ///< kClip
  bool scalar = false;         ///< kInput: the input holds one element, broadcast to every one
};

/// A fused chain; the last node is its result.
struct EwKernel {
  int numInputs = 0;
  std::vector<EwNode> nodes;

  /// Appends a node; returns its index.
  int add(EwNode n) {
    nodes.push_back(n);
    return static_cast<int>(nodes.size()) - 1;
  }
  int input(int i, bool scalar = false) {
    EwNode n{EwOp::kInput, -1, -1, i};
    n.scalar = scalar;
    return add(n);
  }
  int constant(float v) { return add({EwOp::kConst, -1, -1, -1, v}); }
  int unary(EwOp op, int a) { return add({op, a}); }
  int binary(EwOp op, int a, int b) { return add({op, a, b}); }
  int clip(int a, float lo, float hi) { return add({EwOp::kClip, a, -1, -1, 0.0f, lo, hi}); }
  /// Ok when every operand names an earlier node and every input index is in range; else why not.
  support::Status validate(const std::string& name) const;
};

/// How the chain's loop runs: `vector` elements a step (1, 4, 8 or 16), the
/// step unrolled `unroll` times (1 to 8); the tail runs one element a step.
struct EwSchedule {
  int vector = 8;
  int unroll = 2;
  support::Status validate(const std::string& name) const;
};

const char* ewOpName(EwOp op);
/// How many operands `op` takes (0 for an input or a constant).
int ewArity(EwOp op);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_ELEMENTWISE_H_
