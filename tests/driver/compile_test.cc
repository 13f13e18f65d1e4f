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

TEST(CompileTest, ADepthwiseConvolutionFedByTheHostIsNotUnrolled) {
  // Im2col unrolls every input channel, which a grouped convolution's weights do not cover: the depthwise
  // convolution right after the input's quantization runs as it is, block diagonal, with its results.
  isa::Target t = testing::presetTarget("vta-default");
  auto g = parseGraph(R"(graph "dw"
input "x" : float32[1,16,6,6]
const "s" : float32[] = hex:cdcc4c3d
const "z" : int8[] = hex:00
const "w" : int8[16,1,3,3] = hex:1c4205eac9d553a7fc261c40bafb334359b007d15a1912ced1e2b3c2c7273db65608c0f0da52df11bceadb0bedfdb1d9a70fb40623c9ace212c23ea6c53ad8d9faa8bbc830aa26bb38252fd811b70bd749bd593acbd241b0b3eb345441ccea39aec55a0de2cf4227b103522b3d3656bcfec23b0319db0cd839aa0741faa614c2dcde17ebf9bcf447eec02ab4ac073513
const "b" : int32[16] = hex:d100000036000000d2ffffff1701000017ffffff87000000c0ffffff36ffffff6e000000de00000051000000110100004e00000062fffffffdffffff83ffffff
const "m" : int32[16] = hex:00000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040
const "sh" : int32[16] = hex:05000000050000000500000005000000050000000500000005000000050000000500000005000000050000000500000005000000050000000500000005000000
node "q" QuantizeLinear("x", "s", "z") -> ("xq" : int8[1,16,6,6] quant(scale=[0.05], zero_point=[0], axis=-1, dtype=int8)) {axis=1}
node "dw" QConv("xq", "w", "b", "m", "sh") -> ("y" : int8[1,16,6,6] quant(scale=[0.05], zero_point=[0], axis=-1, dtype=int8)) {strides=[1,1], pads=[1,1,1,1], pad_value=0, zero_point=0, lo=-128, hi=127, group=16}
output "y"
)", "dw");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  auto b = compileIntegerGraph(*g, t, false);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  for (const runtime::LayerInfo& l : b->layers) EXPECT_EQ(l.name.find("im2col"), std::string::npos) << l.name;
  ASSERT_EQ(b->layers.back().name, "dw");
  EXPECT_EQ(b->layers.back().where, "accelerator") << b->layers.back().why;
  runtime::FsimDevice device(t);
  auto e = runtime::Executor::create(*b, device, "dw.acx");
  ASSERT_TRUE(e.isOk()) << e.diag().str();
  Tensor x(support::DType::kFloat32, {1, 16, 6, 6});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = static_cast<float>((i * 37 % 41) - 20) * 0.15f;
  auto got = (*e)->run({x});
  ASSERT_TRUE(got.isOk()) << got.diag().str();
  auto ref = runReferenceBatched(*g, {x});
  ASSERT_TRUE(ref.isOk()) << ref.diag().str();
  EXPECT_EQ((*got)[0].bytes(), (*ref)[0].bytes());
}

