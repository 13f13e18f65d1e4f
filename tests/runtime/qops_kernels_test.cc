// tests/runtime/qops_kernels_test.cc — QClip, QHardSigmoid, QHardSwish, QMul,
// QMatMul and QConcat on hand-computed values, broadcasts and bad attributes.
#include <gtest/gtest.h>

#include "runtime/ops.h"
#include "tests/runtime/kernel_test_util.h"

namespace accelc::runtime {
namespace {

using support::DType;

constexpr int64_t kHalf = int64_t{1} << 30;  // mulq(v, 2^30) = v/2

Tensor i8(Shape s, std::vector<int8_t> v) { return Tensor::of<int8_t>(std::move(s), v); }

TEST(QOpsKernelsTest, QClipRescalesRoundingAwayAndClamps) {
  // mulq(d·2^8, 2^30) = d·2^7, shrr by 8: round-away(d / 2); then + 5 and clamp to [-10, 50].
  QRescaleAttrs a{1, kHalf, 8, 0, 5, -10, 50};
  EXPECT_EQ(values<int8_t>(run(OpKind::kQClip, a, {i8({6}, {-3, -1, 1, 3, 100, -100})})),
            (std::vector<int8_t>{3, 4, 5, 6, 50, -10}));
}

TEST(QOpsKernelsTest, QHardSigmoidAddsItsOffsetBeforeTheShift) {
  // round-away(x / 2 + 3) clamped to [0, 4]: 3, 3.5 -> 4, -0.5 -> -1 -> 0, 8 -> 4.
  QRescaleAttrs a{0, kHalf, 8, 3 << 8, 0, 0, 4};
  EXPECT_EQ(values<int8_t>(run(OpKind::kQHardSigmoid, a, {i8({4}, {0, 1, -7, 10})})), (std::vector<int8_t>{3, 4, 0, 4}));
}

TEST(QOpsKernelsTest, QHardSwishGatesTheInputWithItsHardSigmoid) {
  // h = clamp(d + 8, 0, 16) (mult_h 2^30, shift_h 7, offset_h 8·2^7); y = 2 + shrr(d·h / 2, 3).
  QHardSwishAttrs a{0, kHalf, 8 << 7, 7, 16, kHalf, 3, 2, -128, 127};
  EXPECT_EQ(values<int8_t>(run(OpKind::kQHardSwish, a, {i8({5}, {-10, -4, 0, 4, 10})})),
            (std::vector<int8_t>{2, 1, 2, 5, 12}));
}

TEST(QOpsKernelsTest, QMulBroadcastsBAlongA) {
  // (a - 1)·(b + 1) = {0, -4, 16, -4, -16, 0}; mulq by 2^30 halves, shrr 1 halves again; hi = 3.
  QMulAttrs a{1, -1, kHalf, 1, 0, -128, 3};
  EXPECT_EQ(values<int8_t>(run(OpKind::kQMul, a, {i8({2, 3}, {1, 3, 5, -1, 9, 1}), i8({3}, {1, -3, 3})})),
            (std::vector<int8_t>{0, -1, 3, -1, -4, 0}));
}

TEST(QOpsKernelsTest, QMulBroadcastsBothWays) {
  const auto r = run(OpKind::kQMul, QMulAttrs{0, 0, kHalf, 0, 0, -128, 127}, {i8({2, 1}, {2, 4}), i8({1, 3}, {1, 2, 3})});
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{2, 3}));
  EXPECT_EQ(values<int8_t>(r), (std::vector<int8_t>{1, 2, 3, 2, 4, 6}));
}

TEST(QOpsKernelsTest, QMatMulBroadcastsAMissingBatch) {
  // a [2,2,3] · b [3,2]: {{4,5},{0,1}} and {{2,0},{2,2}}; mulq by 2^30 halves, ties up.
  const Tensor a = i8({2, 2, 3}, {1, 2, 3, 0, 1, 0, 2, 0, 0, 1, 1, 1}), b = i8({3, 2}, {1, 0, 0, 1, 1, 1});
  const auto r = run(OpKind::kQMatMul, QMulAttrs{0, 0, kHalf, 0, 0, -128, 127}, {a, b});
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(values<int8_t>(r), (std::vector<int8_t>{2, 3, 0, 1, 1, 0, 1, 1}));
}

