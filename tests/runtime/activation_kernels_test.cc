// tests/runtime/activation_kernels_test.cc — unary math, activations, and the
// broadcasting comparison, logic and variadic ops, on edge cases the ONNX node
// tests do not reach (integer wrap-around, NaN, broadcasting, empty tensors).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/half.h"
#include "tests/runtime/kernel_test_util.h"

namespace accelc::runtime {
namespace {

using support::DType;

TEST(ActivationKernelsTest, NegAndAbsOfTheLowestIntegerWrap) {
  const int32_t lo = std::numeric_limits<int32_t>::lowest();
  EXPECT_EQ(values<int32_t>(run(OpKind::kNeg, NoAttrs{}, {Tensor::of<int32_t>({3}, {lo, -5, 7})})),
            (std::vector<int32_t>{lo, 5, -7}));
  EXPECT_EQ(values<int8_t>(run(OpKind::kAbs, NoAttrs{}, {Tensor::of<int8_t>({3}, {-128, -5, 7})})),
            (std::vector<int8_t>{-128, 5, 7}));
  EXPECT_EQ(values<int64_t>(run(OpKind::kSign, NoAttrs{}, {Tensor::of<int64_t>({3}, {-9, 0, 4})})),
            (std::vector<int64_t>{-1, 0, 1}));
}

TEST(ActivationKernelsTest, RoundIsHalfToEven) {
  EXPECT_EQ(values<float>(run(OpKind::kRound, NoAttrs{}, {Tensor::of<float>({5}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f})})),
            (std::vector<float>{0.f, 2.f, 2.f, -0.f, -2.f}));
}

TEST(ActivationKernelsTest, SoftplusDoesNotOverflowForLargeInputs) {
  auto v = values<float>(run(OpKind::kSoftplus, NoAttrs{}, {Tensor::of<float>({3}, {100.f, -100.f, 0.f})}));
  ASSERT_EQ(v.size(), 3u);
  EXPECT_FLOAT_EQ(v[0], 100.f);
  EXPECT_NEAR(v[1], 0.f, 1e-30);
  EXPECT_FLOAT_EQ(v[2], std::log(2.f));
}

TEST(ActivationKernelsTest, CoefficientsComeFromTheAttributes) {
  const Tensor x = Tensor::of<float>({3}, {-2.f, 0.5f, 3.f});
  EXPECT_EQ(values<float>(run(OpKind::kLeakyRelu, AlphaAttrs{0.5f}, {x})), (std::vector<float>{-1.f, 0.5f, 3.f}));
  EXPECT_EQ(values<float>(run(OpKind::kThresholdedRelu, AlphaAttrs{1.f}, {x})), (std::vector<float>{0.f, 0.f, 3.f}));
  EXPECT_EQ(values<float>(run(OpKind::kHardSigmoid, AlphaBetaAttrs{0.25f, 0.5f}, {x})),
            (std::vector<float>{0.f, 0.625f, 1.f}));
  auto gelu = values<float>(run(OpKind::kGelu, GeluAttrs{}, {x}));
  auto tanh = values<float>(run(OpKind::kGelu, GeluAttrs{GeluApprox::kTanh}, {x}));
  ASSERT_EQ(gelu.size(), 3u);
  ASSERT_EQ(tanh.size(), 3u);
  EXPECT_NEAR(gelu[0], -0.0455003f, 1e-6);
  EXPECT_NEAR(tanh[0], -0.0454023f, 1e-6);  // the approximation differs in the fourth digit
}

TEST(ActivationKernelsTest, IsInfDetectsTheSignsAsked) {
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor x = Tensor::of<float>({4}, {inf, -inf, 1.f, std::nanf("")});
  EXPECT_EQ(values<uint8_t>(run(OpKind::kIsInf, IsInfAttrs{0, 1}, {x})), (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(values<uint8_t>(run(OpKind::kIsInf, IsInfAttrs{1, 0}, {x})), (std::vector<uint8_t>{0, 1, 0, 0}));
  EXPECT_EQ(values<uint8_t>(run(OpKind::kIsNaN, NoAttrs{}, {x})), (std::vector<uint8_t>{0, 0, 0, 1}));
}

TEST(ActivationKernelsTest, FloatOnlyOpsRefuseIntegers) {
  EXPECT_NE(failure(run(OpKind::kExp, NoAttrs{}, {Tensor::of<int32_t>({1}, {1})})).find("expected float32"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kNot, NoAttrs{}, {Tensor::of<float>({1}, {1.f})})).find("expected bool"),
            std::string::npos);
}

TEST(ActivationKernelsTest, EmptyTensorsGiveEmptyResults) {
  auto r = run(OpKind::kExp, NoAttrs{}, {Tensor(DType::kFloat32, {2, 0})});
  ASSERT_EQ(r.index(), 0u) << std::get<1>(r);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{2, 0}));
  auto w = run(OpKind::kWhere, NoAttrs{}, {Tensor(DType::kBool, {0, 1}), Tensor::of<float>({3}, {1, 2, 3}),
                                           Tensor::of<float>({1}, {0})});
  ASSERT_EQ(w.index(), 0u) << std::get<1>(w);
  EXPECT_EQ(std::get<0>(w).shape(), (Shape{0, 3}));
}

