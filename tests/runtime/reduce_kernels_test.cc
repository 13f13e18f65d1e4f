// tests/runtime/reduce_kernels_test.cc — Reduce*, ArgMax/ArgMin, LogSoftmax,
// Hardmax, CumSum, TopK and the losses on edge cases the ONNX node tests miss:
// empty reductions, integer wrap-around, NaN, bad axes and bad targets.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/ops.h"
#include "tests/runtime/kernel_test_util.h"

namespace accelc::runtime {
namespace {

using support::DType;

ReduceAttrs axes(Ints a, int64_t keepdims = 1) {
  ReduceAttrs r;
  r.axes = std::move(a);
  r.keepdims = keepdims;
  return r;
}

bool mentions(const std::string& text, const std::string& phrase) { return text.find(phrase) != std::string::npos; }

const float kInf = std::numeric_limits<float>::infinity();

TEST(ReduceKernelsTest, NegativeAxesCountFromTheEnd) {
  const Tensor x = Tensor::of<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const auto r = run(OpKind::kReduceSum, axes({-1}, 0), {x});
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{2}));
  EXPECT_EQ(values<float>(r), (std::vector<float>{6, 15}));
  EXPECT_EQ(values<float>(run(OpKind::kReduceMax, axes({-2}), {x})), (std::vector<float>{4, 5, 6}));
}

TEST(ReduceKernelsTest, AxesInputOverridesAndEmptyMeansAll) {
  const Tensor x = Tensor::of<float>({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(values<float>(run(OpKind::kReduceProd, ReduceAttrs{}, {x, Tensor::of<int64_t>({1}, {0})})),
            (std::vector<float>{3, 8}));
  const auto all = run(OpKind::kReduceSumSquare, ReduceAttrs{}, {x, Tensor::of<int64_t>({0}, {})});
  EXPECT_EQ(std::get<0>(all).shape(), (Shape{1, 1}));
  EXPECT_EQ(values<float>(all), (std::vector<float>{30}));
}

TEST(ReduceKernelsTest, NoopWithEmptyAxesPassesTheInputThrough) {
  ReduceAttrs a;
  a.noopWithEmptyAxes = 1;
  const Tensor x = Tensor::of<float>({2}, {-1, 2});
  EXPECT_EQ(values<float>(run(OpKind::kReduceL1, a, {x})), (std::vector<float>{-1, 2}));
}

TEST(ReduceKernelsTest, EmptyReductionGivesTheIdentity) {
  const Tensor x(DType::kFloat32, {2, 0});
  EXPECT_EQ(values<float>(run(OpKind::kReduceSum, axes({1}), {x})), (std::vector<float>{0, 0}));
  EXPECT_EQ(values<float>(run(OpKind::kReduceProd, axes({1}), {x})), (std::vector<float>{1, 1}));
  EXPECT_EQ(values<float>(run(OpKind::kReduceMax, axes({1}), {x})), (std::vector<float>{-kInf, -kInf}));
  EXPECT_EQ(values<float>(run(OpKind::kReduceMin, axes({1}), {x})), (std::vector<float>{kInf, kInf}));
  EXPECT_EQ(values<float>(run(OpKind::kReduceLogSumExp, axes({1}), {x})), (std::vector<float>{-kInf, -kInf}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kReduceMax, axes({1}), {Tensor(DType::kInt32, {1, 0})})),
            (std::vector<int32_t>{INT32_MIN}));
  // Reducing only the non-empty axis leaves an empty result.
  EXPECT_EQ(std::get<0>(run(OpKind::kReduceSum, axes({0}), {x})).shape(), (Shape{1, 0}));
}

TEST(ReduceKernelsTest, IntegerReductionsWrap) {
  const Tensor x = Tensor::of<int32_t>({3}, {INT32_MAX, 1, -5});
  EXPECT_EQ(values<int32_t>(run(OpKind::kReduceSum, ReduceAttrs{}, {x})), (std::vector<int32_t>{INT32_MAX - 4}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kReduceL1, ReduceAttrs{}, {Tensor::of<int32_t>({1}, {INT32_MIN})})),
            (std::vector<int32_t>{INT32_MIN}));
  EXPECT_EQ(values<uint8_t>(run(OpKind::kReduceProd, ReduceAttrs{}, {Tensor::of<uint8_t>({2}, {16, 17})})),
            (std::vector<uint8_t>{16}));
  EXPECT_EQ(values<int8_t>(run(OpKind::kReduceMin, ReduceAttrs{}, {Tensor::of<int8_t>({3}, {4, -7, 2})})),
            (std::vector<int8_t>{-7}));
}

