// tests/simulator/hls_engine_test.cc — the generated HLS C++ compiled with g++
// and run in C-simulation (--engine hls): the cycle-model tests' micro-programs
// and 200 random programs per preset end with fsim's DRAM, byte for byte, and
// fsim's counters; programs fsim refuses are refused with a diagnostic from
// the HLS code's STATUS, never a hang.
#include <gtest/gtest.h>

#include <cstdlib>

#include "isa/builder.h"
#include "isa/encoding.h"
#include "isa/random_program.h"
#include "runtime/sim_devices/hls_device.h"
#include "runtime/sim_devices/make_device.h"
#include "support/yaml.h"
#include "tests/simulator/sim_util.h"
#include "tests/test_util.h"

namespace accelc::runtime {
namespace {

using isa::Opcode;

/// The HLS engine's device, from the one factory of every engine.
std::unique_ptr<Device> hlsDevice(const isa::Target& t) {
  ::setenv("ACCELC_HLS_CACHE", (testing::tempDir() + "/hls-cache").c_str(), 0);
  auto d = makeDevice(Engine::kHls, t);
  EXPECT_TRUE(d.isOk()) << d.diag().str();
  return d ? std::move(*d) : nullptr;
}

/// Runs `p` on fsim (with its race checker: the units of the HLS engine are
/// threads, so only a race-free program has one outcome) and on `hls` from
/// the same DRAM; expects the same whole window and counters afterwards, or
/// the same refusal. Returns the HLS engine's diagnostic ("ok" when it ran).
std::string expectFsimsResult(const isa::Target& t, Device& hls, const isa::Program& p, bool checkDefined = false) {
  testing::Ran f = testing::run(t, p, true, checkDefined);
  EXPECT_TRUE(hls.loadProgram(p).isOk());
  auto r = hls.run(p, "test.bin");
  if (!f.counters.isOk()) {
    EXPECT_FALSE(r.isOk()) << "fsim refuses the program: " << f.counters.diag().str();
    return r ? "ok" : r.diag().str();
  }
  EXPECT_TRUE(r.isOk()) << r.diag().str();
  if (!r) return r.diag().str();
  EXPECT_FALSE(r->cycles.has_value());
  EXPECT_EQ(r->events.value_or(isa::Counters{}), *f.counters);
  std::vector<uint8_t> got(p.window);
  EXPECT_TRUE(hls.read(0, got.data(), got.size()).isOk());
  const std::vector<uint8_t> want = f.read(0, p.window);
  size_t first = 0;
  while (first < got.size() && got[first] == want[first]) ++first;
  EXPECT_EQ(first, got.size()) << "DRAM differs first at byte " << first;
  return "ok";
}

isa::Instruction mem(Opcode op, isa::Buffer b, int64_t rows, int64_t cols, isa::Deps d = {}) {
  return testing::mem(op, b, 0, 0, rows, cols, cols, d);
}

using testing::hazardUops;
using testing::uopsAt;
using testing::uopTableLoad;

isa::Program build(const isa::Target& t, const std::vector<isa::Instruction>& insns, std::vector<isa::Uop> uops = {},
                   uint64_t dataSeed = 1) {
  isa::ProgramBuilder b(t);
  if (!uops.empty()) b.uops("uops", uopsAt(t), std::move(uops));
  // Random data where the transfers read (DRAM element 0 on), the text above it.
  b.symbol({"data", isa::SymbolRole::kConst, 0, support::DType::kInt8, {16384}}, testing::randomBytes(16384, dataSeed));
  b.text(16384);
  for (const isa::Instruction& i : insns) b.add(i);
  b.add(isa::makeInstruction(Opcode::kFinish));
  auto p = b.finish("test.bin");
  EXPECT_TRUE(p.isOk()) << p.diag().str();
  return *p;
}

class HlsEngineTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HlsEngineTest, TheCycleModelTestsProgramsEndWithFsimsDram) {
  isa::Target t = testing::presetTarget(GetParam());
  auto hls = hlsDevice(t);
  ASSERT_TRUE(hls);
  const std::vector<isa::Uop> uops = hazardUops(t);
  const int64_t n = static_cast<int64_t>(uops.size());
  isa::Instruction gemm = isa::makeInstruction(Opcode::kGemm);
  gemm.gemm().uopEnd = n, gemm.gemm().iterOut = 2, gemm.gemm().iterIn = 3;
  gemm.gemm().dstFactorOut = n, gemm.gemm().srcFactorIn = 1, gemm.gemm().wgtFactorOut = 1;
  // Single instructions; a load -> GEMM -> store chain on tokens; loads and
  // stores on the DRAM port at once; more ALU adds than the command queue holds.
  std::vector<std::vector<isa::Instruction>> programs = {
      {mem(Opcode::kLoad, isa::Buffer::kInp, 2, 2)},
      {mem(Opcode::kLoad, isa::Buffer::kWgt, 1, 3)},
      {uopTableLoad(t, uops), gemm},
      {mem(Opcode::kLoad, isa::Buffer::kWgt, 2, 1), mem(Opcode::kLoad, isa::Buffer::kInp, 4, 2, {false, false, false, true}),
       uopTableLoad(t, uops)},
      {mem(Opcode::kLoad, isa::Buffer::kInp, 3, 3), testing::mem(Opcode::kStore, isa::Buffer::kOut, 0, 512, 3, 3, 3)}};
  isa::Instruction g = gemm;
  isa::setDeps(g, {true, false, false, true});
  isa::Instruction st = mem(Opcode::kStore, isa::Buffer::kOut, 2, 2, {true, false, false, false});
  programs[3].push_back(g);
  programs[3].push_back(st);
  for (isa::AluOp op : {isa::AluOp::kAdd, isa::AluOp::kMax, isa::AluOp::kMulq, isa::AluOp::kShrr, isa::AluOp::kMov}) {
    if (!t.spec.hasAluOp(isa::aluOpName(op))) continue;
    isa::Instruction alu = isa::makeInstruction(Opcode::kAlu);
    alu.alu().uopEnd = n, alu.alu().iterOut = 3, alu.alu().iterIn = 1, alu.alu().useImm = 1;
    alu.alu().aluOp = static_cast<int64_t>(op), alu.alu().imm = -7;
    programs.push_back({uopTableLoad(t, uops), alu});
  }
  isa::Instruction add = isa::makeInstruction(Opcode::kAlu);
  add.alu().uopEnd = n, add.alu().iterOut = 1, add.alu().iterIn = 1, add.alu().useImm = 1;
  add.alu().aluOp = static_cast<int64_t>(isa::AluOp::kAdd), add.alu().imm = 1;
  std::vector<isa::Instruction> many = {uopTableLoad(t, uops)};
  for (int64_t i = 0; i < t.spec.commandDepth + 2; ++i) many.push_back(add);
  programs.push_back(many);
  for (size_t i = 0; i < programs.size(); ++i)
    EXPECT_EQ(expectFsimsResult(t, *hls, build(t, programs[i], uops, 7 + i)), "ok") << "program " << i;
}

TEST_P(HlsEngineTest, RandomProgramsEndWithFsimsDramAndCounters) {
  isa::Target t = testing::presetTarget(GetParam());
  auto hls = hlsDevice(t);
  ASSERT_TRUE(hls);
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    auto p = isa::randomProgram(t, seed);
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    auto fresh = hlsDevice(t);  // a fresh DRAM, as fsim's
    ASSERT_EQ(expectFsimsResult(t, *fresh, *p), "ok") << "seed " << seed;
  }
}

