// tests/runtime/kernels_test.cc — reference kernels on edge cases the ONNX
// node tests do not reach (integer wrap-around, per-row zero points, bad attributes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/ops.h"
#include "tests/runtime/kernel_test_util.h"

namespace accelc::runtime {
namespace {

using support::DType;

TEST(KernelsTest, RepeatedSqueezeAxesAreErrors) {  // found by fuzzing: the axis was erased twice
  const Tensor x(DType::kFloat32, {1, 3});
  EXPECT_NE(failure(run(OpKind::kSqueeze, AxesAttrs{}, {x, Tensor::of<int64_t>({3}, {0, 0, -2})})).find("repeat an axis"),
            std::string::npos);
  EXPECT_NE(failure(run(OpKind::kUnsqueeze, AxesAttrs{{1, 1}}, {x})).find("repeat an axis"), std::string::npos);
}

TEST(KernelsTest, CastBetweenIntegersWraps) {
  EXPECT_EQ(values<uint8_t>(run(OpKind::kCast, CastAttrs{DType::kUint8}, {Tensor::of<int32_t>({3}, {300, -1, 7})})),
            (std::vector<uint8_t>{44, 255, 7}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kCast, CastAttrs{DType::kInt32}, {Tensor::of<float>({3}, {1e20f, -2.7f, 2.7f})})),
            (std::vector<int32_t>{2147483647, -2, 2}));
}

TEST(KernelsTest, IntegerPowAndDivideWrap) {
  EXPECT_EQ(values<int32_t>(run(OpKind::kPow, NoAttrs{}, {Tensor::of<int32_t>({2}, {10, 3}), Tensor::of<int32_t>({2}, {10, 4})})),
            (std::vector<int32_t>{1410065408, 81}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kDiv, NoAttrs{}, {Tensor::of<int32_t>({2}, {INT32_MIN, 7}), Tensor::of<int32_t>({2}, {-1, -2})})),
            (std::vector<int32_t>{INT32_MIN, -3}));
  EXPECT_EQ(std::get<1>(run(OpKind::kDiv, NoAttrs{}, {Tensor::of<int32_t>({1}, {1}), Tensor::of<int32_t>({1}, {0})})),
            "m.onnx:n: error: integer division by zero");
}

TEST(KernelsTest, MatMulIntegerTakesAZeroPointPerRow) {
  Tensor a = Tensor::of<uint8_t>({2, 1}, {1, 1}), b = Tensor::of<uint8_t>({1, 1}, {1});
  EXPECT_EQ(values<int32_t>(run(OpKind::kMatMulInteger, NoAttrs{}, {a, b, Tensor::of<uint8_t>({2}, {0, 1})})),
            (std::vector<int32_t>{1, 0}));
}