TEST(ReduceKernelsTest, LogSumExpSurvivesLargeInputs) {
  const auto r = values<float>(run(OpKind::kReduceLogSumExp, ReduceAttrs{}, {Tensor::of<float>({2}, {1000, 1000})}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NEAR(r[0], 1000 + std::log(2.0), 1e-3);
  EXPECT_EQ(values<float>(run(OpKind::kReduceLogSumExp, ReduceAttrs{}, {Tensor::of<float>({2}, {kInf, 1})})),
            (std::vector<float>{kInf}));
}

TEST(ReduceKernelsTest, MaxAndMinPropagateNaN) {
  const Tensor x = Tensor::of<float>({3}, {1, NAN, 3});
  EXPECT_TRUE(std::isnan(values<float>(run(OpKind::kReduceMax, ReduceAttrs{}, {x}))[0]));
  EXPECT_TRUE(std::isnan(values<float>(run(OpKind::kReduceMin, ReduceAttrs{}, {x}))[0]));
}

TEST(ReduceKernelsTest, BadAxesAreErrors) {
  const Tensor x(DType::kFloat32, {2, 3});
  EXPECT_TRUE(mentions(failure(run(OpKind::kReduceSum, axes({2}), {x})), "reduction axis 2 out of range for rank 2"));
  EXPECT_TRUE(mentions(failure(run(OpKind::kReduceSum, axes({1, -1}), {x})), "is given twice"));
  EXPECT_TRUE(mentions(failure(run(OpKind::kReduceL2, ReduceAttrs{}, {Tensor(DType::kInt32, {2})})), "expected float32"));
  EXPECT_TRUE(mentions(failure(run(OpKind::kReduceSum, ReduceAttrs{}, {x, Tensor(DType::kFloat32, {1})})), "has dtype float32"));
}

TEST(ReduceKernelsTest, ArgMaxSelectsFirstOrLastTie) {
  const Tensor x = Tensor::of<int32_t>({2, 3}, {5, 1, 5, 0, 0, -1});
  ArgAttrs a;
  a.axis = -1;
  const auto first = run(OpKind::kArgMax, a, {x});
  EXPECT_EQ(std::get<0>(first).shape(), (Shape{2, 1}));
  EXPECT_EQ(values<int64_t>(first), (std::vector<int64_t>{0, 0}));
  a.selectLastIndex = 1;
  a.keepdims = 0;
  EXPECT_EQ(values<int64_t>(run(OpKind::kArgMax, a, {x})), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values<int64_t>(run(OpKind::kArgMin, a, {x})), (std::vector<int64_t>{1, 2}));
}

TEST(ReduceKernelsTest, ArgMaxOverAnEmptyAxisIsAnError) {
  EXPECT_TRUE(mentions(failure(run(OpKind::kArgMax, ArgAttrs{}, {Tensor(DType::kFloat32, {0, 2})})), "empty axis"));
  ArgAttrs a;
  a.axis = 2;
  EXPECT_TRUE(mentions(failure(run(OpKind::kArgMin, a, {Tensor(DType::kFloat32, {1, 2})})), "out of range"));
  // No lane at all: an empty result, not an error.
  EXPECT_EQ(std::get<0>(run(OpKind::kArgMax, ArgAttrs{}, {Tensor(DType::kFloat32, {0, 0})})).shape(), (Shape{1, 0}));
}

TEST(ReduceKernelsTest, LogSoftmaxLegacyCoercesTo2D) {
  const Tensor x = Tensor::of<float>({1, 2, 2}, {0, 0, 0, 0});
  const auto modern = values<float>(run(OpKind::kLogSoftmax, SoftmaxAttrs{1, 0}, {x}));
  const auto legacy = values<float>(run(OpKind::kLogSoftmax, SoftmaxAttrs{1, 1}, {x}));
  ASSERT_EQ(modern.size(), 4u);
  ASSERT_EQ(legacy.size(), 4u);
  EXPECT_NEAR(modern[0], -std::log(2.0), 1e-6);
  EXPECT_NEAR(legacy[0], -std::log(4.0), 1e-6);
  EXPECT_EQ(values<float>(run(OpKind::kLogSoftmax, SoftmaxAttrs{}, {Tensor(DType::kFloat32, {2, 0})})).size(), 0u);
}

TEST(ReduceKernelsTest, HardmaxMarksTheFirstMaximum) {
  const Tensor x = Tensor::of<float>({2, 2}, {3, 3, 1, 2});
  EXPECT_EQ(values<float>(run(OpKind::kHardmax, SoftmaxAttrs{-1, 0}, {x})), (std::vector<float>{1, 0, 0, 1}));
  EXPECT_EQ(values<float>(run(OpKind::kHardmax, SoftmaxAttrs{0, 0}, {x})), (std::vector<float>{1, 1, 0, 0}));
  EXPECT_EQ(values<float>(run(OpKind::kHardmax, SoftmaxAttrs{0, 1}, {x})), (std::vector<float>{1, 0, 0, 0}));
}

TEST(ReduceKernelsTest, CumSumModes) {
  const Tensor x = Tensor::of<int64_t>({4}, {1, 2, 3, 4});
  const Tensor axis = Tensor::of<int32_t>({}, {-1});
  EXPECT_EQ(values<int64_t>(run(OpKind::kCumSum, CumSumAttrs{0, 0}, {x, axis})), (std::vector<int64_t>{1, 3, 6, 10}));
  EXPECT_EQ(values<int64_t>(run(OpKind::kCumSum, CumSumAttrs{1, 0}, {x, axis})), (std::vector<int64_t>{0, 1, 3, 6}));
  EXPECT_EQ(values<int64_t>(run(OpKind::kCumSum, CumSumAttrs{0, 1}, {x, axis})), (std::vector<int64_t>{10, 9, 7, 4}));
  EXPECT_EQ(values<int64_t>(run(OpKind::kCumSum, CumSumAttrs{1, 1}, {x, axis})), (std::vector<int64_t>{9, 7, 4, 0}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kCumSum, CumSumAttrs{}, {Tensor::of<int32_t>({2}, {INT32_MAX, 1}), axis})),
            (std::vector<int32_t>{INT32_MAX, INT32_MIN}));
}

TEST(ReduceKernelsTest, CumSumRejectsBadAxis) {
  const Tensor x(DType::kFloat32, {2, 2});
  EXPECT_TRUE(mentions(failure(run(OpKind::kCumSum, CumSumAttrs{}, {x, Tensor::of<int64_t>({}, {2})})), "out of range"));
  EXPECT_TRUE(mentions(failure(run(OpKind::kCumSum, CumSumAttrs{}, {x, Tensor::of<int64_t>({2}, {0, 1})})),
                       "must be a single value"));
  EXPECT_EQ(std::get<0>(run(OpKind::kCumSum, CumSumAttrs{}, {Tensor(DType::kFloat32, {0, 3}), Tensor::of<int64_t>({}, {0})})).shape(),
            (Shape{0, 3}));
}

TEST(ReduceKernelsTest, TopKBreaksTiesByLowerIndex) {
  const Tensor x = Tensor::of<float>({5}, {2, 7, 2, 7, 1});
  const auto r = runAll(OpKind::kTopK, TopKAttrs{}, {x, Tensor::of<int64_t>({1}, {3})}, 2);
  ASSERT_EQ(r.index(), 0u) << std::get<1>(r);
  const auto& out = std::get<0>(r);
  EXPECT_EQ(std::vector<float>(out[0].data<float>(), out[0].data<float>() + 3), (std::vector<float>{7, 7, 2}));
  EXPECT_EQ(std::vector<int64_t>(out[1].data<int64_t>(), out[1].data<int64_t>() + 3), (std::vector<int64_t>{1, 3, 0}));
  TopKAttrs smallest;
  smallest.largest = 0;
  EXPECT_EQ(values<float>(run(OpKind::kTopK, smallest, {x, Tensor::of<int64_t>({1}, {2})}, 2)), (std::vector<float>{1, 2}));
}

TEST(ReduceKernelsTest, TopKAlongTheFirstAxisAndNaNRanksHighest) {
  TopKAttrs a;
  a.axis = 0;
  const Tensor x = Tensor::of<float>({3, 2}, {1, 6, NAN, 4, 3, 5});
  const auto v = values<float>(run(OpKind::kTopK, a, {x, Tensor::of<int64_t>({1}, {1})}, 2));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 6);
}