TEST_P(HlsEngineTest, ProgramsFsimRefusesAreRefusedFromTheStatusRegister) {
  isa::Target t = testing::presetTarget(GetParam());
  auto hls = hlsDevice(t);
  ASSERT_TRUE(hls);
  // A token nobody pushes: fsim's deadlock diagnostic, word for word.
  isa::Instruction store = mem(Opcode::kStore, isa::Buffer::kOut, 1, 1, {true, false, false, false});
  const isa::Program underflow = build(t, {store});
  EXPECT_EQ(expectFsimsResult(t, *hls, underflow), testing::run(t, underflow, false, false).counters.diag().str());
  // More tokens than the queue holds, with nobody popping them.
  isa::Instruction push = mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1, {false, false, false, true});
  const isa::Program full = build(t, std::vector<isa::Instruction>(static_cast<size_t>(t.spec.tokenDepth + 1), push));
  EXPECT_EQ(expectFsimsResult(t, *hls, full), testing::run(t, full, false, false).counters.diag().str());
  // A token left over at FINISH.
  isa::Instruction finishPush = isa::makeInstruction(Opcode::kFinish);
  isa::setDeps(finishPush, {false, false, false, true});
  isa::ProgramBuilder fb(t);
  fb.text(0);
  fb.add(finishPush);
  const isa::Program leftover = *fb.finish("test.bin");
  EXPECT_EQ(expectFsimsResult(t, *hls, leftover), testing::run(t, leftover, false, false).counters.diag().str());
  // A transfer past the window, and an instruction the hardware cannot run:
  // located at the same instruction as fsim's diagnostic.
  isa::Instruction far = mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1);
  far.mem().dramBase = (int64_t{1} << (t.spec.dramAddrBits - 1)) - 1;
  isa::Instruction loadOut = mem(Opcode::kLoad, isa::Buffer::kOut, 1, 1);
  isa::Instruction bigGemm = isa::makeInstruction(Opcode::kGemm);
  bigGemm.gemm().uopEnd = 1, bigGemm.gemm().iterOut = 1, bigGemm.gemm().iterIn = 1;
  bigGemm.gemm().uopBgn = 1;  // an empty micro-op range
  const std::vector<std::pair<isa::Program, std::string>> bad = {
      {build(t, {mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1), far}), "test.bin:pc 1: error: out-of-range DRAM access"},
      {build(t, {loadOut}), "test.bin:pc 0: error: illegal instruction"},
      {build(t, {mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1), bigGemm}), "test.bin:pc 1: error: illegal instruction"}};
  for (const auto& [p, prefix] : bad) {
    const std::string fsim = testing::run(t, p, false, false).counters.diag().str();
    EXPECT_EQ(fsim.rfind(prefix.substr(0, prefix.find("error:")), 0), 0u) << fsim;
    const std::string got = expectFsimsResult(t, *hls, p);
    EXPECT_EQ(got.rfind(prefix, 0), 0u) << got;
  }
  // An unknown opcode: the decoder's message, as fsim gives it.
  isa::Program unknown = build(t, {mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1)});
  for (isa::Segment& seg : unknown.segments)
    if (seg.role == isa::SegmentRole::kText) seg.bytes[0] |= static_cast<uint8_t>((1 << t.isa.opcodeBits) - 1);
  EXPECT_EQ(expectFsimsResult(t, *hls, unknown), testing::run(t, unknown, false, false).counters.diag().str());
  // The device runs the next program.
  EXPECT_EQ(expectFsimsResult(t, *hls, build(t, {mem(Opcode::kLoad, isa::Buffer::kInp, 2, 2)})), "ok");
}

