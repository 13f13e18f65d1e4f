// tests/simulator/cycle_test.cc — the SystemC cycle model: hand-computed
// cycle counts (which the verilated RTL must also give, with the same DRAM),
// bit-identical results against fsim, deadlocks that end with a
// diagnostic and leave the model ready for the next program. Each test runs
// in its own process (ctest), so each elaborates the model for its preset.
#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/lower/cost.h"
#include "isa/builder.h"
#include "isa/encoding.h"
#include "isa/random_program.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/timing/timing.h"
#include "tests/simulator/rtl_util.h"
#include "tests/simulator/sim_util.h"
#include "tests/test_util.h"

namespace accelc::simulator {
namespace {

using isa::Opcode;
using testing::hazardUops;
using testing::uopsAt;
using testing::uopTableLoad;

isa::Instruction mem(Opcode op, isa::Buffer b, int64_t rows, int64_t cols) {
  isa::Instruction i = isa::makeInstruction(op);
  i.mem().buffer = static_cast<int64_t>(b);
  i.mem().ySize = rows, i.mem().xSize = cols, i.mem().xStride = cols;
  return i;
}

/// Runs `p` on the cycle model, and on the verilated RTL of the preset, which
/// must end in the same cycle with the same DRAM (programs of up to a million
/// cycles: the full command queues of vta-default and wide take tens of
/// millions, which the RTL meets in tiny's).
support::Expected<CycleStats> runOnCycle(CycleSim& sim, const isa::Program& p) {
  ACCELC_TRY(sim.loadProgram(p));
  testing::RtlRun rtl;
  rtl.program = &p;
  rtl.before.resize(p.window);
  rtl.after.resize(p.window);
  ACCELC_TRY(sim.read(0, rtl.before.data(), p.window));
  ACCELC_ASSIGN_OR_RETURN(CycleStats stats, sim.run(p, "test.bin"));
  rtl.cycles = stats.cycles;
  ACCELC_TRY(sim.read(0, rtl.after.data(), p.window));
  if (stats.cycles <= 1000000) testing::expectRtlMatches(sim.target(), {rtl});
  return stats;
}

isa::Program build(const isa::Target& t, const std::vector<isa::Instruction>& insns, std::vector<isa::Uop> uops = {}) {
  isa::ProgramBuilder b(t);
  if (!uops.empty()) b.uops("uops", uopsAt(t), std::move(uops));
  b.text(0);
  for (const isa::Instruction& i : insns) b.add(i);
  b.add(isa::makeInstruction(Opcode::kFinish));
  auto p = b.finish("test.bin");
  EXPECT_TRUE(p.isOk()) << p.diag().str();
  return *p;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The cycle fetch dispatches the first of `n` instructions: the first text
/// burst is accepted in cycle 0 and its beats follow the latency.
int64_t fetched(const isa::Target& t, int64_t n) {
  const hwspec::HwSpec& s = t.spec;
  return s.dramLatency + ceilDiv(std::min<int64_t>(n * static_cast<int64_t>(t.insnBytes()), s.timing.maxBurst), s.dramBytesPerCycle);
}

/// Beats of one burst of `bytes`.
int64_t beats(const isa::Target& t, int64_t bytes) { return ceilDiv(bytes, t.spec.dramBytesPerCycle); }

class CycleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CycleTest, SingleInstructionsTakeTheirHandComputedCycles) {
  isa::Target t = testing::presetTarget(GetParam());
  const hwspec::HwSpec& s = t.spec;
  const int64_t L = s.dramLatency, E = s.entryBytes(hwspec::BufferKind::kInput);
  ASSERT_LE(3 * E, s.timing.maxBurst);
  ASSERT_GE(s.timing.outstanding, 2);
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  // LOAD of 2 rows of 3 entries, dispatched when the text arrives (D), starts in
  // D + 1, requests from D + 2: two bursts accepted in D + 2 and D + 3, their
  // beats back to back from D + 2 + L; FINISH retires the cycle after.
  const isa::Instruction load = mem(Opcode::kLoad, isa::Buffer::kInp, 2, 3);
  const int64_t D = fetched(t, 2), b = beats(t, 3 * E);
  auto a = runOnCycle(**sim, build(t, {load}));
  ASSERT_TRUE(a.isOk()) << a.diag().str();
  EXPECT_EQ(a->cycles, static_cast<uint64_t>(D + 2 + L + 2 * b + 1));
  EXPECT_EQ(a->busy[0], static_cast<uint64_t>(1 + L + 2 * b));
  EXPECT_EQ(a->dramStall[0], 0u);
  EXPECT_EQ(a->fetchWait, static_cast<uint64_t>(D));
  // A micro-op LOAD then a GEMM of 6 micro-ops x 2 x 3, both on the compute unit, back to back.
  std::vector<isa::Uop> uops;
  for (int i = 0; i < 6; ++i) uops.push_back({static_cast<uint32_t>(i), 0, 0});
  isa::Instruction uopLoad = uopTableLoad(t, uops);
  isa::Instruction gemm = isa::makeInstruction(Opcode::kGemm);
  gemm.gemm().uopEnd = 6, gemm.gemm().iterOut = 2, gemm.gemm().iterIn = 3, gemm.gemm().dstFactorOut = 6;
  gemm.gemm().dstFactorIn = 0;
  auto g = runOnCycle(**sim, build(t, {uopLoad, gemm}, uops));
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  const int64_t uopDone = fetched(t, 3) + 2 + L + beats(t, 6 * static_cast<int64_t>(t.uopBytes()));
  EXPECT_EQ(g->cycles, static_cast<uint64_t>(uopDone + s.timing.pipelineDepth + 36 * s.timing.gemmIi + 1));
  EXPECT_EQ(g->counters.macs, static_cast<uint64_t>(36 * s.batch * s.blockIn * s.blockOut));
  // Each ALU op of 4 micro-ops x 3: the pipeline depth plus 12 initiation intervals.
  int timed = 0;
  for (int k = 0; k < isa::kNumAluOps; ++k) {
    const isa::AluOp op = isa::AluOp(k);
    if (!s.hasAluOp(isa::aluOpName(op))) continue;  // illegal on this hardware (ice40 has no mulq, no mul)
    ++timed;
    isa::Instruction alu = isa::makeInstruction(Opcode::kAlu);
    alu.alu().uopEnd = 4, alu.alu().iterOut = 3, alu.alu().iterIn = 1, alu.alu().dstFactorOut = 4;
    alu.alu().aluOp = static_cast<int64_t>(op), alu.alu().useImm = 1, alu.alu().imm = 1;
    isa::Instruction uopLoad4 = uopLoad;
    uopLoad4.mem().xSize = 4;
    auto r = runOnCycle(**sim, build(t, {uopLoad4, alu}, std::vector<isa::Uop>(uops.begin(), uops.begin() + 4)));
    ASSERT_TRUE(r.isOk()) << r.diag().str();
    const int64_t done4 = fetched(t, 3) + 2 + L + beats(t, 4 * static_cast<int64_t>(t.uopBytes()));
    EXPECT_EQ(r->cycles, static_cast<uint64_t>(done4 + s.timing.pipelineDepth + 12 * s.timing.aluIi + 1)) << isa::aluOpName(op);
  }
  EXPECT_EQ(timed, static_cast<int>(s.aluOps.size()));  // mul included where the hardware has it
}

TEST_P(CycleTest, ALoadGemmStoreChainWaitsForEachToken) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  const std::vector<isa::Uop> uops = hazardUops(t);
  isa::Instruction uopLoad = uopTableLoad(t, uops);
  isa::setDeps(uopLoad, {false, false, true, false});  // push to load: the LOAD waits for it
  isa::Instruction load = mem(Opcode::kLoad, isa::Buffer::kInp, 3, 2);
  isa::setDeps(load, {false, true, false, true});  // pop from compute, push to compute
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
  // Each waits for the token of the one before, visible the cycle after its
  // push, so nothing shares the DRAM port: the micro-op load starts in D + 1,
  // the LOAD one cycle after it ends, the GEMM one cycle after that, the STORE
  // likewise; FINISH retires the cycle after the STORE ends.
  const int64_t D = fetched(t, 5);
  const int64_t storeStart = D + 1 + u + 1 + l + 1 + g + 1;
  EXPECT_EQ(r->cycles, static_cast<uint64_t>(storeStart + st + 1));
  EXPECT_EQ(r->tokenWait[2], static_cast<uint64_t>(storeStart - (D + 4)));
  for (int unit = 0; unit < 3; ++unit) EXPECT_EQ(r->dramStall[unit], 0u) << unit;
}

TEST_P(CycleTest, ADoubleBufferedChainOverlapsTheSecondLoadWithTheFirstGemm) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  (*sim)->trace(true);
  const std::vector<isa::Uop> uops = hazardUops(t);
  isa::Instruction uopLoad = uopTableLoad(t, uops);
  isa::setDeps(uopLoad, {false, false, true, false});  // push to load: the loads start after it
  isa::Instruction loadA = mem(Opcode::kLoad, isa::Buffer::kInp, 2, 2);
  isa::setDeps(loadA, {false, true, false, true});  // pop from compute, push to compute
  isa::Instruction loadB = loadA;
  loadB.mem().sramBase = 8;
  isa::setDeps(loadB, {false, false, false, true});  // push to compute
  isa::Instruction gemm = isa::makeInstruction(Opcode::kGemm);
  gemm.gemm().uopEnd = static_cast<int64_t>(uops.size()), gemm.gemm().iterIn = 1;
  const int64_t l = instructionCycles(loadA, t.spec);
  gemm.gemm().iterOut = l;  // longer than a load: the second load hides behind the first GEMM
  isa::setDeps(gemm, {true, false, false, false});  // pop from load
  isa::Instruction gemm2 = gemm;
  gemm2.gemm().srcFactorOut = 0, gemm2.gemm().wgtFactorOut = 0;
  isa::setDeps(gemm2, {true, false, false, true});  // pop from load, push to store
  isa::Instruction store = mem(Opcode::kStore, isa::Buffer::kOut, 1, 2);
  store.mem().dramBase = 4096;
  isa::setDeps(store, {true, false, false, false});  // pop from compute
  const int64_t g = instructionCycles(gemm, t.spec), st = instructionCycles(store, t.spec);
  ASSERT_GT(g, l);
  auto r = runOnCycle(**sim, build(t, {uopLoad, loadA, loadB, gemm, gemm2, store}, uops));
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  // From the micro-op load's end U (fetch may share the port with it):
  // load A runs U + 1 .. U + 1 + l and load B right after it; GEMM 1 starts
  // when A's token is visible (U + l + 2), GEMM 2 when GEMM 1 ends (B's token
  // is visible by then), the STORE a cycle after GEMM 2 ends, FINISH a cycle
  // after the STORE. Serialized, load B would wait for GEMM 1 instead.
  ASSERT_EQ(r->slices.size(), 7u);
  const int64_t U = static_cast<int64_t>(r->slices[0].end);
  ASSERT_EQ(r->slices[0].pc, 0u);
  const int64_t gemm2End = U + l + 2 + 2 * g;
  EXPECT_EQ(r->cycles, static_cast<uint64_t>(gemm2End + 1 + st + 1));
  for (const TraceSlice& sl : r->slices) {
    if (sl.pc == 2) {
      EXPECT_EQ(sl.start, static_cast<uint64_t>(U + 1 + l));  // load B under GEMM 1
    }
    if (sl.pc == 4) {
      EXPECT_EQ(sl.start, static_cast<uint64_t>(U + l + 2 + g));
    }
  }
}