TEST(KernelsTest, BadAttributesAreErrorsNotCrashes) {
  ConvAttrs ca;
  ca.strides = {0, 0};
  Tensor x(DType::kFloat32, {1, 1, 4, 4}), w(DType::kFloat32, {1, 1, 3, 3});
  EXPECT_EQ(std::get<1>(run(OpKind::kConv, ca, {x, w})), "m.onnx:n: error: strides and dilations must be at least 1");
  PoolAttrs pa;
  pa.kernelShape = {3, 3};
  pa.strides = {2};
  EXPECT_NE(std::get<1>(run(OpKind::kMaxPool, pa, {x})).find("must match the 2 spatial axes"), std::string::npos);
  EXPECT_EQ(std::get<1>(run(OpKind::kReshape, ReshapeAttrs{}, {Tensor(DType::kFloat32, {4}), Tensor::of<int64_t>({2}, {-1, -2})})),
            "m.onnx:n: error: Reshape dimension -2 is negative");
  // Found by fuzzing: a Gather of empty slices indexed an empty buffer (undefined behaviour).
  EXPECT_EQ(std::get<0>(run(OpKind::kGather, AxisAttrs{}, {Tensor(DType::kFloat32, {2, 0}), Tensor::of<int64_t>({1}, {1})})).shape(),
            (Shape{1, 0}));
  // Found by the sanitized ONNX node tests: an empty part of a Split copied from an empty buffer.
  {
    SplitAttrs sa;
    sa.split = {0, 2};
    std::vector<Tensor> parts(2);
    const Tensor x = Tensor::of<float>({2}, {1, 2});
    ASSERT_TRUE(runOp(OpKind::kSplit, sa, {&x}, parts, support::Location::node("m.onnx", "n")).isOk());
    EXPECT_EQ(parts[0].shape(), (Shape{0}));
    EXPECT_EQ(parts[1].bytes(), x.bytes());
  }
  // Found by fuzzing: the product of the target's dimensions overflowed (undefined behaviour).
  EXPECT_EQ(std::get<1>(run(OpKind::kReshape, ReshapeAttrs{},
                            {Tensor(DType::kFloat32, {4}), Tensor::of<int64_t>({2}, {8388609, 6773413839565225983})})),
            "m.onnx:n: error: Reshape target 8388609x6773413839565225983 has more elements than a 64-bit size holds");
  EXPECT_EQ(std::get<1>(run(OpKind::kConstantOfShape, ConstantAttrs{}, {Tensor::of<int64_t>({3}, {1 << 20, 1 << 20, 1 << 20})})),
            "m.onnx:n: error: ConstantOfShape output is too large");
  // Found by fuzzing: an empty tensor whose other dimensions were huge overflowed its strides in a broadcast.
  EXPECT_EQ(std::get<1>(run(OpKind::kConstantOfShape, ConstantAttrs{}, {Tensor::of<int64_t>({3}, {0, 1 << 30, 1 << 30})})),
            "m.onnx:n: error: ConstantOfShape output is too large");
}

TEST(KernelsTest, AMaxPoolWindowWhollyInThePaddingGivesTheLowestValue) {
  // Found by fuzzing: such a window converted -inf to int8 (undefined behaviour).
  PoolAttrs pa;
  pa.kernelShape = {1, 2};
  pa.pads = {0, 0, 0, 3};
  const float low = -std::numeric_limits<float>::max();
  EXPECT_EQ(values<int8_t>(run(OpKind::kMaxPool, pa, {Tensor::of<int8_t>({1, 1, 1, 2}, {-9, -7})})),
            (std::vector<int8_t>{-7, -7, -128, -128}));
  EXPECT_EQ(values<float>(run(OpKind::kMaxPool, pa, {Tensor::of<float>({1, 1, 1, 2}, {-9, -7})})),
            (std::vector<float>{-7, -7, low, low}));
}

TEST(KernelsTest, QConvMatchesItsDefinition) {
  // x = [[1, 2], [3, 4]], w = 1 (1×1), bias 10, mult 2^30 (0.5), shift 1: acc = 11..14, mulq halves
  // with ties up (6, 6, 7, 7), shrr halves with ties away from zero (3, 3, 4, 4).
  Tensor x = Tensor::of<int8_t>({1, 1, 2, 2}, {1, 2, 3, 4}), w = Tensor::of<int8_t>({1, 1, 1, 1}, {1});
  QConvAttrs a;
  EXPECT_EQ(values<int8_t>(run(OpKind::kQConv, a,
                               {x, w, Tensor::of<int32_t>({1}, {10}), Tensor::of<int32_t>({1}, {1 << 30}),
                                Tensor::of<int32_t>({1}, {1})})),
            (std::vector<int8_t>{3, 3, 4, 4}));
}