TEST(ReduceKernelsTest, TopKRejectsBadK) {
  const Tensor x(DType::kFloat32, {3});
  EXPECT_TRUE(mentions(failure(run(OpKind::kTopK, TopKAttrs{}, {x, Tensor::of<int64_t>({1}, {4})}, 2)), "in [0, 3], got 4"));
  EXPECT_TRUE(mentions(failure(run(OpKind::kTopK, TopKAttrs{}, {x, Tensor::of<int64_t>({1}, {-1})}, 2)), "got -1"));
  EXPECT_EQ(values<float>(run(OpKind::kTopK, TopKAttrs{}, {x, Tensor::of<int64_t>({1}, {0})}, 2)).size(), 0u);
}

LossAttrs lossAttrs(LossReduction r, int64_t ignore = LossAttrs::kNoIgnore) {
  LossAttrs a;
  a.reduction = r;
  a.ignoreIndex = ignore;
  return a;
}

TEST(LossKernelsTest, NllMeanDividesByTheWeightsThatCount) {
  const Tensor logp = Tensor::of<float>({3, 2}, {-1, -2, -3, -4, -5, -6});
  const Tensor target = Tensor::of<int64_t>({3}, {1, 0, -1}), weight = Tensor::of<float>({2}, {2, 0.5f});
  // Row 2 is ignored: (2*0.5 + 3*2) / (0.5 + 2).
  EXPECT_EQ(values<float>(run(OpKind::kNegativeLogLikelihoodLoss, lossAttrs(LossReduction::kMean, -1), {logp, target, weight})),
            (std::vector<float>{2.8f}));
  EXPECT_EQ(values<float>(run(OpKind::kNegativeLogLikelihoodLoss, lossAttrs(LossReduction::kNone, -1), {logp, target})),
            (std::vector<float>{2, 3, 0}));
  EXPECT_EQ(values<float>(run(OpKind::kNegativeLogLikelihoodLoss, lossAttrs(LossReduction::kSum, -1), {logp, target})),
            (std::vector<float>{5}));
}