TEST(CompileTest, ANestedConcatenationIsCopiedOnTheHostNotViewedTwice) {
  // A view is one level deep: Concat(Concat(a, b), c) keeps both on the host, with the reason, and its results.
  isa::Target t = testing::presetTarget("vta-default");
  auto g = parseGraph(R"(graph "nested"
input "x" : int8[1,16,4,4] quant(scale=[0.1], zero_point=[0], axis=-1, dtype=int8)
const "a:w" : int8[16,16,1,1] = hex:13e422f1291c3c2f22173a07c72fff273ce317ca37d8d2f30033e3f409d10de3c521dff8e7db393326f5d8252acdd51313fcd4d4c433c4de27dfd933d9e9ecdd09341a14dedb3c1cdd36f5eac6f2f9d93bd6e5cceeea2c110fc4101a1eefccebf12ceb011decdb01001edacbe43cc623f130f7c60a28f9f2f40e2fc5fdc91edb13ddd324e33a2c3cfff005f13607e427ffd10f23272af332e9c8fbcfdeef0512f239d6efe73a1d09cfeb1becebda2ace14d7201ceb01d820cace10083af7c8e22210f02de4fe17f9d6cb3915c82a03ee2fded4210cd4143628f8d1d9fbf3d7cb30f9e9d6fe3a1331d906fe021c21ec01e7e900f737d6d2f42d08da143b0333ef
const "a:b" : int32[16] = hex:c4feffff67feffff0300000022ffffff1b0000002c0100003d000000840100000e0000007dffffff4cfeffff300100003a0100002501000078ffffffd3000000
const "a:m" : int32[16] = hex:00000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040
const "a:s" : int32[16] = hex:07000000070000000700000007000000070000000700000007000000070000000700000007000000070000000700000007000000070000000700000007000000
const "b:w" : int8[16,16,1,1] = hex:0f18c825ebf20b1e19e72e02e5261c1fe9ef17da0e31c5000a27e4ed19e7ffe82c04161a2af1f0e716f0223c2ef8f03a2fda33321cfdf2ee06d607d9dd2ff23b3101e81cce201921f9d912273b0e06193bf9ea130a273215e620c7ddd80ffc1317dbe0251bdb141fc900e0d9ca36d5d2ecdb01dc0ac8f9fff0f41812cd0fdee21f37f3c4f0f7e731f832d21c2e0af3c80a12ead0e90905ef0ee9f12cd4f9f82c0c1608f3ffd6d810f40c01ddd511cff02d3618c4f4d1ed0c391209d6ed1434360cf4fafbe003e9011ef4f53138d81010e522ea03e4f9c6ec3ceb023ae8d601c7d31813fce3e9c928d52df6c501080be7e33b0028c8e302e630d720e8e9031100
const "b:b" : int32[16] = hex:1e000000a000000080010000760000009101000005010000a001000085feffff1cfeffff160100008dfeffff3fffffff2dffffff2e000000e100000064ffffff
const "b:m" : int32[16] = hex:00000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040
const "b:s" : int32[16] = hex:07000000070000000700000007000000070000000700000007000000070000000700000007000000070000000700000007000000070000000700000007000000
const "c:w" : int8[16,16,1,1] = hex:12e92107c7fff0f21b232c0fd4c8c4e40afe1b39d1351b09dcc5fa272bfa100d1c1e14170131382ff500f61b3120dd37e9ff2e25ccea2fc41c27fb0ee816270038ebd6d9011c0a3503ee08d7fa0e092bcacc21e1e62cce29cc183cc7ee20faccf71d02cad32fd3e012162dd21f36d5e91e39fcd7db12dbf82ad8cc13dfc90bd118f423cde7cb0d0dd323f73413d5c5fbcfec1b100202f13c17f339cbd51de9d70c141a04e9383c0b0a13e0e5cc0ae2e42e24e806d52be232f3fe22f5dad41fc617efce0d19c8cf32d30410fee2f534ff01edd12907c70920f5ca30d73cfa1b29e023d2ce3819022ddfd51d13f4f12ee2e9ee3b121ef029f5f4d5202ef116e92a
const "c:b" : int32[16] = hex:92000000c7ffffffe4010000740100007effffff1d00000031feffff6a00000057000000e8feffff01010000c4feffffa1ffffff4cfeffff6ffeffff31feffff
const "c:m" : int32[16] = hex:00000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040
const "c:s" : int32[16] = hex:07000000070000000700000007000000070000000700000007000000070000000700000007000000070000000700000007000000070000000700000007000000
node "a" QConv("x", "a:w", "a:b", "a:m", "a:s") -> ("a:y" : int8[1,16,4,4] quant(scale=[0.1], zero_point=[0], axis=-1, dtype=int8)) {strides=[1,1], pads=[0,0,0,0], pad_value=0, zero_point=0, lo=-128, hi=127, group=1}
node "b" QConv("x", "b:w", "b:b", "b:m", "b:s") -> ("b:y" : int8[1,16,4,4] quant(scale=[0.1], zero_point=[0], axis=-1, dtype=int8)) {strides=[1,1], pads=[0,0,0,0], pad_value=0, zero_point=0, lo=-128, hi=127, group=1}
node "c" QConv("x", "c:w", "c:b", "c:m", "c:s") -> ("c:y" : int8[1,16,4,4] quant(scale=[0.1], zero_point=[0], axis=-1, dtype=int8)) {strides=[1,1], pads=[0,0,0,0], pad_value=0, zero_point=0, lo=-128, hi=127, group=1}
node "inner" QConcat("a:y", "b:y") -> ("ab" : int8[1,32,4,4] quant(scale=[0.1], zero_point=[0], axis=-1, dtype=int8)) {axis=1, zeros=[0,0], mults=[536870912,536870912], shift=6, zero_point=0}
node "outer" QConcat("ab", "c:y") -> ("y" : int8[1,48,4,4] quant(scale=[0.1], zero_point=[0], axis=-1, dtype=int8)) {axis=1, zeros=[0,0], mults=[536870912,536870912], shift=6, zero_point=0}
output "y"
)", "nested");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  auto b = compileIntegerGraph(*g, t, false);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  int host = 0;
  for (const runtime::LayerInfo& l : b->layers)
    if (l.name == "inner" || l.name == "outer") {
      EXPECT_EQ(l.where, "host") << l.name;
      host += l.why.find("a concatenation itself") != std::string::npos;
    }
  EXPECT_EQ(host, 2);
  runtime::FsimDevice device(t);
  auto e = runtime::Executor::create(*b, device, "nested.acx");
  ASSERT_TRUE(e.isOk()) << e.diag().str();
  Tensor x(support::DType::kInt8, {1, 16, 4, 4});
  for (size_t i = 0; i < x.bytes().size(); ++i) x.bytes()[i] = static_cast<uint8_t>(i * 53 + 7);
  auto got = (*e)->run({x});
  ASSERT_TRUE(got.isOk()) << got.diag().str();
  auto ref = runReferenceBatched(*g, {x});
  ASSERT_TRUE(ref.isOk()) << ref.diag().str();
  EXPECT_EQ((*got)[0].bytes(), (*ref)[0].bytes());
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
  auto blocked = std::find_if(good->tensors.begin(), good->tensors.end(), [](const runtime::TensorSlot& s) { return s.blocked && s.form == runtime::BlockedForm::kImage; });
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
