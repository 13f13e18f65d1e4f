// tests/runtime/spatial_kernels_test.cc — Resize, ConvTranspose, InstanceNormalization,
// LpNormalization and GlobalMaxPool on the modes, dtypes (float64) and bad inputs the ONNX node tests miss.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "runtime/ops.h"
#include "tests/runtime/kernel_test_util.h"

namespace accelc::runtime {
namespace {

using support::DType;

const Tensor kNone;  // an empty input: Resize treats it as absent

Tensor scales(std::vector<float> v) { return Tensor::of<float>({static_cast<int64_t>(v.size())}, v); }
Tensor sizes(std::vector<int64_t> v) { return Tensor::of<int64_t>({static_cast<int64_t>(v.size())}, v); }

ResizeAttrs resizeAttrs(ResizeMode mode, CoordMode coord, NearestMode nearest = NearestMode::kRoundPreferFloor) {
  ResizeAttrs a;
  a.mode = mode, a.coordMode = coord, a.nearestMode = nearest;
  return a;
}

bool hasPhrase(const std::variant<Tensor, std::string>& r, const std::string& phrase) {
  const std::string msg = failure(r);
  const bool found = msg.find(phrase) != std::string::npos;
  if (!found) ADD_FAILURE() << "\"" << msg << "\" lacks \"" << phrase << "\"";
  return found;
}

void expectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "at " << i;
}

TEST(SpatialKernelsTest, ResizeNearestModesBreakTiesTheirOwnWay) {
  // asymmetric, scale 4: source coordinates 0, .25, .5, .75, 1, 1.25, 1.5, 1.75.
  const Tensor x = Tensor::of<float>({2}, {10, 20});
  auto runMode = [&](NearestMode m) {
    return values<float>(
        run(OpKind::kResize, resizeAttrs(ResizeMode::kNearest, CoordMode::kAsymmetric, m), {x, kNone, scales({4})}));
  };
  EXPECT_EQ(runMode(NearestMode::kRoundPreferFloor), (std::vector<float>{10, 10, 10, 20, 20, 20, 20, 20}));
  EXPECT_EQ(runMode(NearestMode::kRoundPreferCeil), (std::vector<float>{10, 10, 20, 20, 20, 20, 20, 20}));
  EXPECT_EQ(runMode(NearestMode::kFloor), (std::vector<float>{10, 10, 10, 10, 20, 20, 20, 20}));
  EXPECT_EQ(runMode(NearestMode::kCeil), (std::vector<float>{10, 20, 20, 20, 20, 20, 20, 20}));
}

TEST(SpatialKernelsTest, ResizeNearestKeepsIntegerDataAndTfHalfPixelShifts) {
  const Tensor x = Tensor::of<int32_t>({2}, {-7, 9});
  // tf_half_pixel_for_nn: source (x + 0.5) / 2 = .25, .75, 1.25, 1.75, clamped to the last pixel.
  const auto r = run(OpKind::kResize, resizeAttrs(ResizeMode::kNearest, CoordMode::kTfHalfPixelForNn),
                     {x, kNone, kNone, sizes({4})});
  EXPECT_EQ(values<int32_t>(r), (std::vector<int32_t>{-7, 9, 9, 9}));
  const auto half =
      run(OpKind::kResize, resizeAttrs(ResizeMode::kNearest, CoordMode::kHalfPixel), {x, kNone, kNone, sizes({4})});
  EXPECT_EQ(values<int32_t>(half), (std::vector<int32_t>{-7, -7, 9, 9}));
}

TEST(SpatialKernelsTest, ResizeLinearInterpolatesEveryAxis) {
  const Tensor x = Tensor::of<float>({2, 2}, {0, 1, 2, 3});
  const auto r =
      run(OpKind::kResize, resizeAttrs(ResizeMode::kLinear, CoordMode::kHalfPixel), {x, kNone, scales({2, 2})});
  expectNear(values<float>(r),
             {0, 0.25f, 0.75f, 1, 0.5f, 0.75f, 1.25f, 1.5f, 1.5f, 1.75f, 2.25f, 2.5f, 2, 2.25f, 2.75f, 3});
  const auto corners = run(OpKind::kResize, resizeAttrs(ResizeMode::kLinear, CoordMode::kAlignCorners),
                           {Tensor::of<float>({2}, {0, 3}), kNone, kNone, sizes({4})});
  expectNear(values<float>(corners), {0, 1, 2, 3});
}

TEST(SpatialKernelsTest, ResizePytorchHalfPixelMapsASingleOutputToTheFirstPixel) {
  const Tensor x = Tensor::of<float>({4}, {0, 1, 2, 3});
  EXPECT_EQ(values<float>(run(OpKind::kResize, resizeAttrs(ResizeMode::kLinear, CoordMode::kPytorchHalfPixel),
                              {x, kNone, kNone, sizes({1})})),
            (std::vector<float>{0}));
  EXPECT_EQ(values<float>(run(OpKind::kResize, resizeAttrs(ResizeMode::kLinear, CoordMode::kHalfPixel),
                              {x, kNone, kNone, sizes({1})})),
            (std::vector<float>{1.5f}));
}

TEST(SpatialKernelsTest, ResizeCubicRepeatsOrExcludesPixelsPastTheEdge) {
  // Half-pixel downsampling by 2 samples at 0.5 and 2.5: Keys weights (A = -0.75)
  // at t = 0.5 are -0.09375, 0.59375, 0.59375, -0.09375.
  const Tensor x = Tensor::of<float>({4}, {1, 2, 4, 8});
  ResizeAttrs a = resizeAttrs(ResizeMode::kCubic, CoordMode::kHalfPixel);
  expectNear(values<float>(run(OpKind::kResize, a, {x, kNone, scales({0.5f})})), {1.3125f, 6.1875f});
  a.excludeOutside = 1;  // the weights left renormalized to sum 1
  expectNear(values<float>(run(OpKind::kResize, a, {x, kNone, scales({0.5f})})),
             {1.40625f / 1.09375f, 6.9375f / 1.09375f});
}

TEST(SpatialKernelsTest, ResizeTfCropAndResizeExtrapolatesOutsideTheInput) {
  const Tensor x = Tensor::of<float>({4}, {0, 1, 2, 3}), roi = Tensor::of<float>({2}, {0.5f, 1.5f});
  ResizeAttrs a = resizeAttrs(ResizeMode::kLinear, CoordMode::kTfCropAndResize);
  a.extrapolationValue = -1;
  // Source coordinates 1.5, 3 and 4.5: the last lies past the input.
  expectNear(values<float>(run(OpKind::kResize, a, {x, roi, kNone, sizes({3})})), {1.5f, 3, -1});
  a.mode = ResizeMode::kNearest;
  EXPECT_EQ(values<float>(run(OpKind::kResize, a, {x, roi, kNone, sizes({3})})), (std::vector<float>{1, 3, -1}));
  a.extrapolationValue = 1e10f;  // saturates in an integer type instead of overflowing
  EXPECT_EQ(values<uint8_t>(run(OpKind::kResize, a, {Tensor::of<uint8_t>({4}, {0, 1, 2, 3}), roi, kNone, sizes({3})})),
            (std::vector<uint8_t>{1, 3, 255}));
}

TEST(SpatialKernelsTest, ResizeHandlesEmptyTensors) {
  const auto r = run(OpKind::kResize, ResizeAttrs{}, {Tensor(DType::kFloat32, {0, 2}), kNone, kNone, sizes({0, 4})});
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{0, 4}));
  const auto s = run(OpKind::kResize, ResizeAttrs{}, {Tensor::of<float>({1, 2}, {1, 2}), kNone, scales({0.5f, 2})});
  ASSERT_EQ(s.index(), 0u);
  EXPECT_EQ(std::get<0>(s).shape(), (Shape{0, 4}));
}

