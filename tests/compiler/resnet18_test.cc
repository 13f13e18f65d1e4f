// tests/compiler/resnet18_test.cc — ResNet-18 (seeded random weights, exported
// by models/resnet18/export_resnet18.py and cached in the build tree) on the
// reference engine against onnxruntime. Heavy: about ten seconds.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "compiler/frontend/compile_model.h"
#include "compiler/graph/graph_text.h"
#include "runtime/executor.h"
#include "runtime/sim_devices/make_device.h"
#include "tests/compiler/peer_util.h"
#include "tests/driver/layer_cycles.h"

namespace accelc::compiler {
namespace {

using namespace peer;  // NOLINT: test helpers

const std::string kModels = std::string(ACCELC_BUILD_DIR) + "/models", kModel = kModels + "/resnet18.onnx",
                  kInput = kModels + "/resnet18_input.npy";

/// Exports the model and its input into the build tree unless both are there.
/// Tests run in parallel: each exports into a folder of its own and renames
/// the files into place, so no test reads a file another is still writing.
bool exported() {
  struct stat st;
  if (::stat(kModel.c_str(), &st) == 0 && ::stat(kInput.c_str(), &st) == 0) return true;
  ::mkdir(kModels.c_str(), 0755);
  const std::string own = kModels + "/export-" + std::to_string(::getpid()), model = own + "/resnet18.onnx",
                    input = own + "/resnet18_input.npy";
  ::mkdir(own.c_str(), 0755);
  const bool ok = sh("/usr/bin/python3 " + kSrc + "/models/resnet18/export_resnet18.py " + model + " " + input) == 0 &&
                  std::rename(input.c_str(), kInput.c_str()) == 0 && std::rename(model.c_str(), kModel.c_str()) == 0;
  sh("rm -rf '" + own + "'");  // the folder of a failed export
  return ok;
}

TEST(PeerTest, ResNet18MatchesOnnxruntime) {
  ASSERT_TRUE(exported()) << testing::readFile(kTmp + "/peer.log");
  const std::string model = kModel, x = kInput;
  Tensor a = ours(model, x), b = ort(model, x, "logits", "resnet18");
  EXPECT_LE(worst(a, b), 1e-4);
}

/// ResNet-18 compiled for vta-default, calibrated on the test input and a
/// shifted copy of it (`calib`, two images).
support::Expected<runtime::Bundle> compiledResNet18(Tensor& calib) {
  const std::string model = kModel, x = kInput;
  if (!exported()) return support::error(support::Location::file(model), "export failed");
  Tensor in = load(x);
  calib = Tensor(support::DType::kFloat32, {2, 3, 224, 224});
  std::memcpy(calib.bytes().data(), in.bytes().data(), in.bytes().size());
  for (int64_t i = 0; i < in.numel(); ++i) calib.data<float>()[in.numel() + i] = in.data<float>()[i] * 0.5f + 0.1f;
  const std::string calibPath = kTmp + "/resnet18_calib.npy";
  ACCELC_TRY(support::writeNpy(calibPath, {calib.dtype(), calib.shape(), calib.bytes()}));
  CompileOptions o;
  o.calibrate = calibPath;
  return compileModel(model, testing::presetTarget("vta-default"), o);
}

TEST(PeerTest, ResNet18CompiledForVtaDefaultIsBitExactOnFsim) {
  Tensor calib;
  auto b = compiledResNet18(calib);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  isa::Target t = testing::presetTarget("vta-default");
  int accel = 0;
  for (const runtime::Step& s : b->steps) accel += s.kind == runtime::Step::Kind::kAccel;
  EXPECT_EQ(accel, 31);  // 20 convolutions, the max pool, 8 residual additions, the average pool, the classifier
  auto device = runtime::makeDevice(runtime::Engine::kFsim, t);
  ASSERT_TRUE(device.isOk()) << device.diag().str();
  auto e = runtime::Executor::create(*b, **device, "resnet18.acx");
  ASSERT_TRUE(e.isOk()) << e.diag().str();
  std::set<uint64_t> blockedAt;  // blocked intermediates of one layout share memory by lifetime
  size_t blocked = 0;
  for (const runtime::TensorSlot& s : b->tensors)
    if (s.blocked) blockedAt.insert(s.addr), ++blocked;
  EXPECT_LT(blockedAt.size(), blocked);
  // Two inferences in a row: memory shared between tensors holds nothing stale.
  auto onFsim = (*e)->runBatched({calib});
  ASSERT_TRUE(onFsim.isOk()) << onFsim.diag().str();
  auto g = parseGraph(b->graphText, "graph");
  ASSERT_TRUE(g.isOk());
  auto ref = runReferenceBatched(*g, {calib});
  ASSERT_TRUE(ref.isOk());
  EXPECT_EQ((*onFsim)[0].bytes(), (*ref)[0].bytes());
}

/// One inference of the calibration set's first image on `engine`: the
/// outputs and the executor's statistics; empty outputs after a failure.
std::pair<std::vector<Tensor>, runtime::RunStats> firstImageOn(const runtime::Bundle& b, const Tensor& calib,
                                                                runtime::Engine engine) {
  Tensor one(calib.dtype(), {1, 3, 224, 224});
  std::memcpy(one.bytes().data(), calib.bytes().data(), one.bytes().size());
  ::setenv("ACCELC_HLS_CACHE", (testing::tempDir() + "/hls-cache").c_str(), 0);
  auto device = runtime::makeDevice(engine, testing::presetTarget("vta-default"));
  EXPECT_TRUE(device.isOk()) << device.diag().str();
  if (!device) return {};
  auto e = runtime::Executor::create(b, **device, "resnet18.acx");
  EXPECT_TRUE(e.isOk()) << e.diag().str();
  if (!e) return {};
  auto out = (*e)->run({one});
  EXPECT_TRUE(out.isOk()) << out.diag().str();
  if (!out) return {};
  return {*out, (*e)->stats()};
}

TEST(PeerTest, ResNet18OnTheCycleModelIsFsimsBitForBitAndEveryLayerNearItsEstimate) {
  Tensor calib;
  auto b = compiledResNet18(calib);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  const auto [f, fStats] = firstImageOn(*b, calib, runtime::Engine::kFsim);
  const auto [c, cStats] = firstImageOn(*b, calib, runtime::Engine::kCycle);
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].bytes(), f[0].bytes());
  size_t checked = 0;
  for (const auto& [l, cycles] : testing::acceleratorLayers(*b, cStats)) {
    const double measured = static_cast<double>(cycles), estimate = static_cast<double>(l->cycles);
    EXPECT_LE(estimate, measured) << l->name;
    EXPECT_GE(estimate, 0.85 * measured) << l->name << ": " << estimate << " vs " << measured;
    ++checked;
  }
  EXPECT_EQ(checked, 31u);
}

TEST(PeerTest, ResNet18OnTheHlsEngineIsFsimsBitForBit) {
  Tensor calib;
  auto b = compiledResNet18(calib);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  const auto [f, fStats] = firstImageOn(*b, calib, runtime::Engine::kFsim);
  const auto [h, hStats] = firstImageOn(*b, calib, runtime::Engine::kHls);
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].bytes(), f[0].bytes());
  ASSERT_TRUE(fStats.accel && hStats.accel);
  EXPECT_EQ(*hStats.accel, *fStats.accel);  // the HLS code's own counters
  EXPECT_FALSE(hStats.cycles.has_value());
}

}  // namespace
}  // namespace accelc::compiler
