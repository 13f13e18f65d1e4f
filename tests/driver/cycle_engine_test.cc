// tests/driver/cycle_engine_test.cc — compiled models on the cycle model:
// bit-identical to fsim, and double buffering visibly faster than the
// serialized program. One test per process (ctest), one hwspec each.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "compiler/frontend/compile_model.h"
#include "isa/builder.h"
#include "runtime/executor.h"
#include "runtime/sim_devices/make_device.h"
#include "support/npy.h"
#include "tests/driver/layer_cycles.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

using runtime::Tensor;

const std::string kDigits = testing::sourceDir() + "/models/digits/";

Tensor load(const std::string& path) {
  auto a = support::readNpy(path);
  EXPECT_TRUE(a.isOk());
  Tensor t(a->dtype, a->shape);
  t.bytes() = a->data;
  return t;
}

/// Runs `x` through `b` on `d`; the outputs and the executor's statistics.
std::pair<std::vector<Tensor>, runtime::RunStats> runOn(const runtime::Bundle& b, runtime::Device& d, const Tensor& x) {
  auto e = runtime::Executor::create(b, d, "digits.acx");
  EXPECT_TRUE(e.isOk()) << (e ? "" : e.diag().str());
  auto out = (*e)->runBatched({x});
  EXPECT_TRUE(out.isOk()) << (out ? "" : out.diag().str());
  return {*out, (*e)->stats()};
}

// The RTL device runs each program on the cycle model first: a program that
// deadlocks ends with the model's diagnostic, not a run to the cycle limit;
// a legal one ends on the RTL in the model's cycle.
TEST(RtlDeviceTest, AnIllegalProgramGetsTheCycleModelsDiagnostic) {
  ::setenv("ACCELC_RTL_CACHE", (testing::tempDir() + "/rtl-cache-device").c_str(), 1);
  isa::Target t = testing::presetTarget("tiny");
  auto d = runtime::makeDevice(runtime::Engine::kRtl, t);
  ASSERT_TRUE(d.isOk()) << d.diag().str();
  auto build = [&](bool popPrev) {
    isa::ProgramBuilder b(t);
    b.uops("uops", 0x1000, {isa::Uop{0, 0, 0}});
    b.text(0);
    isa::Instruction uops = isa::makeInstruction(isa::Opcode::kLoad);
    uops.mem().buffer = static_cast<int64_t>(isa::Buffer::kUop);
    uops.mem().ySize = 1, uops.mem().xSize = 1, uops.mem().xStride = 1;
    uops.mem().dramBase = 0x1000 / t.uopBytes();
    b.add(uops);
    isa::Instruction gemm = isa::makeInstruction(isa::Opcode::kGemm);
    gemm.gemm().uopEnd = 1, gemm.gemm().iterOut = 1, gemm.gemm().iterIn = 1;
    if (popPrev) isa::setDeps(gemm, {true, false, false, false});  // a token nobody pushes
    b.add(gemm);
    b.add(isa::makeInstruction(isa::Opcode::kFinish));
    auto p = b.finish("device.bin");
    EXPECT_TRUE(p.isOk()) << (p ? "" : p.diag().str());
    return *p;
  };
  const isa::Program bad = build(true), good = build(false);
  ASSERT_TRUE((*d)->loadProgram(bad).isOk());
  auto r = (*d)->run(bad, "device.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.diag().str().find("token underflow"), std::string::npos) << r.diag().str();
  ASSERT_TRUE((*d)->loadProgram(good).isOk());
  auto ok = (*d)->run(good, "device.bin");
  ASSERT_TRUE(ok.isOk()) << ok.diag().str();
  EXPECT_GT(ok->cycles.value_or(0), 0u);
}

class CycleEngineTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CycleEngineTest, DigitsGiveFsimsOutputsBitForBit) {
  isa::Target t = testing::presetTarget(GetParam());
  auto b = compileModel(kDigits + "digits_int8.onnx", t, {});
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  const Tensor x = load(kDigits + "test_x.npy");
  auto fsim = runtime::makeDevice(runtime::Engine::kFsim, t);
  auto cycle = runtime::makeDevice(runtime::Engine::kCycle, t);
  ASSERT_TRUE(fsim.isOk() && cycle.isOk()) << (cycle ? "" : cycle.diag().str());
  auto [fOut, fStats] = runOn(*b, **fsim, x);
  auto [cOut, cStats] = runOn(*b, **cycle, x);
  ASSERT_EQ(fOut.size(), 1u);
  ASSERT_EQ(cOut.size(), 1u);
  EXPECT_EQ(cOut[0].bytes(), fOut[0].bytes());
  ASSERT_TRUE(cStats.accel && fStats.accel);
  EXPECT_EQ(cStats.accel->macs, fStats.accel->macs);
  EXPECT_GT(cStats.cycles.value_or(0), 0u);
  EXPECT_FALSE(fStats.cycles.has_value());
}