TEST(SpatialKernelsTest, ResizeRejectsBadScalesAndSizes) {
  const Tensor x = Tensor::of<float>({2}, {1, 2});
  EXPECT_TRUE(hasPhrase(run(OpKind::kResize, ResizeAttrs{}, {x, kNone, scales({2}), sizes({4})}),
                        "exactly one of scales and sizes"));
  EXPECT_TRUE(
      hasPhrase(run(OpKind::kResize, ResizeAttrs{}, {x, kNone, kNone, kNone}), "exactly one of scales and sizes"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kResize, ResizeAttrs{}, {x, kNone, scales({2, 2})}), "expected one per axis"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kResize, ResizeAttrs{}, {x, kNone, scales({-1})}), "must be positive"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kResize, ResizeAttrs{}, {x, kNone, scales({1e30f})}), "too large"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kResize, ResizeAttrs{}, {x, kNone, kNone, sizes({-3})}), "must not be negative"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kResize, ResizeAttrs{}, {Tensor(DType::kFloat32, {0}), kNone, kNone, sizes({3})}),
                        "cannot resize an empty axis"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kResize, resizeAttrs(ResizeMode::kLinear, CoordMode::kHalfPixel),
                            {Tensor::of<int32_t>({2}, {1, 2}), kNone, scales({2})}),
                        "float32"));
  EXPECT_TRUE(hasPhrase(
      run(OpKind::kResize, resizeAttrs(ResizeMode::kLinear, CoordMode::kTfCropAndResize), {x, kNone, scales({2})}),
      "needs a roi of 2 values"));
}