TEST(LossKernelsTest, TargetOutsideTheClassesIsAnError) {
  const Tensor logp(DType::kFloat32, {2, 3}), target = Tensor::of<int32_t>({2}, {0, 3});
  EXPECT_TRUE(mentions(failure(run(OpKind::kNegativeLogLikelihoodLoss, LossAttrs{}, {logp, target})),
                       "target 3 is out of range [0, 3)"));
  EXPECT_TRUE(mentions(failure(run(OpKind::kSoftmaxCrossEntropyLoss, LossAttrs{}, {logp, Tensor::of<int64_t>({2}, {-1, 0})})),
                       "target -1 is out of range"));
  EXPECT_TRUE(mentions(failure(run(OpKind::kNegativeLogLikelihoodLoss, LossAttrs{}, {logp, Tensor::of<int64_t>({3}, {0, 0, 0})})),
                       "target must have shape 2"));
  EXPECT_TRUE(mentions(failure(run(OpKind::kNegativeLogLikelihoodLoss, LossAttrs{}, {logp, target, Tensor(DType::kFloat32, {2})})),
                       "weight must have shape 3"));
}

TEST(LossKernelsTest, SoftmaxCrossEntropyFillsLogProb) {
  const Tensor scores = Tensor::of<float>({1, 2, 1}, {0, 0}), target = Tensor::of<int64_t>({1, 1}, {1});
  const auto r = runAll(OpKind::kSoftmaxCrossEntropyLoss, lossAttrs(LossReduction::kNone), {scores, target}, 2);
  ASSERT_EQ(r.index(), 0u) << std::get<1>(r);
  const auto& out = std::get<0>(r);
  EXPECT_EQ(out[0].shape(), (Shape{1, 1}));
  EXPECT_NEAR(out[0].at(0), std::log(2.0), 1e-6);
  EXPECT_EQ(out[1].shape(), (Shape{1, 2, 1}));
  EXPECT_NEAR(out[1].at(1), -std::log(2.0), 1e-6);
}

