// isa/arith_ops.h — the accelerator's integer arithmetic, the one definition.
//
// The rules are isa/arith.h's (its header comment states them); this file
// holds the functions themselves and includes nothing but <stdint.h>, so that
// the generated HLS C++ compiles this very file (accelc hls copies it into
// the project as accelc_arith_ops.h) instead of a second hand-written copy.
// Vitis HLS synthesizes it as plain C++: no library calls, no intrinsics.
#ifndef ACCELC_ISA_ARITH_OPS_H_
#define ACCELC_ISA_ARITH_OPS_H_

#include <stdint.h>

// C++11 forms only (nested namespaces spelled out, no inline variables):
// Vitis HLS compiles this file too.
namespace accelc {
namespace isa {
namespace arith {

constexpr int32_t kInt32Max = 2147483647;
constexpr int32_t kInt32Min = -kInt32Max - 1;

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

/// The ALU operations, numbered as isa::AluOp numbers them (isa/arith.h
/// checks that the two agree).
enum AluIndex { kAluMin, kAluMax, kAluAdd, kAluMulq, kAluShr, kAluShrr, kAluClip, kAluMov, kAluMul, kNumAluIndices };

/// The second operand an immediate of `immBits` bits stands for: the
/// sign-extended immediate, except for mulq, whose immediate is the top bits
/// of the Q31 multiplier (imm << (32 - immBits)).
inline int32_t aluImmediateOf(int op, int64_t imm, int immBits) {
  if (op == kAluMulq && immBits < 32) return static_cast<int32_t>(static_cast<uint32_t>(imm) << (32 - immBits));
  return static_cast<int32_t>(imm);
}

/// One ALU lane: op(a = acc[dst], b = operand) for the operation numbered `op`.
inline int32_t aluLane(int op, int32_t a, int32_t b) {
  switch (op) {
    case kAluMin:
      return a < b ? a : b;
    case kAluMax:
      return a > b ? a : b;
    case kAluAdd:
      return addSat(a, b);
    case kAluMulq:
      return mulq(a, b);
    case kAluShr:
      return shrFloor(a, b);
    case kAluShrr:
      return shrRoundAway(a, b);
    case kAluClip:
      return clip(a, b);
    case kAluMov:
      return b;
    case kAluMul:
      return mulWrap(a, b);
  }
  return a;
}

}  // namespace arith
}  // namespace isa
}  // namespace accelc

#endif  // ACCELC_ISA_ARITH_OPS_H_