ConvTransposeAttrs ctAttrs(Ints strides, Ints pads = {}) {
  ConvTransposeAttrs a;
  a.strides = std::move(strides), a.pads = std::move(pads);
  return a;
}

std::vector<float> convT(const ConvTransposeAttrs& a, std::vector<float> w) {
  const Tensor x = Tensor::of<float>({1, 1, 3}, {1, 2, 3});
  return values<float>(
      run(OpKind::kConvTranspose, a, {x, Tensor::of<float>({1, 1, static_cast<int64_t>(w.size())}, w)}));
}

TEST(SpatialKernelsTest, ConvTransposeScattersWithStridesPadsAndOutputPadding) {
  EXPECT_EQ(convT(ctAttrs({1}), {1, 1}), (std::vector<float>{1, 3, 5, 3}));
  EXPECT_EQ(convT(ctAttrs({2}), {1, 1}), (std::vector<float>{1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(convT(ctAttrs({2}, {1, 1}), {1, 1}), (std::vector<float>{1, 2, 2, 3}));
  ConvTransposeAttrs a = ctAttrs({2});
  a.outputPadding = {1};  // one more position at the end, which nothing reaches
  EXPECT_EQ(convT(a, {1, 1}), (std::vector<float>{1, 1, 2, 2, 3, 3, 0}));
  a = ctAttrs({1});
  a.dilations = {3};
  EXPECT_EQ(convT(a, {1, 10}), (std::vector<float>{1, 2, 3, 10, 20, 30}));
}

TEST(SpatialKernelsTest, ConvTransposeOutputShapeAndAutoPadPlaceTheOddPad) {
  // Full output of [1,2,3] * [1,1,1]: [1,3,6,5,3].
  ConvTransposeAttrs a = ctAttrs({1});
  a.outputShape = {4};
  EXPECT_EQ(convT(a, {1, 1, 1}), (std::vector<float>{3, 6, 5, 3}));  // NOTSET: the odd pad at the beginning
  a.autoPad = AutoPad::kSameUpper;
  EXPECT_EQ(convT(a, {1, 1, 1}), (std::vector<float>{1, 3, 6, 5}));
  a.outputShape = {1, 1, 7};  // the full N, C, spatial form too; the end grows with zeros
  EXPECT_EQ(convT(a, {1, 1, 1}), (std::vector<float>{1, 3, 6, 5, 3, 0, 0}));
  // SAME without output_shape: output = input * stride = 6 of the full 7 [1,1,3,2,5,3,3].
  a = ctAttrs({2});
  a.autoPad = AutoPad::kSameUpper;
  EXPECT_EQ(convT(a, {1, 1, 1}), (std::vector<float>{1, 1, 3, 2, 5, 3}));
  a.autoPad = AutoPad::kSameLower;
  EXPECT_EQ(convT(a, {1, 1, 1}), (std::vector<float>{1, 3, 2, 5, 3, 3}));
}

TEST(SpatialKernelsTest, ConvTransposeGroupsMapInputChannelsToTheirOwnOutputs) {
  ConvTransposeAttrs a;
  a.group = 2;
  const Tensor x = Tensor::of<float>({1, 2, 2}, {1, 2, 3, 4}), w = Tensor::of<float>({2, 1, 1}, {10, 100});
  const Tensor b = Tensor::of<float>({2}, {0.5f, -1});
  EXPECT_EQ(values<float>(run(OpKind::kConvTranspose, a, {x, w, b})), (std::vector<float>{10.5f, 20.5f, 299, 399}));
  // 2-D, two output channels from one input channel.
  const Tensor x2 = Tensor::of<float>({1, 1, 1, 2}, {1, 2}), w2 = Tensor::of<float>({1, 2, 1, 1}, {1, -1});
  const auto r = run(OpKind::kConvTranspose, ConvTransposeAttrs{}, {x2, w2});
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{1, 2, 1, 2}));
  EXPECT_EQ(values<float>(r), (std::vector<float>{1, 2, -1, -2}));
}

TEST(SpatialKernelsTest, ConvTransposeHandlesEmptyBatches) {
  const auto r = run(OpKind::kConvTranspose, ConvTransposeAttrs{},
                     {Tensor(DType::kFloat32, {0, 1, 3}), Tensor(DType::kFloat32, {1, 1, 2})});
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{0, 1, 4}));
}