TEST(LossKernelsTest, EmptyBatchMeanIsNaN) {
  const auto r = run(OpKind::kSoftmaxCrossEntropyLoss, LossAttrs{}, {Tensor(DType::kFloat32, {0, 3}), Tensor(DType::kInt64, {0})});
  EXPECT_TRUE(std::isnan(values<float>(r).at(0)));
}

TEST(LossKernelsTest, Float64InputsGiveFloat64Losses) {
  const Tensor scores = Tensor::of<double>({2, 3}, {1, 2, 3, 0, 0, 1e-12}), target = Tensor::of<int64_t>({2}, {2, 2});
  const Tensor weight = Tensor::of<double>({3}, {1, 1, 2});
  const auto r = runAll(OpKind::kSoftmaxCrossEntropyLoss, lossAttrs(LossReduction::kNone), {scores, target, weight}, 2);
  ASSERT_EQ(r.index(), 0u) << std::get<1>(r);
  const auto& out = std::get<0>(r);
  ASSERT_EQ(out[0].dtype(), DType::kFloat64);
  ASSERT_EQ(out[1].dtype(), DType::kFloat64);
  // Row 1: log_prob = 1e-12 - log(2 + e^1e-12), a difference float32 would round away.
  const double lp = 1e-12 - std::log(2 + std::exp(1e-12));
  EXPECT_NEAR(out[1].at(5), lp, 1e-15);
  EXPECT_NEAR(out[0].at(1), -2 * lp, 1e-15);
  EXPECT_NEAR(out[0].at(0), 2 * std::log(1 + std::exp(-1.0) + std::exp(-2.0)), 1e-15);
  const auto nll = run(OpKind::kNegativeLogLikelihoodLoss, lossAttrs(LossReduction::kMean), {scores, target, weight});
  EXPECT_EQ(values<double>(nll), (std::vector<double>{-(3 + 1e-12) * 2 / 4}));
  EXPECT_TRUE(mentions(failure(run(OpKind::kNegativeLogLikelihoodLoss, LossAttrs{}, {scores, target, Tensor(DType::kFloat32, {3})})),
                       "input 2 has dtype float32; expected float64"));
}

}  // namespace
}  // namespace accelc::runtime
