// tests/runtime/kernels_test.cc — reference kernels on edge cases the ONNX
// node tests do not reach (integer wrap-around, per-row zero points, bad attributes).
#include <gtest/gtest.h>

#include "runtime/ops.h"

namespace accelc::runtime {
namespace {

using support::DType;

/// Runs one op; returns its first output or the diagnostic text.
std::variant<Tensor, std::string> run(OpKind k, Attrs a, std::vector<Tensor> in, int outputs = 1) {
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : in) ptrs.push_back(&t);
  std::vector<Tensor> out(outputs);
  support::Status s = runOp(k, a, ptrs, out, support::Location::node("m.onnx", "n"));
  if (!s) return s.str();
  return out[0];
}

template <typename T>
std::vector<T> values(const std::variant<Tensor, std::string>& r) {
  if (r.index() == 1) {
    ADD_FAILURE() << std::get<1>(r);
    return {};
  }
  const Tensor& t = std::get<0>(r);
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
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
  EXPECT_EQ(std::get<1>(run(OpKind::kConstantOfShape, ConstantAttrs{}, {Tensor::of<int64_t>({3}, {1 << 20, 1 << 20, 1 << 20})})),
            "m.onnx:n: error: ConstantOfShape output is too large");
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

}  // namespace
}  // namespace accelc::runtime