TEST(SpatialKernelsTest, ConvTransposeRejectsBadShapesAndAttributes) {
  const Tensor x(DType::kFloat32, {1, 2, 3}), w(DType::kFloat32, {2, 1, 2});
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ConvTransposeAttrs{}, {x, Tensor(DType::kFloat32, {3, 1, 2})}),
                        "does not match 2 input channels"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ConvTransposeAttrs{}, {x, w, Tensor(DType::kFloat32, {2})}),
                        "bias has 2 values; expected 1"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ctAttrs({0}), {x, w}), "at least 1"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ctAttrs({1}, {-1, 0}), {x, w}), "pads must not be negative"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ctAttrs({1}, {3, 3}), {x, w}), "output size is negative"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ctAttrs({1, 1}), {x, w}), "must match the 1 spatial axes"));
  ConvTransposeAttrs a;
  a.kernelShape = {3};
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, a, {x, w}), "kernel_shape 3 does not match"));
  a = ConvTransposeAttrs{};
  a.outputShape = {-2};
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, a, {x, w}), "output_shape must not be negative"));
  a = ConvTransposeAttrs{};
  a.strides = {std::numeric_limits<int64_t>::max()};
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, a, {x, w}), "overflow"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ConvTransposeAttrs{}, {Tensor(DType::kFloat32, {1, 2}), w}),
                        "ranks 2 and 3"));
}

TEST(SpatialKernelsTest, InstanceNormNormalizesEachPlane) {
  NormAttrs a;
  a.epsilon = 0;
  const Tensor x = Tensor::of<float>({2, 2, 2}, {1, 3, 5, 9, 0, 4, -2, -2});
  const Tensor scale = Tensor::of<float>({2}, {1, 2}), b = Tensor::of<float>({2}, {0, 10});
  // (n0,c0) mean 2 sd 1; (n0,c1) mean 7 sd 2; (n1,c0) mean 2 sd 2; (n1,c1) constant: sd 0 gives NaN without epsilon.
  const std::vector<float> y = values<float>(run(OpKind::kInstanceNormalization, a, {x, scale, b}));
  ASSERT_EQ(y.size(), 8u);
  expectNear({y[0], y[1], y[2], y[3], y[4], y[5]}, {-1, 1, 8, 12, -1, 1});
  a.epsilon = 1e-5f;
  expectNear(values<float>(run(
                 OpKind::kInstanceNormalization, a,
                 {Tensor::of<float>({1, 1, 2}, {4, 4}), Tensor::of<float>({1}, {3}), Tensor::of<float>({1}, {0.5f})})),
             {0.5f, 0.5f});
}

