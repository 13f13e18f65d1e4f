// tests/driver/compile_test.cc — models compiled to bundles, run on fsim, and
// compared with the reference engine on the same integer graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>

#include "compiler/engine/reference.h"
#include "compiler/frontend/compile_model.h"
#include "compiler/graph/graph_text.h"
#include "runtime/executor.h"
#include "runtime/fsim_device.h"
#include "support/container.h"
#include "support/npy.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

using runtime::Tensor;

const std::string kDigits = testing::sourceDir() + "/models/digits/";

Tensor load(const std::string& path) {
  auto a = support::readNpy(path);
  EXPECT_TRUE(a.isOk()) << (a ? "" : a.diag().str());
  Tensor t(a->dtype, a->shape);
  t.bytes() = a->data;
  return t;
}

double accuracy(const Tensor& logits, const Tensor& labels) {
  int correct = 0;
  for (int64_t r = 0; r < logits.dim(0); ++r) {
    int64_t best = 0;
    for (int64_t j = 1; j < logits.dim(1); ++j)
      if (logits.at(r * logits.dim(1) + j) > logits.at(r * logits.dim(1) + best)) best = j;
    correct += best == labels.intAt(r);
  }
  return 100.0 * correct / static_cast<double>(logits.dim(0));
}

/// Compiles `model` for `preset`, runs the test split on fsim and on the
/// reference engine (the bundle's integer graph); returns fsim's logits.
Tensor fsimMatchesReference(const std::string& model, const std::string& preset, const CompileOptions& o) {
  isa::Target t = testing::presetTarget(preset);
  auto b = compileModel(model, t, o);
  EXPECT_TRUE(b.isOk()) << (b ? "" : b.diag().str());
  int accel = 0;
  for (const runtime::Step& s : b->steps) accel += s.kind == runtime::Step::Kind::kAccel;
  EXPECT_EQ(accel, 4) << "both convolutions, the pooling and the classifier belong on the accelerator";
  runtime::FsimDevice device(t);
  auto e = runtime::Executor::create(*b, device, "digits.acx");
  EXPECT_TRUE(e.isOk()) << (e ? "" : e.diag().str());
  const Tensor x = load(kDigits + "test_x.npy");
  auto onFsim = (*e)->runBatched({x});
  EXPECT_TRUE(onFsim.isOk()) << (onFsim ? "" : onFsim.diag().str());
  auto g = parseGraph(b->graphText, "graph");
  EXPECT_TRUE(g.isOk());
  auto ref = runReferenceBatched(*g, {x});
  EXPECT_TRUE(ref.isOk());
  EXPECT_EQ((*onFsim)[0].bytes(), (*ref)[0].bytes()) << preset << ": fsim and the reference differ";
  return (*onFsim)[0];
}

class CompileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompileTest, DigitsInt8IsBitExactOnFsimAndAccurate) {
  Tensor logits = fsimMatchesReference(kDigits + "digits_int8.onnx", GetParam(), {});
  EXPECT_GE(accuracy(logits, load(kDigits + "test_y.npy")), 97.78 - 1.0);
}

TEST_P(CompileTest, DigitsFp32CalibratedIsBitExactOnFsimAndAccurate) {
  CompileOptions o;
  o.calibrate = kDigits + "calib.npy";
  Tensor logits = fsimMatchesReference(kDigits + "digits_fp32.onnx", GetParam(), o);
  EXPECT_GE(accuracy(logits, load(kDigits + "test_y.npy")), 97.78 - 1.0);
}

ACCELC_INSTANTIATE_FOR_PRESETS(CompileTest);

TEST(CompileTest, SameModelTwiceGivesIdenticalBundles) {
  isa::Target t = testing::presetTarget("vta-default");
  auto a = compileModel(kDigits + "digits_int8.onnx", t, {}), b = compileModel(kDigits + "digits_int8.onnx", t, {});
  ASSERT_TRUE(a.isOk() && b.isOk());
  EXPECT_EQ(runtime::writeBundle(*a), runtime::writeBundle(*b));
  auto back = runtime::readBundle(runtime::writeBundle(*a), "d.acx");
  ASSERT_TRUE(back.isOk()) << back.diag().str();
  EXPECT_EQ(runtime::writeBundle(*back), runtime::writeBundle(*a));
}

