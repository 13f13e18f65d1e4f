// tests/isa/arith_test.cc — the accelerator's arithmetic, every tie case.
#include <gtest/gtest.h>

#include "isa/arith.h"

namespace accelc::isa::arith {
namespace {

TEST(ArithTest, ShrRoundAwayBreaksTiesAwayFromZero) {
  EXPECT_EQ(shrRoundAway(1, 1), 1);    // 0.5
  EXPECT_EQ(shrRoundAway(-1, 1), -1);  // -0.5
  EXPECT_EQ(shrRoundAway(3, 1), 2);    // 1.5
  EXPECT_EQ(shrRoundAway(-3, 1), -2);  // -1.5
  EXPECT_EQ(shrRoundAway(5, 1), 3);    // 2.5
  EXPECT_EQ(shrRoundAway(-5, 1), -3);  // -2.5
  EXPECT_EQ(shrRoundAway(6, 2), 2);    // 1.5
  EXPECT_EQ(shrRoundAway(-6, 2), -2);  // -1.5
  EXPECT_EQ(shrRoundAway(5, 2), 1);    // 1.25
  EXPECT_EQ(shrRoundAway(7, 2), 2);    // 1.75
  EXPECT_EQ(shrRoundAway(-7, 2), -2);  // -1.75
  EXPECT_EQ(shrRoundAway(-5, 2), -1);  // -1.25
}

TEST(ArithTest, ShiftAmountsAreClampedAndNegativeShrShiftsLeft) {
  EXPECT_EQ(shrRoundAway(77, 0), 77);
  EXPECT_EQ(shrRoundAway(77, -3), 77);
  EXPECT_EQ(shrFloor(77, -1), 154);  // a negative amount shifts left, saturating
  EXPECT_EQ(shrFloor(-255, -8), -255 * 256);
  EXPECT_EQ(shrFloor(1 << 23, -8), kInt32Max);
  EXPECT_EQ(shrFloor(-(1 << 23) - 1, -8), kInt32Min);
  EXPECT_EQ(shrFloor(1, -40), kInt32Max);
  EXPECT_EQ(shrRoundAway(kInt32Min, 40), -1);
  EXPECT_EQ(shrRoundAway(1 << 30, 31), 1);        // exactly 0.5
  EXPECT_EQ(shrRoundAway((1 << 30) - 1, 31), 0);
  EXPECT_EQ(shrRoundAway(-(1 << 30), 99), -1);    // exactly -0.5
  EXPECT_EQ(shrFloor(-1, 40), -1);
  EXPECT_EQ(shrFloor(kInt32Max, 40), 0);
}

TEST(ArithTest, ShrFloorRoundsTowardMinusInfinity) {
  EXPECT_EQ(shrFloor(5, 1), 2);
  EXPECT_EQ(shrFloor(-5, 1), -3);
  EXPECT_EQ(shrFloor(-1, 1), -1);
}

TEST(ArithTest, MulqIsGemmlowpsSaturatingRoundingDoublingHighMul) {
  EXPECT_EQ(mulq(1 << 15, 1 << 15), 1);       // 0.5 rounds up
  EXPECT_EQ(mulq(-(1 << 15), 1 << 15), 0);    // -0.5 rounds toward +infinity
  EXPECT_EQ(mulq(3 << 15, 1 << 15), 2);       // 1.5
  EXPECT_EQ(mulq(-(3 << 15), 1 << 15), -1);   // -1.5
  EXPECT_EQ(mulq(kInt32Min, kInt32Min), kInt32Max);  // the only overflow
  EXPECT_EQ(mulq(kInt32Min, kInt32Max), -kInt32Max);
  EXPECT_EQ(mulq(1000, 1 << 30), 500);        // x 0.5
  EXPECT_EQ(mulq(1001, 1 << 30), 501);        // 500.5 rounds up
  EXPECT_EQ(mulq(-1001, 1 << 30), -500);      // -500.5 rounds up
  EXPECT_EQ(mulq(123456, kInt32Max), 123456);
}

TEST(ArithTest, RequantizeFollowsTheNormativeFormula) {
  // 1000 * 0.75 = 750, >> 3 = 93.75 -> 94, + 5 = 99.
  EXPECT_EQ(requantize(1000, 3 << 29, 3, 5, -128, 127), 99);
  EXPECT_EQ(requantize(100000, 3 << 29, 3, 5, -128, 127), 127);
  EXPECT_EQ(requantize(-100000, 3 << 29, 3, 0, -128, 127), -128);
  EXPECT_EQ(requantize(-12, 1 << 30, 1, 0, -128, 127), -3);  // -6 >> 1 = -3
  EXPECT_EQ(requantize(-10, 1 << 30, 1, 0, -128, 127), -3);  // -5 / 2 = -2.5 -> -3
}

TEST(ArithTest, SaturationAndClip) {
  EXPECT_EQ(saturateInt8(200), 127);
  EXPECT_EQ(saturateInt8(-200), -128);
  EXPECT_EQ(saturateInt8(-128), -128);
  EXPECT_EQ(addSat(kInt32Max, 1), kInt32Max);
  EXPECT_EQ(addSat(kInt32Min, -1), kInt32Min);
  EXPECT_EQ(gemmAccumulate(kInt32Max, 1), kInt32Min);
  EXPECT_EQ(clip(5, 3), 3);
  EXPECT_EQ(clip(-5, 3), -3);
  EXPECT_EQ(clip(2, -1), -1);
  EXPECT_EQ(clip(kInt32Min, kInt32Min), kInt32Min);
  EXPECT_EQ(clip(kInt32Min, kInt32Max), -kInt32Max);
}

TEST(ArithTest, MulqImmediateIsTheTopBitsOfTheMultiplier) {
  EXPECT_EQ(aluImmediate(AluOp::kMulq, 0x4000, 16), 1 << 30);
  EXPECT_EQ(aluImmediate(AluOp::kMulq, -1, 16), -65536);
  EXPECT_EQ(aluImmediate(AluOp::kAdd, -1, 16), -1);
  EXPECT_EQ(aluImmediate(AluOp::kMulq, 12345, 32), 12345);
}

TEST(ArithTest, AluOpsApplyTheirDefinitions) {
  EXPECT_EQ(aluApply(AluOp::kMin, 3, -4), -4);
  EXPECT_EQ(aluApply(AluOp::kMax, 3, -4), 3);
  EXPECT_EQ(aluApply(AluOp::kAdd, kInt32Max, 5), kInt32Max);
  EXPECT_EQ(aluApply(AluOp::kMulq, 1001, 1 << 30), 501);
  EXPECT_EQ(aluApply(AluOp::kShr, -5, 1), -3);
  EXPECT_EQ(aluApply(AluOp::kShrr, -5, 1), -3);
  EXPECT_EQ(aluApply(AluOp::kShrr, 5, 1), 3);
  EXPECT_EQ(aluApply(AluOp::kClip, 200, 127), 127);
  EXPECT_EQ(aluApply(AluOp::kMov, 1, 9), 9);
  EXPECT_EQ(aluApply(AluOp::kMul, -3, 7), -21);
}

TEST(ArithTest, MulKeepsTheLow32BitsOfTheProduct) {
  EXPECT_EQ(aluApply(AluOp::kMul, 65536, 65536), 0);  // 2^32
  EXPECT_EQ(aluApply(AluOp::kMul, kInt32Max, 2), -2);
  EXPECT_EQ(aluApply(AluOp::kMul, kInt32Min, -1), kInt32Min);
  EXPECT_EQ(aluApply(AluOp::kMul, kInt32Min, kInt32Min), 0);
  EXPECT_EQ(aluApply(AluOp::kMul, 46341, 46341), -2147479015);  // 2^31 + 4633 wraps
  EXPECT_EQ(aluApply(AluOp::kMul, 65537, 65537), 131073);       // 2^32 + 2^17 + 1
}

TEST(ArithTest, MulImmediateIsSignExtendedLikeAdd) {
  EXPECT_EQ(aluImmediate(AluOp::kMul, -3, 16), -3);
  EXPECT_EQ(aluImmediate(AluOp::kMul, -32768, 16), -32768);
  EXPECT_EQ(aluImmediate(AluOp::kMul, 2047, 12), 2047);
  EXPECT_EQ(aluApply(AluOp::kMul, 65536, aluImmediate(AluOp::kMul, -32768, 16)), kInt32Min);
}

}  // namespace
}  // namespace accelc::isa::arith