TEST_P(CycleTest, LoadAndStoreContendForTheDramPort) {
  isa::Target t = testing::presetTarget(GetParam());
  const hwspec::HwSpec& s = t.spec;
  ASSERT_GE(s.timing.outstanding, 2);
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  // A LOAD of one input entry and a STORE of one output entry, independent.
  const isa::Instruction load = mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1);
  isa::Instruction store = mem(Opcode::kStore, isa::Buffer::kOut, 1, 1);
  store.mem().dramBase = 4096;
  auto r = runOnCycle(**sim, build(t, {load, store}, {{0, 0, 0}}));  // the micro-ops widen the DRAM window
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  // The LOAD starts in D + 1 and its read is accepted in D + 2; its beats use
  // the channel from D + 2 + L. The STORE starts in D + 2 and its write is
  // accepted in D + 3, but the channel serves bursts in acceptance order, so
  // its beats follow the read's; the write is acknowledged L cycles later.
  const int64_t D = fetched(t, 3), L = s.dramLatency;
  const int64_t bl = beats(t, s.entryBytes(hwspec::BufferKind::kInput)), bs = beats(t, s.entryBytes(hwspec::BufferKind::kOutput));
  const int64_t storeDone = D + 2 + L + bl + bs + L;
  EXPECT_EQ(r->cycles, static_cast<uint64_t>(storeDone + 1));
  EXPECT_EQ(r->busy[2], static_cast<uint64_t>(2 + bs + L));  // alone: accepted in its second cycle, beats from its third
  EXPECT_EQ(r->dramStall[2], static_cast<uint64_t>(storeDone - (D + 2) - (2 + bs + L)));
  EXPECT_EQ(r->dramStall[0], 0u);  // the read was accepted first
}