TEST(CompileTest, FloatModelWithoutCalibrationNamesTheFlag) {
  isa::Target t = testing::presetTarget("vta-default");
  const std::string copy = testing::tempDir() + "/lonely_fp32.onnx";
  std::ofstream(copy, std::ios::binary) << testing::readFile(kDigits + "digits_fp32.onnx");
  auto b = compileModel(copy, t, {});
  ASSERT_FALSE(b.isOk());
  EXPECT_EQ(b.diag().str(), copy + ": error: a float model needs calibration data: pass --calibrate FILE.npy|DIR (or "
                                   "put calib.npy beside the model)");
  auto beside = compileModel(kDigits + "digits_fp32.onnx", t, {});  // calib.npy sits beside it
  EXPECT_TRUE(beside.isOk()) << beside.diag().str();
}

TEST(CompileTest, BundleForAnotherHwspecIsRefusedAtLoad) {
  auto b = compileModel(kDigits + "digits_int8.onnx", testing::presetTarget("vta-default"), {});
  ASSERT_TRUE(b.isOk());
  runtime::FsimDevice tiny(testing::presetTarget("tiny"));
  auto e = runtime::Executor::create(*b, tiny, "d.acx");
  ASSERT_FALSE(e.isOk());
  EXPECT_EQ(e.diag().str(), "d.acx: error: the bundle was built for another hwspec than the device's ('tiny'); "
                            "recompile it with --hw");
}

TEST(CompileTest, TruncatedBundleIsAnError) {
  auto b = compileModel(kDigits + "digits_int8.onnx", testing::presetTarget("vta-default"), {});
  ASSERT_TRUE(b.isOk());
  std::vector<uint8_t> bytes = runtime::writeBundle(*b);
  bytes.resize(bytes.size() / 2);
  auto r = runtime::readBundle(bytes, "cut.acx");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str().rfind("cut.acx: error: truncated bundle: bundle section '", 0), 0u) << r.diag().str();
}

/// One QConv from an int8 input of `shape` (zero point `zx`) to `m` channels.
Graph oneConv(const Shape& shape, int8_t zx, const runtime::QConvAttrs& a, int64_t k, int64_t m = 16) {
  Graph g;
  g.model = "one.onnx";
  Value x{"x", support::DType::kInt8, shape, {}, std::nullopt};
  x.quant = {{0.1f}, {zx}, -1, support::DType::kInt8};
  Tensor w(support::DType::kInt8, {m, shape[1], k, k}), ints(support::DType::kInt32, {m});
  for (size_t i = 0; i < w.bytes().size(); ++i) w.bytes()[i] = static_cast<uint8_t>(i * 37 % 11);
  for (int64_t i = 0; i < m; ++i) ints.data<int32_t>()[i] = static_cast<int32_t>(i % 16 + 1);
  const int in = g.addValue(x), wv = g.addValue({"w", support::DType::kInt8, w.shape(), {}, w});
  const int b = g.addValue({"b", support::DType::kInt32, {m}, {}, ints});
  const int mv = g.addValue({"m", support::DType::kInt32, {m}, {}, ints});
  const int sh = g.addValue({"s", support::DType::kInt32, {m}, {}, ints});
  const int64_t p = a.pads.empty() ? 0 : a.pads[0];
  const int y = g.addValue({"y", support::DType::kInt8, {shape[0], m, shape[2] + 2 * p - k + 1, shape[3] + 2 * p - k + 1}, {}, std::nullopt});
  g.nodes.push_back({OpKind::kQConv, "conv", a, {in, wv, b, mv, sh}, {y}});
  g.inputs = {in}, g.outputs = {y};
  return g;
}