TEST_P(CycleEngineTest, EveryLayersEstimateIsALowerBoundCloseToItsCycles) {
  // The estimate replays each program with every DMA alone on the DRAM port,
  // so it never exceeds the measured cycles. digits' layers are one tile each,
  // so their loads overlap little with compute and contend for the port: the
  // gap is larger here than on ResNet-18's layers (the heavy test holds those
  // within 15%).
  isa::Target t = testing::presetTarget(GetParam());
  auto b = compileModel(kDigits + "digits_int8.onnx", t, {});
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  auto device = runtime::makeDevice(runtime::Engine::kCycle, t);
  ASSERT_TRUE(device.isOk()) << device.diag().str();
  auto [out, stats] = runOn(*b, **device, load(kDigits + "input.npy"));
  size_t checked = 0;
  for (const auto& [l, cycles] : testing::acceleratorLayers(*b, stats)) {
    const double measured = static_cast<double>(cycles), estimate = static_cast<double>(l->cycles);
    EXPECT_LE(estimate, measured) << l->name;
    EXPECT_GE(estimate, 0.6 * measured) << l->name << ": " << estimate << " vs " << measured;
    ++checked;
  }
  EXPECT_EQ(checked, 4u);
}

ACCELC_INSTANTIATE_FOR_PRESETS(CycleEngineTest);

TEST(CycleEngine, DoubleBufferingSavesWhatTheEstimatesPredictLessPortContention) {
  isa::Target t = testing::presetTarget("vta-default");
  CompileOptions overlapped, serialized;
  serialized.serialize = true;
  auto a = compileModel(kDigits + "digits_int8.onnx", t, overlapped);
  auto s = compileModel(kDigits + "digits_int8.onnx", t, serialized);
  ASSERT_TRUE(a.isOk() && s.isOk());
  auto device = runtime::makeDevice(runtime::Engine::kCycle, t);
  ASSERT_TRUE(device.isOk()) << device.diag().str();
  const Tensor x = load(kDigits + "input.npy");
  auto [aOut, aStats] = runOn(*a, **device, x);
  auto [sOut, sStats] = runOn(*s, **device, x);
  EXPECT_EQ(aOut[0].bytes(), sOut[0].bytes());
  // Serialized, every instruction waits for the one before and the estimate is
  // exact; overlapped, the estimate leaves out contention for the DRAM port,
  // so the saving it predicts is an upper bound that contention eats into.
  auto total = [](const runtime::Bundle& b) {
    int64_t sum = 0;
    for (const runtime::LayerInfo& l : b.layers) sum += l.cycles;
    return sum;
  };
  const int64_t measured = static_cast<int64_t>(*sStats.cycles) - static_cast<int64_t>(*aStats.cycles);
  const int64_t predicted = total(*s) - total(*a);
  EXPECT_GT(measured, 0);
  EXPECT_LE(measured, predicted);
  EXPECT_GE(2 * measured, predicted) << measured << " of " << predicted;
}

TEST(CycleEngine, ASerializedBundlesEstimatesAreItsMeasuredCycles) {
  // With no overlap nothing contends for the DRAM port: the replay of the
  // program's tokens with each instruction's formula is exact.
  isa::Target t = testing::presetTarget("vta-default");
  CompileOptions o;
  o.serialize = true;
  auto b = compileModel(kDigits + "digits_int8.onnx", t, o);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  auto device = runtime::makeDevice(runtime::Engine::kCycle, t);
  ASSERT_TRUE(device.isOk()) << device.diag().str();
  auto [out, stats] = runOn(*b, **device, load(kDigits + "input.npy"));
  size_t checked = 0;
  for (const auto& [l, cycles] : testing::acceleratorLayers(*b, stats)) {
    EXPECT_EQ(static_cast<int64_t>(cycles), l->cycles) << l->name;
    ++checked;
  }
  EXPECT_EQ(checked, 4u);
}

}  // namespace
}  // namespace accelc::compiler