TEST(SpatialKernelsTest, InstanceNormRejectsMismatchedScaleAndTakesEmptyPlanes) {
  const Tensor s2 = Tensor::of<float>({2}, {1, 1});
  EXPECT_TRUE(hasPhrase(run(OpKind::kInstanceNormalization, NormAttrs{}, {Tensor(DType::kFloat32, {1, 3, 2}), s2, s2}),
                        "must have 3 values"));
  const auto r = run(OpKind::kInstanceNormalization, NormAttrs{}, {Tensor(DType::kFloat32, {1, 2, 0}), s2, s2});
  ASSERT_EQ(r.index(), 0u);
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{1, 2, 0}));
}

TEST(SpatialKernelsTest, LpNormalizationDividesByTheL1OrL2Norm) {
  const Tensor x = Tensor::of<float>({2, 2}, {3, 4, 0, 0});
  expectNear(values<float>(run(OpKind::kLpNormalization, LpNormAttrs{-1, 2}, {x})),
             {0.6f, 0.8f, 0, 0});  // a zero row stays zero
  expectNear(values<float>(run(OpKind::kLpNormalization, LpNormAttrs{1, 1}, {x})), {3.0f / 7, 4.0f / 7, 0, 0});
  expectNear(
      values<float>(run(OpKind::kLpNormalization, LpNormAttrs{0, 1}, {Tensor::of<float>({2, 2}, {3, -4, 1, 4})})),
      {0.75f, -0.5f, 0.25f, 0.5f});
  EXPECT_TRUE(hasPhrase(run(OpKind::kLpNormalization, LpNormAttrs{-1, 3}, {x}), "p must be 1 or 2"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kLpNormalization, LpNormAttrs{2, 2}, {x}), "axis 2 is out of range"));
  const auto e = run(OpKind::kLpNormalization, LpNormAttrs{}, {Tensor(DType::kFloat32, {0, 3})});
  ASSERT_EQ(e.index(), 0u);
  EXPECT_EQ(std::get<0>(e).shape(), (Shape{0, 3}));
}

/// A float32 tensor's values as a float64 tensor of the same shape.
Tensor toDouble(const Tensor& t) {
  const float* f = t.data<float>();
  return Tensor::of<double>(t.shape(), std::vector<double>(f, f + t.numel()));
}

/// Runs op on float32 inputs and on their float64 copies: the float64 run
/// gives a float64 result that matches the float32 one.
void expectFloat64Matches(OpKind k, const Attrs& a, const std::vector<Tensor>& in) {
  std::vector<Tensor> in64;
  for (const Tensor& t : in) in64.push_back(toDouble(t));
  const auto r32 = run(k, a, in), r64 = run(k, a, in64);
  ASSERT_EQ(r64.index(), 0u) << std::get<1>(r64);
  EXPECT_EQ(std::get<0>(r64).dtype(), DType::kFloat64);
  const std::vector<float> want = values<float>(r32);
  const std::vector<double> got = values<double>(r64);
  ASSERT_EQ(got.size(), want.size());
  ASSERT_FALSE(got.empty());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "at " << i;
}

