// tests/simulator/cycle_test.cc — the SystemC cycle model: hand-computed
// cycle counts, bit-identical results against fsim, deadlocks that end with a
// diagnostic and leave the model ready for the next program. Each test runs
// in its own process (ctest), so each elaborates the model for its preset.
#include <gtest/gtest.h>

#include <algorithm>

#include "isa/builder.h"
#include "isa/encoding.h"
#include "isa/random_program.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/cycle/timing.h"
#include "tests/simulator/sim_util.h"
#include "tests/test_util.h"

namespace accelc::simulator {
namespace {

using isa::Opcode;

constexpr int64_t kUops = 1 << 20;  ///< where test programs keep their micro-ops

isa::Instruction mem(Opcode op, isa::Buffer b, int64_t rows, int64_t cols) {
  isa::Instruction i = isa::makeInstruction(op);
  i.mem().buffer = static_cast<int64_t>(b);
  i.mem().ySize = rows, i.mem().xSize = cols, i.mem().xStride = cols;
  return i;
}

support::Expected<CycleStats> runOnCycle(CycleSim& sim, const isa::Program& p) {
  ACCELC_TRY(sim.loadProgram(p));
  return sim.run(p, "test.bin");
}

isa::Program build(const isa::Target& t, const std::vector<isa::Instruction>& insns, std::vector<isa::Uop> uops = {}) {
  isa::ProgramBuilder b(t);
  if (!uops.empty()) b.uops("uops", kUops, std::move(uops));
  b.text(0);
  for (const isa::Instruction& i : insns) b.add(i);
  b.add(isa::makeInstruction(Opcode::kFinish));
  auto p = b.finish("test.bin");
  EXPECT_TRUE(p.isOk()) << p.diag().str();
  return *p;
}

class CycleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CycleTest, SingleInstructionsTakeTheirFormulaPlusFetchAndFinish) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  // LOAD of 5 rows: fetched in cycle 0, starts in 1, ends in 1 + n; FINISH retires one cycle later.
  const isa::Instruction load = mem(Opcode::kLoad, isa::Buffer::kInp, 5, 3);
  auto a = runOnCycle(**sim, build(t, {load}));
  ASSERT_TRUE(a.isOk()) << a.diag().str();
  EXPECT_EQ(a->cycles, static_cast<uint64_t>(instructionCycles(load, t.spec)) + 2);
  EXPECT_EQ(a->busy[0], static_cast<uint64_t>(instructionCycles(load, t.spec)));
  // A micro-op LOAD then a GEMM of 6 micro-ops x 2 x 3, both on the compute unit, back to back.
  std::vector<isa::Uop> uops;
  for (int i = 0; i < 6; ++i) uops.push_back({static_cast<uint32_t>(i), 0, 0});
  isa::Instruction uopLoad = mem(Opcode::kLoad, isa::Buffer::kUop, 1, 6);
  uopLoad.mem().dramBase = kUops / t.uopBytes();
  isa::Instruction gemm = isa::makeInstruction(Opcode::kGemm);
  gemm.gemm().uopEnd = 6, gemm.gemm().iterOut = 2, gemm.gemm().iterIn = 3, gemm.gemm().dstFactorOut = 6;
  gemm.gemm().dstFactorIn = 0;
  auto g = runOnCycle(**sim, build(t, {uopLoad, gemm}, uops));
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  EXPECT_EQ(g->cycles, static_cast<uint64_t>(instructionCycles(uopLoad, t.spec) + instructionCycles(gemm, t.spec)) + 2);
  EXPECT_EQ(g->counters.macs, static_cast<uint64_t>(36 * t.spec.batch * t.spec.blockIn * t.spec.blockOut));
}