TEST(KernelsTest, Im2colThenAOneByOneQConvIsTheQConv) {
  Tensor x(DType::kInt8, {2, 3, 9, 8}), w(DType::kInt8, {5, 3, 3, 2});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<int8_t>()[i] = static_cast<int8_t>((i * 37) % 251 - 125);
  for (int64_t i = 0; i < w.numel(); ++i) w.data<int8_t>()[i] = static_cast<int8_t>((i * 53) % 255 - 127);
  std::vector<Tensor> params = {Tensor::of<int32_t>({5}, {10, -20, 30, 0, 5}), Tensor::of<int32_t>({5}, {1 << 30, 1 << 29, 1 << 30, 3 << 28, 1 << 30}),
                                Tensor::of<int32_t>({5}, {6, 7, 5, 6, 8})};
  // Strides 1 to 3 and pads 0 to 3 on either axis: windows that start, end or lie wholly in the padding.
  const std::vector<std::pair<Ints, Ints>> cases = {{{2, 1}, {1, 0, 2, 1}}, {{1, 2}, {0, 1, 1, 2}}, {{3, 3}, {2, 3, 3, 1}},
                                                    {{1, 1}, {0, 0, 0, 0}}, {{2, 2}, {3, 3, 3, 3}}};
  QConvAttrs a;
  Im2colAttrs ia;
  for (const auto& [strides, pads] : cases) {
    a.strides = strides, a.pads = pads, a.padValue = 4, a.zeroPoint = -3;
    auto direct = values<int8_t>(run(OpKind::kQConv, a, {x, w, params[0], params[1], params[2]}));
    ia.kernelShape = {3, 2}, ia.strides = a.strides, ia.pads = a.pads, ia.padValue = a.padValue;
    auto cols = run(OpKind::kIm2col, ia, {x});
    ASSERT_EQ(cols.index(), 0u) << std::get<1>(cols);
    const int64_t oh = (9 + pads[0] + pads[2] - 3) / strides[0] + 1, ow = (8 + pads[1] + pads[3] - 2) / strides[1] + 1;
    EXPECT_EQ(std::get<0>(cols).shape(), (Shape{2, 18, oh, ow}));
    Tensor wk = w;
    wk.reshape({5, 18, 1, 1});
    QConvAttrs one = a;
    one.strides.clear(), one.pads.clear();
    auto unrolled = values<int8_t>(run(OpKind::kQConv, one, {std::get<0>(cols), wk, params[0], params[1], params[2]}));
    ASSERT_EQ(direct.size(), static_cast<size_t>(2 * 5 * oh * ow));
    EXPECT_EQ(unrolled, direct) << "strides " << strides[0] << "," << strides[1];
  }
  ia.kernelShape = {13, 2}, ia.pads = {1, 0, 2, 1};  // taller than the 9 rows and 3 pad rows
  EXPECT_NE(std::get<1>(run(OpKind::kIm2col, ia, {x})).find("does not fit the padded input"), std::string::npos);
}

TEST(KernelsTest, QAveragePoolIsTheRoundedAverageWithinOneStep) {
  // x in scale 0.1 with zero point 3; y in scale 0.05 with zero point -2; a 3x3 window, stride 2.
  Tensor x(DType::kInt8, {1, 2, 7, 7});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<int8_t>()[i] = static_cast<int8_t>((i * 37) % 200 - 100);
  const double sx = 0.1, sy = 0.05, real = sx / (sy * 9);
  QPoolAttrs a;
  a.kernelShape = {3, 3}, a.strides = {2, 2}, a.zeroX = 3, a.zeroPoint = -2;
  a.shift = 7 - static_cast<int64_t>(std::floor(std::log2(real)));
  a.mult = std::llround(real * std::ldexp(1.0, static_cast<int>(23 + a.shift)));
  auto y = values<int8_t>(run(OpKind::kQAveragePool, a, {x}));
  ASSERT_EQ(y.size(), 2u * 3 * 3);
  int exact = 0;
  for (int64_t p = 0; p < 2; ++p)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        double sum = 0;
        for (int u = 0; u < 3; ++u)
          for (int v = 0; v < 3; ++v) sum += (x.data<int8_t>()[(p * 7 + 2 * i + u) * 7 + 2 * j + v] - 3) * sx;
        const double want = std::clamp(std::nearbyint(sum / 9 / sy) - 2, -128.0, 127.0);
        const int got = y[static_cast<size_t>((p * 3 + i) * 3 + j)];
        EXPECT_LE(std::abs(got - want), 1.0) << p << "," << i << "," << j;
        exact += got == want;
      }
  EXPECT_GE(exact, 15);  // all but the ties and the odd double rounding
  a.kernelShape = {9, 9};
  EXPECT_NE(std::get<std::string>(run(OpKind::kQAveragePool, a, {x})).find("does not fit the input 1x2x7x7"), std::string::npos);
}

}  // namespace
}  // namespace accelc::runtime