TEST(CompileTest, ALayerWhoseRowPitchOverflowsTheIsaStaysOnTheHost) {
  isa::Target t = testing::presetTarget("vta-default");
  std::vector<std::string> log;
  auto b = compileIntegerGraph(oneConv({1, 16, 1, 70000}, 0, {}, 1), t, false, &log);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  ASSERT_EQ(b->layers.size(), 1u);
  EXPECT_EQ(b->layers[0].where, "host");
  EXPECT_NE(b->layers[0].why.find("does not encode"), std::string::npos) << b->layers[0].why;
  EXPECT_NE(b->layers[0].why.find("x_stride"), std::string::npos) << b->layers[0].why;
  auto narrow = compileIntegerGraph(oneConv({1, 16, 1, 700}, 0, {}, 1), t, false);
  ASSERT_TRUE(narrow.isOk());
  EXPECT_EQ(narrow->layers[0].where, "accelerator") << narrow->layers[0].why;
}

TEST(CompileTest, BordersThatWidenARowPastTheIsaKeepTheLayerOnTheHost) {
  // 4096 channels x (254 + 2 border) columns is a row pitch of 65536 entries,
  // one past STORE's x_stride: the border comes from the MaxPool that reads it.
  isa::Target t = testing::presetTarget("vta-default");
  runtime::QConvAttrs a;
  a.lo = 0;
  Graph g = oneConv({1, 16, 2, 254}, 0, a, 1, 4096);
  g.values[g.outputs[0]].quant = {{0.1f}, {0}, -1, support::DType::kInt8};
  runtime::PoolAttrs pa;
  pa.kernelShape = {2, 2}, pa.strides = {2, 2}, pa.pads = {1, 1, 1, 1};
  const int y = g.addValue({"p", support::DType::kInt8, {1, 4096, 2, 128}, {}, std::nullopt});
  g.nodes.push_back({OpKind::kMaxPool, "pool", pa, {g.outputs[0]}, {y}});
  g.outputs = {y};
  auto b = compileIntegerGraph(g, t, false);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  EXPECT_EQ(b->layers[0].where, "host") << b->layers[0].why;
  EXPECT_NE(b->layers[0].why.find("x_stride"), std::string::npos) << b->layers[0].why;
}

TEST(CompileTest, AOneChannelFirstConvolutionIsUnrolledOnTheHostAndKeepsItsResults) {
  // digits' first convolution has one input channel and a 3x3 window: the host
  // unrolls it into 9 channels and the accelerator runs a 1x1 convolution.
  isa::Target t = testing::presetTarget("vta-default");
  std::vector<std::string> log;
  auto b = compileModel(kDigits + "digits_int8.onnx", t, {}, &log);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  EXPECT_NE(std::find(log.begin(), log.end(), "/c1/Conv: 1 input channels unrolled to 9 on the host (Im2col), then a 1x1 QConv"),
            log.end());
  ASSERT_GE(b->layers.size(), 3u);
  EXPECT_EQ(b->layers[1].name, "/c1/Conv:im2col");
  EXPECT_EQ(b->layers[1].where, "host");
  EXPECT_EQ(b->layers[2].name, "/c1/Conv");
  EXPECT_EQ(b->layers[2].where, "accelerator");
  // The outputs are those of the integer graph before the rewrite.
  auto original = quantizeModel(kDigits + "digits_int8.onnx", {}, nullptr);
  ASSERT_TRUE(original.isOk()) << original.diag().str();
  const Tensor x = load(kDigits + "test_x.npy");
  auto ref = runReferenceBatched(*original, {x});
  ASSERT_TRUE(ref.isOk()) << ref.diag().str();
  runtime::FsimDevice device(t);
  auto e = runtime::Executor::create(*b, device, "digits.acx");
  ASSERT_TRUE(e.isOk()) << e.diag().str();
  auto got = (*e)->runBatched({x});
  ASSERT_TRUE(got.isOk()) << got.diag().str();
  EXPECT_EQ((*got)[0].bytes(), (*ref)[0].bytes());
}