TEST(SpatialKernelsTest, Float64InputsGiveFloat64ResultsMatchingFloat32) {
  const Tensor x = Tensor::of<float>({1, 2, 2, 3}, {0, 1, 2.5f, -3, 4, 5, 6, -7.25f, 8, 9, 10, 11});
  // Resize linear: scales stay float32 (ONNX's type for them), only X is float64.
  const auto lin = resizeAttrs(ResizeMode::kLinear, CoordMode::kHalfPixel);
  const auto r32 = run(OpKind::kResize, lin, {x, kNone, scales({1, 1, 2, 1.5f})});
  const auto r64 = run(OpKind::kResize, lin, {toDouble(x), kNone, scales({1, 1, 2, 1.5f})});
  ASSERT_EQ(r64.index(), 0u);
  EXPECT_EQ(std::get<0>(r64).dtype(), DType::kFloat64);
  const std::vector<float> want = values<float>(r32);
  const std::vector<double> got = values<double>(r64);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "at " << i;
  ConvTransposeAttrs ct = ctAttrs({2, 1}, {0, 1, 1, 0});
  const Tensor w = Tensor::of<float>({2, 1, 2, 2}, {1, -2, 0.5f, 3, 2, 1, -1, 0.25f});
  expectFloat64Matches(OpKind::kConvTranspose, ct, {x, w, Tensor::of<float>({1}, {0.75f})});
  NormAttrs n;
  n.epsilon = 1e-5f;
  expectFloat64Matches(OpKind::kInstanceNormalization, n,
                       {x, Tensor::of<float>({2}, {1.5f, -1}), Tensor::of<float>({2}, {0.5f, 2})});
  expectFloat64Matches(OpKind::kLpNormalization, LpNormAttrs{-1, 2}, {x});
  expectFloat64Matches(OpKind::kLpNormalization, LpNormAttrs{1, 1}, {x});
}

TEST(SpatialKernelsTest, ResizeNearestKeepsFloat64Data) {
  const Tensor x = Tensor::of<double>({2}, {0.1, 1e300});
  const auto r =
      run(OpKind::kResize, resizeAttrs(ResizeMode::kNearest, CoordMode::kAsymmetric), {x, kNone, scales({2})});
  EXPECT_EQ(values<double>(r), (std::vector<double>{0.1, 0.1, 1e300, 1e300}));
}

TEST(SpatialKernelsTest, MixedFloat32AndFloat64InputsAreAnError) {
  const Tensor x = Tensor::of<float>({1, 1, 2}, {1, 2}), x64 = toDouble(x);
  const Tensor w = Tensor::of<float>({1, 1, 1}, {2}), b = Tensor::of<float>({1}, {1});
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ConvTransposeAttrs{}, {x64, w}), "input 1 has dtype float32"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ConvTransposeAttrs{}, {x, toDouble(w), b}),
                        "input 1 has dtype float64"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kConvTranspose, ConvTransposeAttrs{}, {x64, toDouble(w), b}),
                        "input 2 has dtype float32"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kInstanceNormalization, NormAttrs{}, {x64, b, toDouble(b)}),
                        "input 1 has dtype float32"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kInstanceNormalization, NormAttrs{}, {x, b, toDouble(b)}),
                        "input 2 has dtype float64"));
  EXPECT_TRUE(hasPhrase(run(OpKind::kLpNormalization, LpNormAttrs{}, {Tensor::of<int32_t>({1}, {1})}), "float64"));
}

TEST(SpatialKernelsTest, GlobalMaxPoolReducesEverySpatialAxis) {
  const auto r1 = run(OpKind::kGlobalMaxPool, NoAttrs{}, {Tensor::of<float>({1, 2, 3}, {1, -5, 2, -3, -1, -2})});
  ASSERT_EQ(r1.index(), 0u);
  EXPECT_EQ(std::get<0>(r1).shape(), (Shape{1, 2, 1}));
  EXPECT_EQ(values<float>(r1), (std::vector<float>{2, -1}));
  const auto r3 = run(OpKind::kGlobalMaxPool, NoAttrs{}, {Tensor::of<float>({1, 1, 2, 1, 2}, {1, 7, -2, 3})});
  ASSERT_EQ(r3.index(), 0u);
  EXPECT_EQ(std::get<0>(r3).shape(), (Shape{1, 1, 1, 1, 1}));
  EXPECT_EQ(values<float>(r3), (std::vector<float>{7}));
  EXPECT_EQ(values<float>(run(OpKind::kGlobalMaxPool, NoAttrs{}, {Tensor(DType::kFloat32, {1, 1, 0})})),
            (std::vector<float>{std::numeric_limits<float>::lowest()}));
  EXPECT_TRUE(hasPhrase(run(OpKind::kGlobalMaxPool, NoAttrs{}, {Tensor(DType::kFloat32, {2, 3})}), "rank >= 3"));
}

}  // namespace
}  // namespace accelc::runtime
