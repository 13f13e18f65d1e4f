// tests/driver/compile_test.cc — models compiled to bundles, run on fsim, and
// compared with the reference engine on the same integer graph.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "compiler/driver/compile.h"
#include "compiler/engine/reference.h"
#include "compiler/graph/graph_text.h"
#include "runtime/executor.h"
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
  EXPECT_EQ(r.diag().str().rfind("cut.acx: error: truncated file: ", 0), 0u) << r.diag().str();
}

}  // namespace
}  // namespace accelc::compiler