TEST_P(CycleTest, ALoadGemmStoreChainWaitsForEachToken) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  std::vector<isa::Uop> uops;
  for (int64_t i = 0; i < t.spec.timing.accHazard; ++i) uops.push_back({static_cast<uint32_t>(i), 0, 0});
  isa::Instruction uopLoad = mem(Opcode::kLoad, isa::Buffer::kUop, 1, static_cast<int64_t>(uops.size()));
  uopLoad.mem().dramBase = kUops / t.uopBytes();
  isa::Instruction load = mem(Opcode::kLoad, isa::Buffer::kInp, 3, 2);
  isa::setDeps(load, {false, false, false, true});  // push to compute
  isa::Instruction gemm = isa::makeInstruction(Opcode::kGemm);
  gemm.gemm().uopEnd = static_cast<int64_t>(uops.size()), gemm.gemm().iterOut = 5, gemm.gemm().iterIn = 1;
  isa::setDeps(gemm, {true, false, false, true});  // pop from load, push to store
  isa::Instruction store = mem(Opcode::kStore, isa::Buffer::kOut, 2, 2);
  store.mem().dramBase = 4096;
  isa::setDeps(store, {true, false, false, false});  // pop from compute
  const int64_t u = instructionCycles(uopLoad, t.spec), l = instructionCycles(load, t.spec);
  const int64_t g = instructionCycles(gemm, t.spec), st = instructionCycles(store, t.spec);
  auto r = runOnCycle(**sim, build(t, {uopLoad, load, gemm, store}, uops));
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  // Fetch: the micro-op load in 0, LOAD in 1, GEMM in 2, STORE in 3 (each visible a cycle later).
  // The LOAD runs from 2 and its token is visible in 3 + l; the GEMM starts when the
  // compute unit is free (1 + u) and the token is visible; the STORE one cycle after
  // the GEMM's token; FINISH retires the cycle after the STORE ends.
  const int64_t gemmStart = std::max({int64_t{3}, 1 + u, 3 + l});
  const int64_t storeStart = std::max<int64_t>(4, gemmStart + g + 1);
  EXPECT_EQ(r->cycles, static_cast<uint64_t>(storeStart + st + 1));
  EXPECT_EQ(r->tokenWait[2], static_cast<uint64_t>(storeStart - 4));
}

TEST_P(CycleTest, FetchStallsOnAFullCommandQueueAndRefillsTheCycleAfterAPop) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  const int64_t depth = t.spec.commandDepth;
  // Loads long enough that fetch fills the load queue before the second one starts.
  isa::Instruction load = mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1);
  while (instructionCycles(load, t.spec) <= depth + 1) ++load.mem().ySize;
  const int64_t c = instructionCycles(load, t.spec), n = depth + 2;
  ASSERT_LE(load.mem().ySize, t.spec.depth(hwspec::BufferKind::kInput));
  // Then, on the compute unit, a micro-op load and an ALU add (it touches no
  // buffer the loads write) long enough to end last.
  std::vector<isa::Uop> uops;
  for (int64_t i = 0; i < t.spec.timing.accHazard; ++i) uops.push_back({static_cast<uint32_t>(i), 0, 0});
  isa::Instruction uopLoad = mem(Opcode::kLoad, isa::Buffer::kUop, 1, static_cast<int64_t>(uops.size()));
  uopLoad.mem().dramBase = kUops / t.uopBytes();
  isa::Instruction gemm = isa::makeInstruction(Opcode::kAlu);
  const int64_t iters = n * c / static_cast<int64_t>(uops.size()) + 1;
  gemm.alu().uopEnd = static_cast<int64_t>(uops.size()), gemm.alu().useImm = 1, gemm.alu().imm = 1;
  gemm.alu().aluOp = static_cast<int64_t>(isa::AluOp::kAdd);
  int64_t iterMax = 0;  // the largest iter_out the ISA's field holds
  for (const isa::FieldLayout& f : t.isa.format(isa::Format::kAlu).fields)
    if (f.name == "iter_out") iterMax = (int64_t{1} << f.bits) - 1;
  ASSERT_GT(iterMax, 0);
  gemm.alu().iterOut = std::min(iters, iterMax), gemm.alu().iterIn = (iters + iterMax - 1) / iterMax;
  const int64_t u = instructionCycles(uopLoad, t.spec), g = instructionCycles(gemm, t.spec);
  ASSERT_GT(g, n * c);
  std::vector<isa::Instruction> insns(static_cast<size_t>(n), load);
  insns.push_back(uopLoad);
  insns.push_back(gemm);
  auto r = runOnCycle(**sim, build(t, insns, uops));
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  // Load 0 starts in 1 and holds the queue full of depth loads from cycle depth
  // on; load 1 starts (a pop) in 1 + c, so the last load is fetched in 2 + c,
  // the micro-op load in 3 + c (visible in 4 + c), the ALU right after it;
  // FINISH retires the cycle after the ALU ends.
  EXPECT_EQ(r->cycles, static_cast<uint64_t>(4 + c + u + g + 1));
}