TEST_P(CycleTest, FetchStallsOnAFullCommandQueueAndRefillsTheCycleAfterAPop) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  (*sim)->trace(true);
  const int64_t depth = t.spec.commandDepth, n = depth + 2;
  // A micro-op load, then depth + 2 ALU adds on the compute unit, each longer
  // than fetching the whole program, then a LOAD on the load unit.
  const std::vector<isa::Uop> uops = hazardUops(t);
  isa::Instruction uopLoad = uopTableLoad(t, uops);
  isa::Instruction alu = isa::makeInstruction(Opcode::kAlu);
  const int64_t iters = (n + 4) * (t.spec.dramLatency + 64) / static_cast<int64_t>(uops.size()) + 1;
  alu.alu().uopEnd = static_cast<int64_t>(uops.size()), alu.alu().useImm = 1, alu.alu().imm = 1;
  alu.alu().aluOp = static_cast<int64_t>(isa::AluOp::kAdd);
  int64_t iterMax = 0;  // the largest iter_out the ISA's field holds
  for (const isa::FieldLayout& f : t.isa.format(isa::Format::kAlu).fields)
    if (f.name == "iter_out") iterMax = (int64_t{1} << f.bits) - 1;
  ASSERT_GT(iterMax, 0);
  alu.alu().iterOut = std::min(iters, iterMax), alu.alu().iterIn = (iters + iterMax - 1) / iterMax;
  const int64_t c = instructionCycles(alu, t.spec);
  std::vector<isa::Instruction> insns = {uopLoad};
  insns.insert(insns.end(), static_cast<size_t>(n), alu);
  insns.push_back(mem(Opcode::kLoad, isa::Buffer::kInp, 1, 1));
  auto r = runOnCycle(**sim, build(t, insns, uops));
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  // ALUs 1 to depth fill the queue while the micro-op load runs; ALU 1's pop
  // frees a slot that fetch refills with ALU depth + 1 a cycle later, and the
  // queue is full again. ALU 2's pop (a cycle-exact c later) lets fetch write
  // ALU depth + 2 in the next cycle and the LOAD in the one after; the LOAD is
  // visible, and starts, one cycle later still.
  auto startOf = [&](uint64_t pc) {
    for (const TraceSlice& sl : r->slices)
      if (sl.pc == pc) return static_cast<int64_t>(sl.start);
    return int64_t{-1};
  };
  EXPECT_EQ(startOf(2), startOf(1) + c);
  EXPECT_EQ(startOf(static_cast<uint64_t>(n + 1)), startOf(2) + 3);
  EXPECT_EQ(r->cycles, static_cast<uint64_t>(startOf(1) + n * c + 1));
}