TEST(ActivationKernelsTest, WhereBroadcastsAllThreeOperands) {
  const Tensor cond = Tensor::of<uint8_t>({2, 1}, {1, 0});
  Tensor c2(DType::kBool, {2, 1});
  c2.bytes() = cond.bytes();
  auto r = run(OpKind::kWhere, NoAttrs{}, {c2, Tensor::of<int64_t>({1, 3}, {1, 2, 3}), Tensor::of<int64_t>({}, {9})});
  EXPECT_EQ(values<int64_t>(r), (std::vector<int64_t>{1, 2, 3, 9, 9, 9}));
}

TEST(ActivationKernelsTest, ComparisonsGiveBoolsAndRefuseMixedTypes) {
  auto r = run(OpKind::kLessOrEqual, NoAttrs{}, {Tensor::of<int32_t>({3}, {1, 2, 3}), Tensor::of<int32_t>({1}, {2})});
  ASSERT_EQ(r.index(), 0u) << std::get<1>(r);
  EXPECT_EQ(std::get<0>(r).dtype(), DType::kBool);
  EXPECT_EQ(values<uint8_t>(r), (std::vector<uint8_t>{1, 1, 0}));
  EXPECT_NE(failure(run(OpKind::kEqual, NoAttrs{}, {Tensor::of<int32_t>({1}, {1}), Tensor::of<int64_t>({1}, {1})}))
                .find("expected one dtype"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kLess, NoAttrs{}, {Tensor::of<float>({2}, {1, 2}), Tensor::of<float>({3}, {1, 2, 3})}))
                .find("do not broadcast"),
            std::string::npos);
}

TEST(ActivationKernelsTest, ModTakesTheDivisorsSignUnlessFmod) {
  const Tensor a = Tensor::of<int32_t>({4}, {-7, 7, -7, 7}), b = Tensor::of<int32_t>({4}, {3, -3, -3, 3});
  EXPECT_EQ(values<int32_t>(run(OpKind::kMod, ModAttrs{0}, {a, b})), (std::vector<int32_t>{2, -2, -1, 1}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kMod, ModAttrs{1}, {a, b})), (std::vector<int32_t>{-1, 1, -1, 1}));
  EXPECT_NE(failure(run(OpKind::kMod, ModAttrs{0}, {a, Tensor::of<int32_t>({1}, {0})})).find("by zero"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kMod, ModAttrs{0}, {Tensor::of<float>({1}, {1}), Tensor::of<float>({1}, {2})}))
                .find("fmod=1"),
            std::string::npos);
  const int32_t lo = std::numeric_limits<int32_t>::lowest();  // INT_MIN % -1 would trap
  EXPECT_EQ(values<int32_t>(run(OpKind::kMod, ModAttrs{0}, {Tensor::of<int32_t>({1}, {lo}), Tensor::of<int32_t>({1}, {-1})})),
            (std::vector<int32_t>{0}));
}

TEST(ActivationKernelsTest, VariadicOpsFoldWithBroadcastingAndPropagateNaN) {
  const float nan = std::nanf("");
  auto mx = values<float>(run(OpKind::kMax, NoAttrs{}, {Tensor::of<float>({2}, {1, nan}), Tensor::of<float>({2, 1}, {3, 0}),
                                                       Tensor::of<float>({}, {2})}));
  ASSERT_EQ(mx.size(), 4u);
  EXPECT_EQ(mx[0], 3.f);
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 2.f);
  EXPECT_EQ(values<float>(run(OpKind::kMean, NoAttrs{}, {Tensor::of<float>({2}, {1, 2}), Tensor::of<float>({2}, {3, 6})})),
            (std::vector<float>{2, 4}));
  EXPECT_EQ(values<float>(run(OpKind::kSum, NoAttrs{}, {Tensor::of<float>({2}, {1, 2})})), (std::vector<float>{1, 2}));
}

