// isa/arith.h — the accelerator's integer arithmetic, defined once.
//
// Every engine (reference kernels, fsim, the cycle model, RTL via its tests,
// HLS C++) computes with these functions; docs/isa.md states the same rules.
//
//   * All values are two's complement. Accumulators are int32.
//   * GEMM accumulation wraps modulo 2^32 (gemmAccumulate); the compiler keeps
//     reductions short enough that it never does.
//   * ALU `add` saturates to int32. `min`, `max`, `mov` are exact.
//   * `clip(a, b)` = min(max(a, -b), b) evaluated in 64 bits; b < 0 yields b.
//   * `mul(a, b)` is the low 32 bits of a*b (wrapping, two's complement), for
//     elementwise products (per-channel scales, gates, hard-swish's x*h).
//   * `mulq(a, b)` is gemmlowp's SaturatingRoundingDoublingHighMul: the high
//     32 bits of 2*a*b, rounded to nearest with ties toward +infinity, and
//     mulq(INT32_MIN, INT32_MIN) = INT32_MAX (the only overflow).
//   * `shr` is an arithmetic shift right (floor); a negative amount -n shifts
//     left by n, saturating to int32 (n clamped to 31). `shrr` shifts right
//     rounding to nearest, ties away from zero (gemmlowp's
//     RoundingDivideByPOT), its amount clamped to [0, 31]: a negative amount
//     shifts by 0. A right shift above 31 shifts by 31.
//   * Narrowing to the output type saturates.
//   * Requantization: q = clamp(zp + shrr(mulq(acc, M), s), lo, hi).
#ifndef ACCELC_ISA_ARITH_H_
#define ACCELC_ISA_ARITH_H_

#include <cstdint>

#include "isa/arith_ops.h"
#include "isa/instruction.h"

namespace accelc::isa::arith {

static_assert(kNumAluIndices == kNumAluOps, "isa/arith_ops.h numbers every ALU operation");
#define ACCELC_ALU_INDEX(E, n) \
  static_assert(static_cast<int>(AluOp::k##E) == kAlu##E, "isa/arith_ops.h numbers the ALU operations as the ISA");
ACCELC_ISA_ENUM_AluOp(ACCELC_ALU_INDEX)
#undef ACCELC_ALU_INDEX

/// The second operand an immediate stands for: the sign-extended immediate
/// (min, max, add, mul, shr, shrr, clip, mov), except for mulq, whose
/// immediate is the top `immBits` bits of the Q31 multiplier
/// (imm << (32 - immBits)). mul takes the immediate as an integer factor.
inline int32_t aluImmediate(AluOp op, int64_t imm, int immBits) {
  return aluImmediateOf(static_cast<int>(op), imm, immBits);
}

/// One ALU lane: acc[dst] = op(a = acc[dst], b = operand).
inline int32_t aluApply(AluOp op, int32_t a, int32_t b) { return aluLane(static_cast<int>(op), a, b); }

}  // namespace accelc::isa::arith

#endif  // ACCELC_ISA_ARITH_H_