TEST_P(CycleTest, RandomProgramsGiveFsimsResultsAndCounters) {
  isa::Target t = testing::presetTarget(GetParam());
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    auto sim = CycleSim::create(t);  // fresh DRAM and buffers, as fsim's; the same elaborated model
    ASSERT_TRUE(sim.isOk()) << sim.diag().str();
    auto p = isa::randomProgram(t, seed);
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    testing::Ran f = testing::run(t, *p, false, false);  // random programs read SRAM nothing wrote
    ASSERT_TRUE(f.counters.isOk()) << f.counters.diag().str();
    ASSERT_TRUE((*sim)->loadProgram(*p).isOk());
    auto c = (*sim)->run(*p, "test.bin");  // the RTL runs 200 of them in rtl_core_test
    ASSERT_TRUE(c.isOk()) << "seed " << seed << ": " << c.diag().str();
    EXPECT_EQ(c->counters, *f.counters) << "seed " << seed;
    const isa::Symbol* out = p->findSymbol("result");
    std::vector<uint8_t> got(out->bytes());
    ASSERT_TRUE((*sim)->read(out->addr, got.data(), got.size()).isOk());
    EXPECT_EQ(got, f.read(out->addr, out->bytes())) << "seed " << seed;
    // The compiler's estimate ignores contention for the port: a lower bound.
    auto estimate = compiler::lower::estimateProgram(*p, t);
    ASSERT_TRUE(estimate.isOk()) << estimate.diag().str();
    EXPECT_LE(static_cast<uint64_t>(*estimate), c->cycles) << "seed " << seed;
    uint64_t work = c->fetchWait + 2 * p->insnCount(t);
    for (int u = 0; u < 3; ++u) work += c->busy[u] + c->dramStall[u];
    EXPECT_LE(c->cycles, work) << "seed " << seed;
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
  const int64_t D = fetched(t, 2);
  EXPECT_EQ(ok->cycles, static_cast<uint64_t>(D + 1 + instructionCycles(load, t.spec) + 1));
  ASSERT_EQ(ok->slices.size(), 2u);  // the LOAD from cycle D + 1, FINISH in the last cycle
  EXPECT_EQ(ok->slices[0].unit, 0);
  EXPECT_EQ(ok->slices[0].start, static_cast<uint64_t>(D + 1));
  EXPECT_EQ(ok->slices[0].end, ok->cycles - 1);
  EXPECT_EQ(ok->slices[1].opcode, Opcode::kFinish);
  EXPECT_EQ(ok->slices[1].end, ok->cycles);
}

