// tests/simulator/fsim_diag_test.cc — bad programs stop with exact diagnostics.
#include <gtest/gtest.h>

#include "tests/simulator/sim_util.h"

namespace accelc::simulator {
namespace {

using isa::Buffer;
using isa::Opcode;
using testing::mem;

isa::Instruction gemm(int64_t uopEnd, int64_t iterIn, int64_t dstIn, isa::Deps d = {}) {
  isa::Instruction i = isa::makeInstruction(Opcode::kGemm);
  isa::GemmInsn& g = i.gemm();
  g.uopBgn = 0, g.uopEnd = uopEnd, g.iterOut = 1, g.iterIn = iterIn, g.dstFactorIn = dstIn;
  isa::setDeps(i, d);
  return i;
}

/// A builder with an input symbol, one micro-op table and text at 0x1000.
struct Fixture {
  isa::Target t = testing::presetTarget("vta-default");
  isa::ProgramBuilder b{t};
  Fixture() {
    b.symbol({"x", isa::SymbolRole::kInput, 0, support::DType::kInt8, {1, 16}});
    b.uops("u", 0x800, {{0, 0, 0}, {1, 1, 1}, {2, 0, 0}, {3, 0, 0}, {0, 0, 0}});
    b.text(0x1000);
    b.add(mem(Opcode::kLoad, Buffer::kUop, 0, 0x800 / 4, 1, 5, 5));
  }
  std::string run(bool checkDefined = true) { return testing::runError(t, b, checkDefined); }
};

/// A legal program whose one GEMM applies ~1.07 * 10^9 micro-ops: it stops
/// at the micro-op limit before the GEMM runs, and at the instruction limit
/// when that is lower.
TEST(FsimDiagTest, RunsStopAtTheirLimitsSayingWhichAndWhere) {
  Fixture f;
  isa::Instruction g = gemm(4, 16383, 0);
  g.gemm().iterOut = 16383, g.gemm().reset = 1;
  f.b.add(g);
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  auto p = f.b.finish("test.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  EXPECT_EQ(isa::uopApplications(g), 16383ull * 16383 * 4);
  auto runWith = [&](const isa::RunLimits& l) {
    FunctionalSim sim(f.t, FsimOptions{true, l});
    EXPECT_TRUE(sim.loadProgram(*p).isOk());
    auto r = sim.run(*p, "test.bin");
    return r ? std::string("ok") : r.diag().str();
  };
  isa::RunLimits l;
  l.maxUops = 1000000000;
  EXPECT_EQ(runWith(l), "test.bin:pc 1: error: the run reached --max-uops (1000000000 micro-op applications) at this "
                        "instruction; raise --max-uops if the program is meant to run longer");
  l.maxInsns = 1;
  EXPECT_EQ(runWith(l), "test.bin:pc 1: error: the run reached --max-insns (1 instructions) at this instruction; "
                        "raise --max-insns if the program is meant to run longer");
}

TEST(FsimDiagTest, ProgressIsReportedEveryStep) {
  Fixture f;
  isa::Instruction g = gemm(4, 250, 0);
  g.gemm().reset = 1;
  for (int i = 0; i < 4; ++i) f.b.add(g);  // 1,000 micro-op applications each
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  auto p = f.b.finish("test.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  std::vector<uint64_t> uops;
  isa::RunLimits l;
  l.progressStep = 1500;
  l.progress = [&](const isa::RunProgress& r) { uops.push_back(r.uops); };
  FunctionalSim sim(f.t, FsimOptions{true, l});
  ASSERT_TRUE(sim.loadProgram(*p).isOk());
  ASSERT_TRUE(sim.run(*p, "test.bin").isOk());
  EXPECT_EQ(uops, (std::vector<uint64_t>{2000, 4000}));
}

/// --check-defined: a read of an SRAM entry that nothing wrote since reset.
TEST(FsimDiagTest, ReadsOfEntriesNothingWroteAreErrorsWhenChecked) {
  Fixture mulq;  // an ALU mulq by an immediate on accumulator row 0, never written
  isa::Instruction a = isa::makeInstruction(Opcode::kAlu);
  a.alu().uopBgn = 0, a.alu().uopEnd = 1, a.alu().iterOut = 1, a.alu().iterIn = 1, a.alu().useImm = 1;
  a.alu().aluOp = static_cast<int64_t>(isa::AluOp::kMulq), a.alu().imm = 3;
  mulq.b.add(a);
  mulq.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(mulq.run(), "test.bin:pc 1: error: ALU reads acc entry 0, which nothing wrote since the device was reset "
                        "(--check-defined)");
  Fixture past;  // a reset GEMM over micro-ops 0..5, of which LOAD wrote 0..4
  isa::Instruction g = gemm(6, 1, 0);
  g.gemm().reset = 1;
  past.b.add(g);
  past.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(past.run(), "test.bin:pc 1: error: GEMM reads uop entry 5, which nothing wrote since the device was reset "
                        "(--check-defined)");
  Fixture unchecked;  // the same runs when unchecked
  unchecked.b.add(a);
  unchecked.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(unchecked.run(false), "ok");
}

TEST(FsimDiagTest, OutOfRangeDma) {
  Fixture f;
  f.b.add(mem(Opcode::kLoad, Buffer::kInp, 0, 600, 2, 4, 10));
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(f.run(),
            "test.bin:pc 1: error: out-of-range DRAM access: the transfer reaches byte 9824 but the program's DRAM "
            "window holds 8192 bytes (dram_base 600, y_size 2, x_stride 10, x_size 4, 16-byte elements)");
}

TEST(FsimDiagTest, SramOverflow) {
  Fixture f;
  f.b.add(mem(Opcode::kLoad, Buffer::kInp, 2047, 0, 1, 2, 2));
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(f.run(), "test.bin:pc 1: error: LOAD writes inp entries [2047, 2049) but the buffer has 2048 entries");
}

TEST(FsimDiagTest, PoppingATokenNobodyPushesIsAnUnderflow) {
  Fixture f;
  f.b.add(gemm(1, 1, 0, {true, false, false, false}));  // waits for a load that never pushes
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(f.run(),
            "test.bin:pc 1: error: token underflow: the compute unit pops load->compute but no instruction is left "
            "that pushes to it\n"
            "note: load unit is idle\n"
            "test.bin:pc 1: note: compute unit blocked at GEMM: waits for a token in load->compute\n"
            "note: store unit is idle");
}

TEST(FsimDiagTest, CircularWaitIsADeadlock) {
  Fixture f;
  // Compute waits for the store, which waits for compute: neither can start.
  f.b.add(gemm(1, 1, 0, {false, true, false, true}));
  f.b.add(mem(Opcode::kStore, Buffer::kOut, 0, 0, 1, 1, 1, {true, false, true, false}));
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(f.run(),
            "test.bin:pc 1: error: token deadlock: no unit can make progress\n"
            "note: load unit is idle\n"
            "test.bin:pc 1: note: compute unit blocked at GEMM: waits for a token in store->compute\n"
            "test.bin:pc 2: note: store unit blocked at STORE: waits for a token in compute->store");
}

TEST(FsimDiagTest, RaceBetweenLoadAndGemm) {
  Fixture f;
  f.b.add(mem(Opcode::kLoad, Buffer::kInp, 0, 0, 1, 1, 1));  // no token: GEMM may run first
  f.b.add(gemm(1, 1, 0));
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(f.run(false),
            "test.bin:pc 2: error: race on inp[0]: this instruction (compute unit) reads it, but no dependency token "
            "orders it after pc 1, which writes it\n"
            "test.bin:pc 1: note: the other access");
}

TEST(FsimDiagTest, TokensLeftAtFinish) {
  Fixture f;
  f.b.add(mem(Opcode::kLoad, Buffer::kInp, 0, 0, 1, 1, 1, {false, false, false, true}));
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(f.run(),
            "test.bin:pc 2: error: FINISH retired with 1 token(s) left in queue load->compute; every pushed token "
            "must be popped");
}

TEST(FsimDiagTest, AccumulatorHazard) {
  Fixture f;
  f.b.add(gemm(1, 2, 0));  // one micro-op, reduced twice into row 0: distance 1 < 4
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(f.run(false),
            "test.bin:pc 1: error: accumulator hazard: micro-op applications 0 and 1 of this instruction both touch "
            "acc row 0, fewer than timing.acc_hazard = 4 apart");
  Fixture cross;
  cross.b.add(gemm(4, 2, 3));  // rows 0-3, then 3-6: row 3 is written by applications 3 and 4
  cross.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(cross.run(false),
            "test.bin:pc 1: error: accumulator hazard: micro-op applications 3 and 4 of this instruction both touch "
            "acc row 3, fewer than timing.acc_hazard = 4 apart");
  Fixture ok;
  ok.b.add(gemm(4, 2, 0));  // four rows between revisits: legal
  ok.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(ok.run(false), "ok");
}

TEST(FsimDiagTest, IllegalDependencyFlag) {
  Fixture f;
  f.b.add(mem(Opcode::kLoad, Buffer::kInp, 0, 0, 1, 1, 1, {true, false, false, false}));
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(f.run(),
            "test.bin:pc 1: error: illegal dependency flag: LOAD runs on the load unit, which has no previous unit to "
            "exchange tokens with");
}

TEST(FsimDiagTest, AluOpMissingFromTheHardware) {
  std::string text = hwspec::presetText("vta-default");
  const std::string full = "[min, max, add, mulq, shr, shrr, clip, mov, mul]";
  text.replace(text.find(full), full.size(), "[min, max, add]");
  auto spec = hwspec::parseHwSpec(text, "small-alu.yaml");
  ASSERT_TRUE(spec.isOk()) << spec.diag().str();
  isa::Target t = *isa::loadTarget(*spec);
  for (isa::AluOp op : {isa::AluOp::kMulq, isa::AluOp::kMul}) {
    isa::ProgramBuilder b(t);
    b.uops("u", 0x800, {{0, 0, 0}});
    b.text(0x1000);
    b.add(mem(Opcode::kLoad, Buffer::kUop, 0, 0x800 / 4, 1, 1, 1));
    isa::Instruction a = isa::makeInstruction(Opcode::kAlu);
    a.alu().aluOp = static_cast<int64_t>(op);
    a.alu().uopBgn = 0, a.alu().uopEnd = 1, a.alu().iterOut = 1, a.alu().iterIn = 1;
    b.add(a);
    b.add(isa::makeInstruction(Opcode::kFinish));
    EXPECT_EQ(testing::runError(t, b), std::string("test.bin:pc 1: error: illegal instruction: ALU operation '") +
                                           isa::aluOpName(op) + "' is not in this hardware's alu.ops");
  }
}

TEST(FsimDiagTest, MissingFinishAndStoreFromTheWrongBuffer) {
  Fixture f;
  EXPECT_EQ(f.run(), "test.bin:pc 1: error: the program ends without FINISH (1 instructions)");
  Fixture g;
  g.b.add(mem(Opcode::kStore, Buffer::kInp, 0, 0, 1, 1, 1));
  g.b.add(isa::makeInstruction(Opcode::kFinish));
  EXPECT_EQ(g.run(), "test.bin:pc 1: error: STORE reads only the output buffer, not 'inp'");
}

TEST(FsimDiagTest, ProgramForAnotherHwspecIsRefused) {
  Fixture f;
  f.b.add(isa::makeInstruction(Opcode::kFinish));
  auto p = f.b.finish("test.bin");
  ASSERT_TRUE(p.isOk());
  FunctionalSim tiny(testing::presetTarget("tiny"));
  EXPECT_EQ(tiny.run(*p, "test.bin").diag().str(),
            "test.bin: error: the program was built for another hwspec than this device's ('tiny')");
}

}  // namespace
}  // namespace accelc::simulator