TEST_P(CycleTest, RandomProgramsGiveFsimsResultsAndCounters) {
  isa::Target t = testing::presetTarget(GetParam());
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    auto sim = CycleSim::create(t);  // fresh DRAM and buffers, as fsim's; the same elaborated model
    ASSERT_TRUE(sim.isOk()) << sim.diag().str();
    auto p = isa::randomProgram(t, seed);
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    testing::Ran f = testing::run(t, *p, false);
    ASSERT_TRUE(f.counters.isOk()) << f.counters.diag().str();
    auto c = runOnCycle(**sim, *p);
    ASSERT_TRUE(c.isOk()) << "seed " << seed << ": " << c.diag().str();
    EXPECT_EQ(c->counters, *f.counters) << "seed " << seed;
    const isa::Symbol* out = p->findSymbol("result");
    std::vector<uint8_t> got(out->bytes());
    ASSERT_TRUE((*sim)->read(out->addr, got.data(), got.size()).isOk());
    EXPECT_EQ(got, f.read(out->addr, out->bytes())) << "seed " << seed;
    uint64_t busiest = std::max({c->busy[0], c->busy[1], c->busy[2]});
    EXPECT_GT(c->cycles, busiest) << "seed " << seed;
    EXPECT_LE(c->cycles, c->busy[0] + c->busy[1] + c->busy[2] + 2 * f.counters->insns[0] + 64) << "seed " << seed;
  }
}

TEST_P(CycleTest, ADeadlockEndsWithADiagnosticAndTheModelRunsTheNextProgram) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  isa::Instruction store = mem(Opcode::kStore, isa::Buffer::kOut, 1, 1);
  isa::setDeps(store, {true, false, false, false});  // pops a token compute never pushes
  auto d = runOnCycle(**sim, build(t, {store}));
  ASSERT_FALSE(d.isOk());
  EXPECT_EQ(d.diag().str(), "test.bin:pc 0: error: token underflow: the store unit pops compute->store but no "
                            "instruction is left that pushes to it\n"
                            "note: load unit is idle\n"
                            "test.bin:pc 1: note: compute unit at FINISH: waits for the load and store units to finish\n"
                            "test.bin:pc 0: note: store unit blocked at STORE: waits for a token in compute->store");
  const isa::Instruction load = mem(Opcode::kLoad, isa::Buffer::kInp, 2, 2);
  (*sim)->trace(true);
  auto ok = runOnCycle(**sim, build(t, {load}));
  ASSERT_TRUE(ok.isOk()) << ok.diag().str();
  EXPECT_EQ(ok->cycles, static_cast<uint64_t>(instructionCycles(load, t.spec)) + 2);
  ASSERT_EQ(ok->slices.size(), 2u);  // the LOAD from cycle 1, FINISH in the last cycle
  EXPECT_EQ(ok->slices[0].unit, 0);
  EXPECT_EQ(ok->slices[0].start, 1u);
  EXPECT_EQ(ok->slices[0].end, ok->cycles - 1);
  EXPECT_EQ(ok->slices[1].opcode, Opcode::kFinish);
  EXPECT_EQ(ok->slices[1].end, ok->cycles);
}