TEST(QOpsKernelsTest, QMatMulBroadcastsBatchDimsBothWaysAndSubtractsZeros) {
  // a [2,1,1,2] (zero 1) · b [3,2,1] (zero -1): rows (1,2),(3,4) times columns (1,1),(2,0),(0,3).
  const Tensor a = i8({2, 1, 1, 2}, {2, 3, 4, 5}), b = i8({3, 2, 1}, {0, 0, 1, -1, -1, 2});
  const auto r = run(OpKind::kQMatMul, QMulAttrs{1, -1, kHalf, 0, 0, -128, 127}, {a, b});
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{2, 3, 1, 1}));
  EXPECT_EQ(values<int8_t>(r), (std::vector<int8_t>{2, 1, 3, 4, 3, 6}));  // {3,2,6,7,6,12} halved, ties up
}

TEST(QOpsKernelsTest, QConcatWithIdentityRescaleCopiesBytes) {
  const Tensor a = i8({1, 2, 2}, {-128, 127, 5, 0}), b = i8({1, 2, 1}, {-7, 99});
  const auto r = run(OpKind::kQConcat, QConcatAttrs{-1, {5, 5}, {kHalf, kHalf}, 7, 5}, {a, b});  // 2^(23+7)
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(values<int8_t>(r), (std::vector<int8_t>{-128, 127, -7, 5, 0, 99}));
}

TEST(QOpsKernelsTest, QConcatRescalesEachInputToTheOutput) {
  // Input 1 halves (mult 2^29 at shift 7) around its zero point 1: d = {2, 3, -3} -> {1, 2, -2}, + 5.
  const auto r = run(OpKind::kQConcat, QConcatAttrs{0, {5, 1}, {kHalf, kHalf / 2}, 7, 5}, {i8({1}, {9}), i8({3}, {3, 4, -2})});
  EXPECT_EQ(values<int8_t>(r), (std::vector<int8_t>{9, 6, 7, 3}));
}

TEST(QOpsKernelsTest, EmptyTensorsGiveEmptyResults) {
  const auto r = run(OpKind::kQClip, QRescaleAttrs{0, kHalf, 7, 0, 0, -128, 127}, {i8({0, 3}, {})});
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{0, 3}));
  const auto m = run(OpKind::kQMatMul, QMulAttrs{0, 0, kHalf, 0, 0, -128, 127}, {i8({2, 0}, {}), i8({0, 3}, {})});
  EXPECT_EQ(values<int8_t>(m), std::vector<int8_t>(6, 0));
}

TEST(QOpsKernelsTest, AttributesThatCouldOverflowAreErrors) {
  const Tensor x = i8({2}, {1, 2});
  EXPECT_NE(failure(run(OpKind::kQClip, QRescaleAttrs{0, kHalf, 32, 0, 0, -128, 127}, {x})).find("shift is 32"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kQClip, QRescaleAttrs{300, kHalf, 7, 0, 0, -128, 127}, {x})).find("zero_x is 300"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kQHardSigmoid, QRescaleAttrs{0, int64_t{1} << 31, 7, 0, 0, 0, 1}, {x})).find("mult"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kQHardSwish, QHardSwishAttrs{0, kHalf, 0, 7, 0, kHalf, 3, 0, -128, 127}, {x})).find("one_h"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kQMul, QMulAttrs{0, 0, kHalf, -1, 0, -128, 127}, {x, x})).find("shift is -1"),
            std::string::npos);
}

TEST(QOpsKernelsTest, MismatchedShapesAndCountsAreLocatedErrors) {
  const Tensor x = i8({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(failure(run(OpKind::kQConcat, QConcatAttrs{0, {0}, {kHalf, kHalf}, 7, 0}, {x, x})),
            "m.onnx:n: error: QConcat has 2 inputs but 1 zeros and 2 mults; expected one of each per input");
  EXPECT_NE(failure(run(OpKind::kQMatMul, QMulAttrs{0, 0, kHalf, 0, 0, -128, 127}, {x, x})).find("cannot be multiplied"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kQMul, QMulAttrs{0, 0, kHalf, 0, 0, -128, 127}, {x, i8({2}, {1, 2})})).find("broadcast"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kQClip, QRescaleAttrs{0, kHalf, 7, 0, 0, -128, 127}, {Tensor(DType::kFloat32, {2})})),
            "");
}

}  // namespace
}  // namespace accelc::runtime