TEST(ActivationKernelsTest, PReluSlopeMustBroadcastToTheInput) {
  EXPECT_EQ(values<float>(run(OpKind::kPRelu, NoAttrs{}, {Tensor::of<float>({2, 2}, {-1, 1, -2, 2}),
                                                          Tensor::of<float>({2}, {0.5f, 3.f})})),
            (std::vector<float>{-0.5f, 1, -1, 2}));
  EXPECT_NE(failure(run(OpKind::kPRelu, NoAttrs{}, {Tensor::of<float>({2}, {-1, 1}), Tensor::of<float>({2, 2}, {1, 1, 1, 1})}))
                .find("does not broadcast to x"),
            std::string::npos);
}

TEST(ActivationKernelsTest, SiluIsXTimesItsSigmoid) {
  auto v = values<float>(run(OpKind::kSilu, NoAttrs{}, {Tensor::of<float>({2}, {0.f, 2.f})}));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], 0.f);
  EXPECT_NEAR(v[1], 2.f / (1.f + std::exp(-2.f)), 1e-6);
}


/// A float16 tensor of the given values (rounded to float16).
Tensor half(Shape shape, const std::vector<float>& v) {
  Tensor t(DType::kFloat16, std::move(shape));
  for (size_t i = 0; i < v.size(); ++i) t.data<uint16_t>()[i] = support::floatToHalf(v[i]);
  return t;
}

TEST(ActivationKernelsTest, Float16RunsInFloat32AndRoundsOnce) {
  auto r = run(OpKind::kAdd, NoAttrs{}, {half({3}, {1.0f, 2048.0f, 0.1f}), half({3}, {4e-4f, 1.0f, 0.2f})});
  ASSERT_EQ(r.index(), 0u) << std::get<1>(r);
  const Tensor& y = std::get<0>(r);
  ASSERT_EQ(y.dtype(), DType::kFloat16);
  EXPECT_EQ(y.at(0), 1.0f);     // 1 + 4e-4 rounds back to 1 (float16's ulp at 1 is 2^-10)
  EXPECT_EQ(y.at(1), 2048.0f);  // 2049 is a tie between 2048 and 2050: even wins
  EXPECT_NEAR(y.at(2), 0.3f, 1e-3);
  EXPECT_EQ(values<uint16_t>(run(OpKind::kCast, CastAttrs{DType::kFloat16}, {Tensor::of<float>({2}, {1.0f, -2.0f})})),
            (std::vector<uint16_t>{0x3c00, 0xc000}));
  auto back = run(OpKind::kCast, CastAttrs{DType::kFloat32}, {half({1}, {65504.0f})});
  ASSERT_EQ(back.index(), 0u) << std::get<1>(back);
  EXPECT_EQ(std::get<0>(back).dtype(), DType::kFloat32);
  EXPECT_EQ(std::get<0>(back).at(0), 65504.0f);
}

TEST(ActivationKernelsTest, Float64ComputesInDouble) {
  auto r = run(OpKind::kExp, NoAttrs{}, {Tensor::of<double>({1}, {1.0})});
  ASSERT_EQ(r.index(), 0u) << std::get<1>(r);
  EXPECT_EQ(std::get<0>(r).dtype(), DType::kFloat64);
  EXPECT_EQ(std::get<0>(r).at(0), std::exp(1.0));  // not float32's e
  EXPECT_EQ(values<int16_t>(run(OpKind::kNeg, NoAttrs{}, {Tensor::of<int16_t>({2}, {-32768, 5})})),
            (std::vector<int16_t>{-32768, -5}));
}

TEST(ActivationKernelsTest, CastLikeTakesTheSecondInputsDtype) {
  auto r = run(OpKind::kCastLike, NoAttrs{}, {Tensor::of<float>({2}, {1.5f, -2.5f}), Tensor::of<int32_t>({0}, {})});
  EXPECT_EQ(values<int32_t>(r), (std::vector<int32_t>{1, -2}));
  EXPECT_NE(failure(run(OpKind::kCastLike, NoAttrs{}, {Tensor::of<float>({1}, {1})})).find("input 1 is required"),
            std::string::npos);
}

TEST(ActivationKernelsTest, ShrinkZeroesTheBandAndShiftsTheRest) {
  EXPECT_EQ(values<float>(run(OpKind::kShrink, ShrinkAttrs{1.0f, 1.5f}, {Tensor::of<float>({4}, {-2, -1, 1, 3})})),
            (std::vector<float>{-1, 0, 0, 2}));
}

}  // namespace
}  // namespace accelc::runtime