TEST_P(CycleTest, AFullTokenQueueThatNobodyDrainsIsADeadlock) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  isa::Instruction load = mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1);
  isa::setDeps(load, {false, false, false, true});  // pushes to compute, which never pops
  const int64_t depth = t.spec.tokenDepth;
  auto d = runOnCycle(**sim, build(t, std::vector<isa::Instruction>(static_cast<size_t>(depth + 1), load)));
  ASSERT_FALSE(d.isOk());
  const std::string at = "test.bin:pc " + std::to_string(depth);
  EXPECT_EQ(d.diag().str().rfind(at + ": error: token deadlock: no unit can make progress at cycle ", 0), 0u) << d.diag().str();
  EXPECT_NE(d.diag().str().find(at + ": note: load unit blocked at LOAD: waits for room in load->compute (full)"),
            std::string::npos) << d.diag().str();
  EXPECT_NE(d.diag().str().find("compute unit at FINISH: waits for the load and store units to finish"), std::string::npos)
      << d.diag().str();
  auto fsim = testing::run(t, build(t, std::vector<isa::Instruction>(static_cast<size_t>(depth + 1), load)), false);
  EXPECT_FALSE(fsim.counters.isOk());  // fsim refuses it too
  const isa::Instruction plain = mem(Opcode::kLoad, isa::Buffer::kInp, 2, 2);
  auto ok = runOnCycle(**sim, build(t, {plain}));
  ASSERT_TRUE(ok.isOk()) << ok.diag().str();
  EXPECT_EQ(ok->cycles, static_cast<uint64_t>(instructionCycles(plain, t.spec)) + 2);
}

TEST_P(CycleTest, ProgramsFsimRefusesAreRefusedWithTheSameDiagnostic) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  std::vector<isa::Uop> uops;
  for (int64_t i = 0; i < t.spec.timing.accHazard; ++i) uops.push_back({static_cast<uint32_t>(i), 0, 0});
  isa::Instruction uopLoad = mem(Opcode::kLoad, isa::Buffer::kUop, 1, static_cast<int64_t>(uops.size()));
  uopLoad.mem().dramBase = kUops / t.uopBytes();
  isa::Instruction gemm = isa::makeInstruction(Opcode::kGemm);
  gemm.gemm().uopEnd = static_cast<int64_t>(uops.size()), gemm.gemm().iterOut = 1, gemm.gemm().iterIn = 1;
  isa::Instruction finishPush = isa::makeInstruction(Opcode::kFinish);
  isa::setDeps(finishPush, {false, false, false, true});  // a token nobody pops
  isa::ProgramBuilder fb(t);
  fb.text(0);
  fb.add(finishPush);
  const isa::Program leftover = *fb.finish("test.bin");
  const std::vector<isa::Program> bad = {
      build(t, {mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1), uopLoad, gemm}, uops),  // GEMM reads inp with no token
      leftover};
  for (const isa::Program& p : bad) {
    testing::Ran f = testing::run(t, p, true);
    ASSERT_FALSE(f.counters.isOk());
    auto c = runOnCycle(**sim, p);
    ASSERT_FALSE(c.isOk());
    EXPECT_EQ(c.diag().str(), f.counters.diag().str());
  }
}

ACCELC_INSTANTIATE_FOR_PRESETS(CycleTest);

TEST(CycleModel, OneHwspecPerProcess) {
  auto a = CycleSim::create(testing::presetTarget("tiny"));
  ASSERT_TRUE(a.isOk());
  auto b = CycleSim::create(testing::presetTarget("wide"));
  ASSERT_FALSE(b.isOk());
  EXPECT_EQ(b.diag().str(), "error: the cycle model is elaborated once per process and this one holds hwspec 'tiny'; "
                            "run hwspec 'wide' in another process");
}

}  // namespace
}  // namespace accelc::simulator