TEST(CompileTest, AConvThatPadsWithAnotherValueThanTheZeroPointStaysOnTheHost) {
  isa::Target t = testing::presetTarget("vta-default");
  runtime::QConvAttrs a;
  a.pads = {1, 1, 1, 1}, a.padValue = 3;
  auto b = compileIntegerGraph(oneConv({1, 16, 6, 6}, 5, a, 3), t, false);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  EXPECT_EQ(b->layers[0].where, "host");
  EXPECT_EQ(b->layers[0].why, "host: it pads with 3 but its input's border holds the zero point 5");
  a.padValue = 5;
  auto same = compileIntegerGraph(oneConv({1, 16, 6, 6}, 5, a, 3), t, false);
  ASSERT_TRUE(same.isOk());
  EXPECT_EQ(same->layers[0].where, "accelerator") << same->layers[0].why;
  runtime::FsimDevice device(t);  // and the accelerator's padding is the reference's
  auto e = runtime::Executor::create(*same, device, "one.acx");
  ASSERT_TRUE(e.isOk()) << e.diag().str();
  Tensor x(support::DType::kInt8, {1, 16, 6, 6});
  for (size_t i = 0; i < x.bytes().size(); ++i) x.bytes()[i] = static_cast<uint8_t>(i * 13);
  auto got = (*e)->run({x});
  ASSERT_TRUE(got.isOk()) << got.diag().str();
  auto g = parseGraph(same->graphText, "graph");
  ASSERT_TRUE(g.isOk());
  auto ref = runReferenceBatched(*g, {x});
  ASSERT_TRUE(ref.isOk());
  EXPECT_EQ((*got)[0].bytes(), (*ref)[0].bytes());
}

TEST(CompileTest, APaddedMaxPoolRunsOnTheAcceleratorOnAnyInput) {
  // Read only by the pool, the input's border holds the int8 minimum, which
  // stands for -infinity exactly; behind a clamp at the zero point the pool
  // also applies the clamp itself. The results stay the reference engine's.
  isa::Target t = testing::presetTarget("vta-default");
  for (int64_t lo : {-128, 0}) {
    runtime::QConvAttrs a;
    a.lo = lo;
    Graph g = oneConv({1, 16, 8, 8}, 0, a, 1);
    for (Value& v : g.values) {  // outputs of both signs, so that the clamp matters
      if (v.name == "w")
        for (size_t i = 0; i < v.constant->bytes().size(); ++i)
          v.constant->bytes()[i] = static_cast<uint8_t>(i * 37 % 11 - 5);
      for (const auto& [name, value] : {std::make_pair("m", 1 << 30), std::make_pair("s", 2)})
        if (v.name == name) std::fill_n(v.constant->data<int32_t>(), v.constant->numel(), value);
    }
    runtime::PoolAttrs pa;
    pa.kernelShape = {3, 3}, pa.strides = {2, 2}, pa.pads = {1, 1, 1, 1};
    g.values[g.outputs[0]].quant = {{0.1f}, {0}, -1, support::DType::kInt8};
    const int y = g.addValue({"p", support::DType::kInt8, {1, 16, 4, 4}, {}, std::nullopt});
    g.nodes.push_back({OpKind::kMaxPool, "pool", pa, {g.outputs[0]}, {y}});
    g.outputs = {y};
    auto b = compileIntegerGraph(g, t, false);
    ASSERT_TRUE(b.isOk()) << b.diag().str();
    ASSERT_EQ(b->layers.size(), 2u);
    EXPECT_EQ(b->layers[1].where, "accelerator") << b->layers[1].why;
    int bordered = 0;  // the convolution's output, blocked
    for (const runtime::TensorSlot& slot : b->tensors)
      if (slot.blocked && slot.name.rfind("y", 0) == 0) {
        EXPECT_EQ(slot.blocked->fill, -128) << slot.name;
        ++bordered;
      }
    EXPECT_EQ(bordered, 1);
    if (lo == 0) {  // the pool, the convolution's only reader, takes over its clamp below
      EXPECT_NE(b->layers[0].why.find("; its clamp below moves to pool"), std::string::npos) << b->layers[0].why;
      EXPECT_NE(b->layers[1].why.find("; it clamps below at 0 for conv"), std::string::npos) << b->layers[1].why;
    }
    runtime::FsimDevice device(t);
    auto e = runtime::Executor::create(*b, device, "pool.acx");
    ASSERT_TRUE(e.isOk()) << e.diag().str();
    Tensor x(support::DType::kInt8, {1, 16, 8, 8});
    for (size_t i = 0; i < x.bytes().size(); ++i) x.bytes()[i] = static_cast<uint8_t>(i * 29);
    auto got = (*e)->run({x});
    ASSERT_TRUE(got.isOk()) << got.diag().str();
    auto ref = runReferenceBatched(*parseGraph(b->graphText, "graph"), {x});
    ASSERT_TRUE(ref.isOk());
    EXPECT_EQ((*got)[0].bytes(), (*ref)[0].bytes());
    const auto& out = (*ref)[0].bytes();
    const auto below = [](uint8_t v) { return static_cast<int8_t>(v) <= 0; };
    EXPECT_GT(std::count_if(out.begin(), out.end(), below), 0) << "no window's maximum is at or below the clamp";
    EXPECT_LT(std::count_if(out.begin(), out.end(), below), static_cast<long>(out.size()));
  }
}

