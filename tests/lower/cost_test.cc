// tests/lower/cost_test.cc — the per-instruction cost formulas of
// docs/microarchitecture.md, on the examples the document works through.
#include "compiler/lower/cost.h"

#include <gtest/gtest.h>

#include "isa/builder.h"
#include "simulator/timing/timing.h"
#include "tests/test_util.h"

namespace accelc::compiler::lower {
namespace {

TEST(CostTest, TheDocumentsExamplesOnVtaDefault) {
  isa::Target t = testing::presetTarget("vta-default");  // L 64, W 8, Bmax 256, N 8
  isa::Instruction load = isa::makeInstruction(isa::Opcode::kLoad);  // one 256-byte weight tile
  load.mem().buffer = static_cast<int64_t>(isa::Buffer::kWgt);
  load.mem().ySize = 1, load.mem().xSize = 1, load.mem().xStride = 1;
  // The request in cycle 1, its 32 beats from 1 + 64: done in 97.
  EXPECT_EQ(simulator::instructionCycles(load, t.spec), 1 + 64 + 32);
  isa::Instruction gemm = isa::makeInstruction(isa::Opcode::kGemm);  // 16 micro-ops x 64 x 8
  gemm.gemm().uopBgn = 0, gemm.gemm().uopEnd = 16, gemm.gemm().iterOut = 64, gemm.gemm().iterIn = 8;
  EXPECT_EQ(simulator::instructionCycles(gemm, t.spec), 4 + 8192);
  isa::Instruction padded = load;  // a 2x3 input load padded to 4x5: 14 zero entries
  padded.mem().buffer = static_cast<int64_t>(isa::Buffer::kInp);
  padded.mem().ySize = 2, padded.mem().xSize = 3, padded.mem().xStride = 3;
  padded.mem().yPad0 = 1, padded.mem().yPad1 = 1, padded.mem().xPad0 = 1, padded.mem().xPad1 = 1;
  // Two 48-byte bursts accepted in cycles 1 and 2; beats 65-70 and 71-76; then 14 pad cycles.
  EXPECT_EQ(simulator::instructionCycles(padded, t.spec), 77 + 14);
  isa::Instruction store = load;  // ten rows of one 16-byte output entry
  store.opcode = isa::Opcode::kStore;
  store.mem().buffer = static_cast<int64_t>(isa::Buffer::kOut);
  store.mem().ySize = 10, store.mem().xSize = 1;
  // Ten 16-byte writes: 8 accepted in cycles 1-8, each's 2 beats from the
  // cycle after its accept or after the previous burst's (2-3, 4-5, ..., 16-17),
  // acknowledged 64 cycles after the last beat (done 68, 70, ..., 82); the
  // ninth waits for the first slot (accepted in 68, beats 69-70, done 135), the
  // tenth for the second (70, beats 71-72, done 137).
  EXPECT_EQ(simulator::instructionCycles(store, t.spec), 137);
  EXPECT_EQ(simulator::fetchStartCycles(3, t.spec, 16), 64 + 6);  // 48 bytes: 6 beats after the latency

  isa::ProgramBuilder b(t);  // per unit: the load on load, the GEMM on compute
  b.text(0);
  b.add(load), b.add(gemm), b.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p = b.finish("cost.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  auto c = programCycles(*p, t);
  ASSERT_TRUE(c.isOk()) << c.diag().str();
  EXPECT_EQ(c->units[0], 97);
  EXPECT_EQ(c->units[1], 4 + 8192 + 1);
  EXPECT_EQ(c->units[2], 0);
  EXPECT_EQ(c->startup, 70);
  EXPECT_EQ(c->dramBeats, 32 + 6);
  EXPECT_EQ(c->dramSlots, ((64 + 32) + (64 + 6) + 7) / 8);
  // The GEMM is dispatched in 71 and starts in 72; FINISH waits for it and retires a cycle later.
  EXPECT_EQ(c->dataflow, 72 + 4 + 8192 + 1);
  EXPECT_EQ(*estimateProgram(*p, t), 72 + 4 + 8192 + 1);
}

TEST(CostTest, TheReplayFollowsTokens) {
  isa::Target t = testing::presetTarget("vta-default");
  isa::Instruction load = isa::makeInstruction(isa::Opcode::kLoad);
  load.mem().buffer = static_cast<int64_t>(isa::Buffer::kWgt);
  load.mem().ySize = 1, load.mem().xSize = 1, load.mem().xStride = 1;
  isa::setDeps(load, {false, false, false, true});  // push to compute
  isa::Instruction gemm = isa::makeInstruction(isa::Opcode::kGemm);
  gemm.gemm().uopBgn = 0, gemm.gemm().uopEnd = 1, gemm.gemm().iterOut = 10, gemm.gemm().iterIn = 1;
  isa::setDeps(gemm, {true, false, false, false});  // pop from load
  isa::ProgramBuilder b(t);
  b.text(0);
  b.add(load), b.add(gemm), b.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p = b.finish("cost.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  auto c = programCycles(*p, t);
  ASSERT_TRUE(c.isOk()) << c.diag().str();
  // The LOAD runs 71-168, its token is visible in 169, the GEMM takes 14, FINISH 1.
  EXPECT_EQ(c->dataflow, 71 + 97 + 1 + 14 + 1);

  // A STORE after the GEMM: FINISH waits for it, though it follows the GEMM on the compute unit.
  isa::setDeps(gemm, {true, false, false, true});  // pop from load, push to store
  isa::Instruction store = load;
  store.opcode = isa::Opcode::kStore;
  store.mem().buffer = static_cast<int64_t>(isa::Buffer::kOut);
  isa::setDeps(store, {true, false, false, false});  // pop from compute
  isa::ProgramBuilder b2(t);
  b2.text(0);
  b2.add(load), b2.add(gemm), b2.add(store), b2.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p2 = b2.finish("cost.bin");
  ASSERT_TRUE(p2.isOk()) << p2.diag().str();
  auto c2 = programCycles(*p2, t);
  ASSERT_TRUE(c2.isOk()) << c2.diag().str();
  // Four instructions arrive in 64 + 8 = 72. The LOAD runs 73-170, the GEMM
  // 171-185, the STORE of one 16-byte entry 186-254 (accepted in its second
  // cycle, 2 beats from its third, acknowledged 64 cycles later); FINISH 254-255.
  EXPECT_EQ(simulator::instructionCycles(store, t.spec), 2 + 2 + 64);
  EXPECT_EQ(c2->dataflow, 255);
  EXPECT_EQ(c2->contended, 255);  // one DMA at a time: nothing to share
}

// A load and a store at once: alone on the port each takes its own time; sharing the data channel (one beat a
// cycle) the second's beats wait for the first's.
TEST(CostTest, SharingTheDataChannelDelaysOverlappingDmas) {
  isa::Target t = testing::presetTarget("vta-default");
  isa::Instruction load = isa::makeInstruction(isa::Opcode::kLoad);
  load.mem().buffer = static_cast<int64_t>(isa::Buffer::kWgt);
  load.mem().ySize = 1, load.mem().xSize = 32, load.mem().xStride = 32;  // 8 KiB: 1024 beats
  isa::Instruction store = isa::makeInstruction(isa::Opcode::kStore);
  store.mem().buffer = static_cast<int64_t>(isa::Buffer::kOut);
  store.mem().ySize = 1, store.mem().xSize = 512, store.mem().xStride = 512;  // 8 KiB: 1024 beats
  store.mem().dramBase = 4096;
  isa::ProgramBuilder b(t);
  b.text(0x100000);
  b.add(load), b.add(store), b.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p = b.finish("cost.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  auto c = programCycles(*p, t);
  ASSERT_TRUE(c.isOk()) << c.diag().str();
  EXPECT_EQ(c->dramBeats, 1024 + 1024 + 6);
  EXPECT_LT(c->dataflow, c->startup + 2048) << "alone, the two overlap freely";
  EXPECT_GE(c->contended, c->startup + 2048) << "sharing, the channel carries one beat a cycle";
  EXPECT_GT(*estimateContended(*p, t), *estimateProgram(*p, t));
}

}  // namespace
}  // namespace accelc::compiler::lower
