// tests/runtime/data_kernels_test.cc — data movement and index kernels on
// edge cases the ONNX node tests miss: every Pad mode with crops, extreme
// Range bounds, negative indices, reductions, empty tensors and bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "runtime/ops.h"
#include "tests/runtime/kernel_test_util.h"

namespace accelc::runtime {
namespace {

using support::DType;

/// True when the run failed with a message containing `phrase`.
bool failsWith(const std::variant<Tensor, std::string>& r, const std::string& phrase) {
  const std::string msg = failure(r);
  return msg.find(phrase) != std::string::npos;
}

Tensor i64(Shape s, std::vector<int64_t> v) { return Tensor::of<int64_t>(std::move(s), v); }
Tensor f32(Shape s, std::vector<float> v) { return Tensor::of<float>(std::move(s), v); }

TEST(DataKernelsTest, ExpandBroadcastsBothWays) {
  auto r = run(OpKind::kExpand, NoAttrs{}, {Tensor::of<int32_t>({2, 1}, {1, 2}), i64({3}, {2, 1, 3})});
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(values<int32_t>(r), (std::vector<int32_t>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
  // A 1 in the shape keeps the input's dimension (bidirectional broadcast).
  EXPECT_EQ(std::get<0>(run(OpKind::kExpand, NoAttrs{}, {f32({3}, {1, 2, 3}), i64({2}, {2, 1})})).shape(), (Shape{2, 3}));
  EXPECT_EQ(std::get<0>(run(OpKind::kExpand, NoAttrs{}, {f32({1}, {1}), i64({2}, {0, 1})})).shape(), (Shape{0, 1}));
  EXPECT_TRUE(failsWith(run(OpKind::kExpand, NoAttrs{}, {f32({3}, {1, 2, 3}), i64({1}, {2})}), "cannot expand"));
  EXPECT_TRUE(failsWith(run(OpKind::kExpand, NoAttrs{}, {f32({1}, {1}), i64({1}, {-2})}), "cannot expand"));
}

TEST(DataKernelsTest, TileRepeatsEachAxisAndAllowsZero) {
  EXPECT_EQ(values<uint8_t>(run(OpKind::kTile, NoAttrs{}, {Tensor::of<uint8_t>({1, 2}, {1, 2}), i64({2}, {2, 2})})),
            (std::vector<uint8_t>{1, 2, 1, 2, 1, 2, 1, 2}));
  EXPECT_EQ(std::get<0>(run(OpKind::kTile, NoAttrs{}, {f32({2}, {1, 2}), i64({1}, {0})})).shape(), (Shape{0}));
  EXPECT_TRUE(failsWith(run(OpKind::kTile, NoAttrs{}, {f32({2}, {1, 2}), i64({1}, {-1})}), "non-negative"));
  EXPECT_TRUE(failsWith(run(OpKind::kTile, NoAttrs{}, {f32({2}, {1, 2}), i64({2}, {1, 1})}), "one repeat per input axis"));
  EXPECT_TRUE(failsWith(run(OpKind::kTile, NoAttrs{}, {f32({2}, {1, 2}), i64({1}, {INT64_MAX})}), "fit 64 bits"));
}

TEST(DataKernelsTest, RangeCountsUpToTheLimitInEitherDirection) {
  auto one = [](auto v) { return Tensor::of<decltype(v)>({}, {v}); };
  EXPECT_EQ(values<int32_t>(run(OpKind::kRange, NoAttrs{}, {one(10), one(4), one(-3)})), (std::vector<int32_t>{10, 7}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kRange, NoAttrs{}, {one(1), one(5), one(-1)})), (std::vector<int32_t>{}));
  EXPECT_EQ(values<float>(run(OpKind::kRange, NoAttrs{}, {one(0.0f), one(1.0f), one(0.25f)})),
            (std::vector<float>{0, 0.25f, 0.5f, 0.75f}));
  // limit - start does not fit int64, yet the count (3) does.
  EXPECT_EQ(values<int64_t>(run(OpKind::kRange, NoAttrs{}, {one(INT64_MIN), one(INT64_MAX), one(INT64_MAX)})),
            (std::vector<int64_t>{INT64_MIN, -1, INT64_MAX - 1}));
  EXPECT_TRUE(failsWith(run(OpKind::kRange, NoAttrs{}, {one(0), one(5), one(0)}), "delta must not be 0"));
  EXPECT_TRUE(failsWith(run(OpKind::kRange, NoAttrs{}, {one(int64_t{0}), one(INT64_MAX), one(int64_t{1})}),
                        "too many elements"));
  EXPECT_TRUE(failsWith(run(OpKind::kRange, NoAttrs{}, {one(0.0f), one(NAN), one(1.0f)}), "too many elements"));
  EXPECT_TRUE(failsWith(run(OpKind::kRange, NoAttrs{}, {one(0), one(int64_t{5}), one(1)}), "dtype"));
}

Tensor padded(PadMode mode, std::vector<int64_t> pads) {
  PadAttrs a;
  a.mode = mode;
  return std::get<0>(run(OpKind::kPad, a, {Tensor::of<int32_t>({3}, {1, 2, 3}), i64({2}, pads), Tensor::of<int32_t>({}, {9})}));
}

TEST(DataKernelsTest, PadFillsReflectsOrRepeatsTheEdge) {
  auto vals = [](const Tensor& t) { return std::vector<int32_t>(t.data<int32_t>(), t.data<int32_t>() + t.numel()); };
  EXPECT_EQ(vals(padded(PadMode::kConstant, {2, 1})), (std::vector<int32_t>{9, 9, 1, 2, 3, 9}));
  EXPECT_EQ(vals(padded(PadMode::kReflect, {2, 2})), (std::vector<int32_t>{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(vals(padded(PadMode::kEdge, {2, 1})), (std::vector<int32_t>{1, 1, 1, 2, 3, 3}));
  // Negative pads crop first; the padding then mirrors what is left.
  EXPECT_EQ(vals(padded(PadMode::kReflect, {-1, 1})), (std::vector<int32_t>{2, 3, 2}));
  EXPECT_EQ(vals(padded(PadMode::kConstant, {-3, 0})), (std::vector<int32_t>{}));
}

TEST(DataKernelsTest, PadBeforeOpset11TakesPadsAndValueFromAttributes) {
  PadAttrs a;
  a.pads = {0, 1, 0, 0};
  a.value = 1e10f;  // saturates to the integer type
  EXPECT_EQ(values<int32_t>(run(OpKind::kPad, a, {Tensor::of<int32_t>({1, 1}, {5})})), (std::vector<int32_t>{INT32_MAX, 5}));
  a.value = 2;
  EXPECT_EQ(values<float>(run(OpKind::kPad, a, {Tensor(DType::kFloat32, {0, 1})})), (std::vector<float>{}));
}

TEST(DataKernelsTest, PadRejectsImpossiblePads) {
  PadAttrs a;
  const Tensor x = Tensor::of<int32_t>({3}, {1, 2, 3});
  a.mode = PadMode::kReflect;
  EXPECT_TRUE(failsWith(run(OpKind::kPad, a, {x, i64({2}, {3, 0})}), "reflect mode needs more than 3 elements"));
  a.mode = PadMode::kEdge;
  EXPECT_TRUE(failsWith(run(OpKind::kPad, a, {Tensor(DType::kInt32, {0}), i64({2}, {1, 0})}), "cannot extend an empty axis"));
  a.mode = PadMode::kConstant;
  EXPECT_TRUE(failsWith(run(OpKind::kPad, a, {x, i64({2}, {-2, -2})}), "crops more than the axis holds"));
  EXPECT_TRUE(failsWith(run(OpKind::kPad, a, {x, i64({2}, {INT64_MIN, 0})}), "crops more than the axis holds"));
  EXPECT_TRUE(failsWith(run(OpKind::kPad, a, {x, i64({2}, {INT64_MAX, 1})}), "overflows"));
  EXPECT_TRUE(failsWith(run(OpKind::kPad, a, {x, i64({1}, {1})}), "2 pads per axis"));
  EXPECT_TRUE(failsWith(run(OpKind::kPad, a, {x, i64({2}, {1, 1}), f32({}, {0})}), "dtype"));
}

TEST(DataKernelsTest, EmptyOutputsWithLongAxesCostNothing) {
  // An output with a 0 axis holds no element however long its other axes are.
  const Tensor x(DType::kFloat32, {0, 1});
  const int64_t big = int64_t{1} << 39;
  EXPECT_EQ(std::get<0>(run(OpKind::kTile, NoAttrs{}, {x, i64({2}, {1, big})})).shape(), (Shape{0, big}));
  EXPECT_EQ(std::get<0>(run(OpKind::kExpand, NoAttrs{}, {x, i64({2}, {1, big})})).shape(), (Shape{0, big}));
  PadAttrs a;
  EXPECT_EQ(std::get<0>(run(OpKind::kPad, a, {x, i64({4}, {0, big, 0, 0})})).shape(), (Shape{0, big + 1}));
}

TEST(DataKernelsTest, DepthToSpaceModesOrderChannelsDifferently) {
  Tensor x(DType::kInt8, {1, 8, 1, 1});
  for (int8_t i = 0; i < 8; ++i) x.data<int8_t>()[i] = i;
  BlockAttrs a{2, DepthMode::kDCR};
  auto dcr = run(OpKind::kDepthToSpace, a, {x});
  EXPECT_EQ(values<int8_t>(dcr), (std::vector<int8_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  a.mode = DepthMode::kCRD;
  EXPECT_EQ(values<int8_t>(run(OpKind::kDepthToSpace, a, {x})), (std::vector<int8_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // SpaceToDepth undoes DCR.
  EXPECT_EQ(std::get<0>(run(OpKind::kSpaceToDepth, BlockAttrs{2, DepthMode::kDCR}, {std::get<0>(dcr)})), x);
}

TEST(DataKernelsTest, BlockMovesRejectIndivisibleShapes) {
  EXPECT_TRUE(failsWith(run(OpKind::kDepthToSpace, BlockAttrs{2, DepthMode::kDCR}, {Tensor(DType::kFloat32, {1, 6, 1, 1})}), "multiple of blocksize"));
  EXPECT_TRUE(failsWith(run(OpKind::kSpaceToDepth, BlockAttrs{2, DepthMode::kDCR}, {Tensor(DType::kFloat32, {1, 1, 3, 2})}), "multiples of blocksize"));
  EXPECT_TRUE(failsWith(run(OpKind::kSpaceToDepth, BlockAttrs{0, DepthMode::kDCR}, {Tensor(DType::kFloat32, {1, 1, 2, 2})}), "blocksize must be positive"));
  EXPECT_TRUE(failsWith(run(OpKind::kDepthToSpace, BlockAttrs{2, DepthMode::kDCR}, {Tensor(DType::kFloat32, {4, 1, 1})}), "rank"));
}

TEST(DataKernelsTest, GatherElementsCountsNegativeIndicesFromTheEnd) {
  const Tensor data = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(values<float>(run(OpKind::kGatherElements, AxisAttrs{-1}, {data, i64({2, 1}, {-1, 0})})), (std::vector<float>{3, 4}));
  EXPECT_EQ(values<float>(run(OpKind::kGatherElements, AxisAttrs{0}, {data, Tensor::of<int32_t>({1, 3}, {1, -2, 1})})),
            (std::vector<float>{4, 2, 6}));
  EXPECT_TRUE(failsWith(run(OpKind::kGatherElements, AxisAttrs{1}, {data, i64({1, 1}, {3})}), "out of range"));
  EXPECT_TRUE(failsWith(run(OpKind::kGatherElements, AxisAttrs{1}, {data, i64({3, 1}, {0, 0, 0})}), "exceeds data shape"));
  EXPECT_TRUE(failsWith(run(OpKind::kGatherElements, AxisAttrs{2}, {data, i64({1, 1}, {0})}), "axis 2 is out of range"));
}

TEST(DataKernelsTest, GatherNDTakesSlicesPerBatch) {
  const Tensor data = f32({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  auto r = run(OpKind::kGatherND, GatherNDAttrs{1}, {data, i64({2, 1}, {1, -2})});
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{2, 2}));
  EXPECT_EQ(values<float>(r), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(values<float>(run(OpKind::kGatherND, GatherNDAttrs{0}, {data, i64({2, 3}, {0, 1, 1, 1, 0, 0})})),
            (std::vector<float>{3, 4}));
  EXPECT_EQ(std::get<0>(run(OpKind::kGatherND, GatherNDAttrs{0}, {data, i64({0, 1}, {})})).shape(), (Shape{0, 2, 2}));
  EXPECT_TRUE(failsWith(run(OpKind::kGatherND, GatherNDAttrs{0}, {data, i64({1, 1}, {2})}), "out of range"));
  EXPECT_TRUE(failsWith(run(OpKind::kGatherND, GatherNDAttrs{0}, {data, i64({1, 4}, {0, 0, 0, 0})}), "expected 1 to 3"));
  EXPECT_TRUE(failsWith(run(OpKind::kGatherND, GatherNDAttrs{0}, {data, i64({1, 0}, {})}), "expected 1 to 3"));
  EXPECT_TRUE(failsWith(run(OpKind::kGatherND, GatherNDAttrs{2}, {data, i64({2, 1}, {0, 0})}), "batch_dims 2"));
}

TEST(DataKernelsTest, ScatterElementsReducesDuplicatesAndWrapsIntegers) {
  ScatterAttrs a;
  a.axis = -1;
  a.reduction = ScatterReduction::kAdd;
  const Tensor data = Tensor::of<int32_t>({1, 3}, {INT32_MAX, 1, 2});
  const Tensor idx = i64({1, 3}, {0, -1, -1}), upd = Tensor::of<int32_t>({1, 3}, {1, 10, 20});
  EXPECT_EQ(values<int32_t>(run(OpKind::kScatterElements, a, {data, idx, upd})), (std::vector<int32_t>{INT32_MIN, 1, 32}));
  a.reduction = ScatterReduction::kMul;
  EXPECT_EQ(values<int32_t>(run(OpKind::kScatterElements, a, {data, idx, upd})), (std::vector<int32_t>{INT32_MAX, 1, 400}));
  a.reduction = ScatterReduction::kNone;  // duplicates without reduction apply in order
  EXPECT_EQ(values<int32_t>(run(OpKind::kScatterElements, a, {data, idx, upd})), (std::vector<int32_t>{1, 1, 20}));
  EXPECT_TRUE(failsWith(run(OpKind::kScatterElements, a, {data, i64({1, 1}, {3}), Tensor::of<int32_t>({1, 1}, {0})}), "out of range"));
  EXPECT_TRUE(failsWith(run(OpKind::kScatterElements, a, {data, idx, f32({1, 3}, {0, 0, 0})}), "dtype"));
  EXPECT_TRUE(failsWith(run(OpKind::kScatterElements, a, {data, idx, Tensor::of<int32_t>({3}, {0, 0, 0})}), "differs from indices shape"));
}

TEST(DataKernelsTest, ScatterOnBoolsAddsAsOrAndMultipliesAsAnd) {
  Tensor data(DType::kBool, {2}), upd(DType::kBool, {2});
  data.data<uint8_t>()[0] = 1;
  upd.data<uint8_t>()[0] = upd.data<uint8_t>()[1] = 1;
  ScatterAttrs a;
  a.reduction = ScatterReduction::kAdd;
  EXPECT_EQ(values<uint8_t>(run(OpKind::kScatterElements, a, {data, i64({2}, {0, 1}), upd})), (std::vector<uint8_t>{1, 1}));
  a.reduction = ScatterReduction::kMul;
  EXPECT_EQ(values<uint8_t>(run(OpKind::kScatterElements, a, {data, i64({2}, {0, 1}), upd})), (std::vector<uint8_t>{1, 0}));
}

TEST(DataKernelsTest, ScatterNDWritesSlicesInOrder) {
  const Tensor data = f32({2, 2}, {1, 2, 3, 4});
  ScatterAttrs a;
  EXPECT_EQ(values<float>(run(OpKind::kScatterND, a, {data, i64({2, 1}, {-1, 1}), f32({2, 2}, {5, 6, 7, 8})})),
            (std::vector<float>{1, 2, 7, 8}));
  a.reduction = ScatterReduction::kAdd;
  EXPECT_EQ(values<float>(run(OpKind::kScatterND, a, {data, i64({2, 2}, {0, 1, 0, 1}), f32({2}, {10, 20})})),
            (std::vector<float>{1, 32, 3, 4}));
  EXPECT_TRUE(failsWith(run(OpKind::kScatterND, a, {data, i64({1, 1}, {0}), f32({1, 3}, {0, 0, 0})}), "expected 1x2"));
  EXPECT_TRUE(failsWith(run(OpKind::kScatterND, a, {data, i64({1, 1}, {-3}), f32({1, 2}, {0, 0})}), "out of range"));
}

TEST(DataKernelsTest, OneHotGivesAllOffRowsForIndicesOutsideDepth) {
  const Tensor vals = Tensor::of<int32_t>({2}, {0, 7});
  EXPECT_EQ(values<int32_t>(run(OpKind::kOneHot, AxisAttrs{-1}, {i64({3}, {-1, 3, 1}), f32({}, {3.7f}), vals})),
            (std::vector<int32_t>{0, 0, 7, 0, 0, 0, 0, 7, 0}));
  auto r = run(OpKind::kOneHot, AxisAttrs{0}, {f32({2}, {0, 1}), i64({1}, {2}), vals});
  EXPECT_EQ(std::get<0>(r).shape(), (Shape{2, 2}));
  EXPECT_EQ(values<int32_t>(r), (std::vector<int32_t>{7, 0, 0, 7}));
  EXPECT_TRUE(failsWith(run(OpKind::kOneHot, AxisAttrs{-1}, {i64({1}, {0}), i64({}, {-1}), vals}), "negative or too large"));
  EXPECT_TRUE(failsWith(run(OpKind::kOneHot, AxisAttrs{2}, {i64({1}, {0}), i64({}, {2}), vals}), "axis 2 is out of range"));
  EXPECT_TRUE(failsWith(run(OpKind::kOneHot, AxisAttrs{-1}, {i64({1}, {0}), i64({}, {2}), i64({3}, {0, 1, 2})}), "[off, on]"));
}

TEST(DataKernelsTest, TriluKeepsATriangleOfTheLastTwoAxes) {
  const Tensor x = Tensor::of<int32_t>({2, 2, 3}, {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6});
  EXPECT_EQ(values<int32_t>(run(OpKind::kTrilu, TriluAttrs{1}, {x, i64({}, {1})})),
            (std::vector<int32_t>{0, 2, 3, 0, 0, 6, 0, 2, 3, 0, 0, 6}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kTrilu, TriluAttrs{0}, {x, i64({}, {-1})})),
            (std::vector<int32_t>{0, 0, 0, 4, 0, 0, 0, 0, 0, 4, 0, 0}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kTrilu, TriluAttrs{0}, {x, i64({}, {INT64_MAX})})), values<int32_t>(x));
  EXPECT_TRUE(failsWith(run(OpKind::kTrilu, TriluAttrs{1}, {Tensor(DType::kFloat32, {3})}), "rank >= 2"));
}

TEST(DataKernelsTest, SizeEyeLikeAndNonZeroHandleScalarsAndEmptyTensors) {
  auto size = run(OpKind::kSize, NoAttrs{}, {Tensor(DType::kBool, {2, 0, 3})});
  EXPECT_EQ(std::get<0>(size).shape(), (Shape{}));
  EXPECT_EQ(values<int64_t>(size), (std::vector<int64_t>{0}));
  EXPECT_EQ(values<int32_t>(run(OpKind::kEyeLike, EyeLikeAttrs{DType::kInt32, -1}, {Tensor(DType::kFloat32, {3, 2})})),
            (std::vector<int32_t>{0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(values<float>(run(OpKind::kEyeLike, EyeLikeAttrs{DType::kFloat32, INT64_MIN}, {Tensor(DType::kInt8, {1, 1})})),
            (std::vector<float>{0}));
  EXPECT_TRUE(failsWith(run(OpKind::kEyeLike, EyeLikeAttrs{}, {Tensor(DType::kFloat32, {2})}), "rank"));
  // numpy's nonzero: a scalar is a 1-element vector; -0.0 is zero.
  auto nz = run(OpKind::kNonZero, NoAttrs{}, {f32({}, {2})});
  EXPECT_EQ(std::get<0>(nz).shape(), (Shape{1, 1}));
  EXPECT_EQ(values<int64_t>(run(OpKind::kNonZero, NoAttrs{}, {f32({2, 2}, {0, -0.0f, 3, 4})})),
            (std::vector<int64_t>{1, 1, 0, 1}));
  EXPECT_EQ(std::get<0>(run(OpKind::kNonZero, NoAttrs{}, {Tensor(DType::kInt64, {2, 0})})).shape(), (Shape{2, 0}));
}

}  // namespace
}  // namespace accelc::runtime