TEST(CompileTest, BundlesThatContradictThemselvesAreRefused) {
  auto good = compileModel(kDigits + "digits_int8.onnx", testing::presetTarget("vta-default"), {});
  ASSERT_TRUE(good.isOk());
  auto refused = [&](const std::function<void(runtime::Bundle&)>& spoil) {
    runtime::Bundle b = *good;
    spoil(b);
    auto r = runtime::readBundle(runtime::writeBundle(b), "bad.acx");
    return r.isOk() ? std::string("accepted") : r.diag().str();
  };
  auto blocked = std::find_if(good->tensors.begin(), good->tensors.end(), [](const runtime::TensorSlot& s) { return s.blocked && !s.dense; });
  ASSERT_NE(blocked, good->tensors.end());
  const size_t bi = static_cast<size_t>(blocked - good->tensors.begin());
  EXPECT_EQ(refused([&](runtime::Bundle& b) { b.tensors[bi].shape[1] += 1; }),
            "bad.acx: error: tensor '" + blocked->name + "' has a layout that does not store its shape and type");
  EXPECT_EQ(refused([&](runtime::Bundle& b) { b.tensors[bi].blocked->block = int64_t{1} << 31, b.tensors[bi].blocked->h = int64_t{1} << 31; }),
            "bad.acx: error: tensor '" + blocked->name + "' has a layout that does not store its shape and type");
  EXPECT_EQ(refused([&](runtime::Bundle& b) { b.tensors[bi].dtype = support::DType::kFloat32; }),
            "bad.acx: error: tensor '" + blocked->name + "' has a layout that does not store its shape and type");
  auto accel = std::find_if(good->steps.begin(), good->steps.end(), [](const runtime::Step& s) { return s.kind == runtime::Step::Kind::kAccel; });
  const size_t ai = static_cast<size_t>(accel - good->steps.begin());
  EXPECT_EQ(refused([&](runtime::Bundle& b) { b.steps[ai].inputs[0] = -1; }),
            "bad.acx: error: step '" + accel->name + "' omits an input, which only host operators may");
  EXPECT_EQ(refused([&](runtime::Bundle& b) { b.steps[ai].inputs[0] = b.inputs[0]; }),
            "bad.acx: error: step '" + accel->name + "' reads tensor '" + good->tensors[good->inputs[0]].name + "' in the wrong layout");
  EXPECT_EQ(refused([&](runtime::Bundle& b) { b.programs[0].labels.push_back({0, uint64_t{1} << 40, "past"}); }),
            "bad.acx:program 0: error: label 'past' [0, 1099511627776) is empty, overlaps another, or lies past the " +
                std::to_string(good->programs[0].text().bytes.size() / 16) + " instructions");
  // A count past what its section holds is refused before anything is allocated.
  support::SectionData d = *support::readContainer(runtime::bundleContainerKind(), runtime::writeBundle(*good), "x");
  d[1][7] = 0x7f;
  auto r = runtime::readBundle(support::writeContainer(runtime::bundleContainerKind(), d), "big.acx");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str(), "big.acx[plan]: error: malformed file at offset 8: tensor count " +
                                std::to_string(uint64_t{0x7f} << 56 | good->tensors.size()) + " exceeds the bytes left");
}

}  // namespace
}  // namespace accelc::compiler
