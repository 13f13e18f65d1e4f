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
#include <limits>

#include "isa/instruction.h"

namespace accelc::isa::arith {

inline constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
inline constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();

/// Saturates `v` to a signed integer of `bits` bits (2..32).
inline int32_t saturate(int64_t v, int bits) {
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1, lo = -hi - 1;
  return static_cast<int32_t>(v < lo ? lo : v > hi ? hi : v);
}

/// Narrows an accumulator value to int8 with saturation.
inline int8_t saturateInt8(int32_t v) { return static_cast<int8_t>(v < -128 ? -128 : v > 127 ? 127 : v); }

/// Wrapping int32 addition (GEMM accumulation).
inline int32_t gemmAccumulate(int32_t acc, int32_t product) {
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(product));
}

/// Saturating int32 addition (ALU add).
inline int32_t addSat(int32_t a, int32_t b) { return saturate(int64_t{a} + b, 32); }

/// Clamps a data-supplied shift amount to [0, 31].
inline int clampShift(int64_t s) { return s < 0 ? 0 : s > 31 ? 31 : static_cast<int>(s); }

/// Arithmetic shift right (rounds toward -infinity) for s >= 0, clamped to 31;
/// for s < 0 a left shift by -s (clamped to 31) saturating to int32.
inline int32_t shrFloor(int32_t x, int64_t s) {
  if (s >= 0) return x >> clampShift(s);
  return saturate(int64_t{x} * (int64_t{1} << clampShift(-s)), 32);
}

/// Shift right rounding to nearest, ties away from zero; s is clamped to [0, 31].
inline int32_t shrRoundAway(int32_t x, int64_t s) {
  const int n = clampShift(s);
  if (n == 0) return x;
  const int64_t half = int64_t{1} << (n - 1), v = x;
  return static_cast<int32_t>(v >= 0 ? (v + half) >> n : -((-v + half) >> n));
}

/// Wrapping int32 multiply (ALU mul): the low 32 bits of a*b, computed in
/// uint32 so that overflow wraps instead of being undefined.
inline int32_t mulWrap(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

/// Saturating rounding doubling high multiply (gemmlowp, TFLite).
inline int32_t mulq(int32_t a, int32_t b) {
  if (a == kInt32Min && b == kInt32Min) return kInt32Max;
  const int64_t ab = int64_t{a} * b;
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
}

/// min(max(a, -b), b) in 64 bits.
inline int32_t clip(int32_t a, int32_t b) {
  const int64_t lo = -int64_t{b}, hi = b;
  int64_t v = a < lo ? lo : a;
  return static_cast<int32_t>(v > hi ? hi : v);
}

/// The normative requantization: clamp(zp + shrr(mulq(acc, m), s), lo, hi).
inline int32_t requantize(int32_t acc, int32_t m, int64_t s, int32_t zp, int32_t lo, int32_t hi) {
  int32_t v = addSat(zp, shrRoundAway(mulq(acc, m), s));
  return v < lo ? lo : v > hi ? hi : v;
}

/// The second operand an immediate stands for: the sign-extended immediate
/// (min, max, add, mul, shr, shrr, clip, mov), except for mulq, whose
/// immediate is the top `immBits` bits of the Q31 multiplier
/// (imm << (32 - immBits)). mul takes the immediate as an integer factor.
inline int32_t aluImmediate(AluOp op, int64_t imm, int immBits) {
  if (op == AluOp::kMulq && immBits < 32)
    return static_cast<int32_t>(static_cast<uint32_t>(imm) << (32 - immBits));
  return static_cast<int32_t>(imm);
}

/// One ALU lane: acc[dst] = op(a = acc[dst], b = operand).
inline int32_t aluApply(AluOp op, int32_t a, int32_t b) {
  switch (op) {
    case AluOp::kMin:
      return a < b ? a : b;
    case AluOp::kMax:
      return a > b ? a : b;
    case AluOp::kAdd:
      return addSat(a, b);
    case AluOp::kMulq:
      return mulq(a, b);
    case AluOp::kShr:
      return shrFloor(a, b);
    case AluOp::kShrr:
      return shrRoundAway(a, b);
    case AluOp::kClip:
      return clip(a, b);
    case AluOp::kMov:
      return b;
    case AluOp::kMul:
      return mulWrap(a, b);
  }
  return a;
}

}  // namespace accelc::isa::arith

#endif  // ACCELC_ISA_ARITH_H_