TEST_P(CycleTest, ALongRunStopsAtTheCycleLimitWithProgressAndTheModelRunsTheNextProgram) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  const std::vector<isa::Uop> uops = hazardUops(t);
  isa::Instruction gemm = isa::makeInstruction(Opcode::kGemm);
  gemm.gemm().uopEnd = static_cast<int64_t>(uops.size()), gemm.gemm().iterOut = 100, gemm.gemm().iterIn = 100;
  gemm.gemm().reset = 1;
  std::vector<uint64_t> seen;
  isa::RunLimits limits;
  limits.maxCycles = 5000, limits.progressStep = 1000;
  limits.progress = [&](const isa::RunProgress& p) { seen.push_back(p.cycles); };
  (*sim)->limits(limits);
  const isa::Program p = build(t, {uopTableLoad(t, uops), gemm}, uops);
  ASSERT_TRUE((*sim)->loadProgram(p).isOk());
  auto r = (*sim)->run(p, "test.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str(), "test.bin:pc 1: error: the run reached --max-cycles (5000 cycles) at this instruction; "
                            "raise --max-cycles if the program is meant to run longer");
  EXPECT_EQ(seen, (std::vector<uint64_t>{1000, 2000, 3000, 4000, 5000}));
  (*sim)->limits({});
  auto ok = runOnCycle(**sim, build(t, {mem(Opcode::kLoad, isa::Buffer::kInp, 2, 2)}));
  EXPECT_TRUE(ok.isOk()) << ok.diag().str();
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
  EXPECT_EQ(ok->cycles, static_cast<uint64_t>(fetched(t, 2) + 1 + instructionCycles(plain, t.spec) + 1));
}

TEST_P(CycleTest, ProgramsFsimRefusesAreRefusedWithTheSameDiagnostic) {
  isa::Target t = testing::presetTarget(GetParam());
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  const std::vector<isa::Uop> uops = hazardUops(t);
  isa::Instruction uopLoad = uopTableLoad(t, uops);
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
    testing::Ran f = testing::run(t, p, true, false);
    ASSERT_FALSE(f.counters.isOk());
    auto c = runOnCycle(**sim, p);
    ASSERT_FALSE(c.isOk());
    EXPECT_EQ(c.diag().str(), f.counters.diag().str());
  }
  // --check-defined: an add to an accumulator row nothing wrote, on both engines.
  isa::Instruction add = isa::makeInstruction(Opcode::kAlu);
  add.alu().uopEnd = 1, add.alu().iterOut = 1, add.alu().iterIn = 1, add.alu().useImm = 1;
  add.alu().aluOp = static_cast<int64_t>(isa::AluOp::kAdd), add.alu().imm = 3;
  const isa::Program undefinedRead = build(t, {uopLoad, add}, uops);
  testing::Ran f = testing::run(t, undefinedRead, true, true);
  ASSERT_FALSE(f.counters.isOk());
  EXPECT_EQ(f.counters.diag().str(), "test.bin:pc 1: error: ALU reads acc entry 0, which nothing wrote since the "
                                     "device was reset (--check-defined)");
  auto checked = CycleSim::create(t);
  ASSERT_TRUE(checked.isOk());
  (*checked)->checkDefined();
  ASSERT_TRUE((*checked)->loadProgram(undefinedRead).isOk());
  auto c = (*checked)->run(undefinedRead, "test.bin");
  ASSERT_FALSE(c.isOk());
  EXPECT_EQ(c.diag().str(), f.counters.diag().str());
}

ACCELC_INSTANTIATE_FOR_RTL_PRESETS(CycleTest);

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