TEST_P(HlsEngineTest, RunLimitsRefuseARunBeforeItStartsWithFsimsDiagnostic) {
  isa::Target t = testing::presetTarget(GetParam());
  const std::vector<isa::Uop> uops = hazardUops(t);
  isa::Instruction gemm = isa::makeInstruction(Opcode::kGemm);  // 16383^2 loop iterations: hours in C-simulation
  gemm.gemm().uopEnd = static_cast<int64_t>(uops.size()), gemm.gemm().iterOut = 16383, gemm.gemm().iterIn = 16383;
  gemm.gemm().reset = 1;
  const isa::Program p = build(t, {uopTableLoad(t, uops), gemm}, uops);
  for (const auto& [insns, apps] : {std::pair<uint64_t, uint64_t>{100, 100000}, {1, uint64_t{1} << 40}}) {
    isa::RunLimits limits;
    limits.maxInsns = insns, limits.maxUops = apps;
    DeviceOptions o;
    o.limits = limits;
    ::setenv("ACCELC_HLS_CACHE", (testing::tempDir() + "/hls-cache").c_str(), 0);
    auto hls = makeDevice(Engine::kHls, t, o);
    ASSERT_TRUE(hls.isOk()) << hls.diag().str();
    ASSERT_TRUE((*hls)->loadProgram(p).isOk());
    auto r = (*hls)->run(p, "test.bin");
    simulator::FunctionalSim fsim(t, simulator::FsimOptions{false, limits, false});
    ASSERT_TRUE(fsim.loadProgram(p).isOk());
    auto f = fsim.run(p, "test.bin");
    ASSERT_FALSE(r.isOk());
    ASSERT_FALSE(f.isOk());
    EXPECT_EQ(r.diag().str(), f.diag().str());
  }
}

TEST(HlsEngine, TheModelIsCompiledOncePerHwspecAndRefusesAnotherHwspecsProgram) {
  isa::Target tiny = testing::presetTarget("tiny"), vta = testing::presetTarget("vta-default");
  auto a = hlsDevice(tiny);
  ASSERT_TRUE(a);
  EXPECT_TRUE(support::isRegularFile(hlsCacheDir(tiny) + "/model.so"));
  EXPECT_NE(hlsCacheDir(tiny), hlsCacheDir(vta));
  const isa::Program p = build(vta, {mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1)});
  auto r = a->run(p, "test.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.diag().str().find("built for another hwspec"), std::string::npos) << r.diag().str();
}

INSTANTIATE_TEST_SUITE_P(Presets, HlsEngineTest, ::testing::Values(std::string("tiny"), std::string("vta-default")),
                         ::accelc::testing::PresetName());

}  // namespace
}  // namespace accelc::runtime
