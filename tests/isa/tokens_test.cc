// tests/isa/tokens_test.cc — the token machine's rules and diagnostics, on
// their own (the simulators' tests run them inside whole programs).
#include <gtest/gtest.h>

#include "isa/tokens.h"

namespace accelc::isa {
namespace {

Instruction withDeps(Opcode op, Deps d) {
  Instruction insn = makeInstruction(op);
  setDeps(insn, d);
  return insn;
}

TEST(TokenMachineTest, AnInstructionStartsOnceItsTokensAreThereAndItsPushesHaveRoom) {
  TokenMachine<int> m(1);
  const Instruction gemm = withDeps(Opcode::kGemm, {true, false, false, true});  // pops load->compute, pushes compute->store
  const Instruction store = withDeps(Opcode::kStore, {true, false, false, false});
  EXPECT_EQ(m.wait(gemm).kind, TokenWait::kEmpty);
  EXPECT_EQ(m.wait(gemm).str(), "waits for a token in load->compute");
  Instruction uops = withDeps(Opcode::kLoad, {false, false, false, true});  // LOAD to uop: on the compute unit,
  uops.mem().buffer = static_cast<int64_t>(Buffer::kUop);                   // its push_next goes to the store unit
  EXPECT_EQ(m.push(uops, 6), 1);
  EXPECT_EQ(m.queue(kComputeToStore).size(), 1u);
  m.pop(withDeps(Opcode::kStore, {true, false, false, false}), [](int v) { EXPECT_EQ(v, 6); });
  EXPECT_EQ(m.wait(gemm).queue, kLoadToCompute);
  Instruction load = withDeps(Opcode::kLoad, {false, false, false, true});
  load.mem().buffer = static_cast<int64_t>(Buffer::kInp);
  EXPECT_EQ(m.push(load, 7), 1);
  EXPECT_FALSE(m.wait(gemm));
  EXPECT_EQ(m.wait(gemm, [](int v) { return v < 7; }).kind, TokenWait::kNotVisible);
  int taken = 0;
  m.pop(gemm, [&](int v) { taken = v; });
  EXPECT_EQ(taken, 7);
  EXPECT_EQ(m.push(gemm, 8), 1);
  EXPECT_EQ(m.wait(load).kind, TokenWait::kReady);
  EXPECT_EQ(m.push(load, 9), 1);
  EXPECT_EQ(m.wait(gemm).kind, TokenWait::kFull);  // compute->store holds one of one
  EXPECT_EQ(m.wait(gemm).str(), "waits for room in compute->store (full)");
  ASSERT_TRUE(m.leftover().has_value());
  EXPECT_EQ(*m.leftover(), "FINISH retired with 1 token(s) left in queue load->compute; every pushed token must be popped");
  m.pop(store, [](int) {});
  m.pop(gemm, [](int) {});
  EXPECT_FALSE(m.leftover().has_value());
}

TEST(TokenMachineTest, AnUnboundedMachineNeverFills) {
  TokenMachine<int> m(0);
  const Instruction gemm = withDeps(Opcode::kGemm, {false, false, false, true});
  for (int i = 0; i < 1000; ++i) m.push(gemm, i);
  EXPECT_FALSE(m.wait(gemm));
  EXPECT_EQ(m.queue(kComputeToStore).size(), 1000u);
}

TEST(TokenMachineTest, AStoreWaitingOnAnIdleComputeUnitIsAnUnderflow) {
  TokenMachine<int> m(4);
  const Instruction store = withDeps(Opcode::kStore, {true, false, false, false});
  StallView v;
  v.program = "p.bin";
  v.units[2] = {&store, 3, false};
  v.fetchPc = 5;
  v.finishFetched = true;
  EXPECT_EQ(m.deadlock(v).str(),
            "p.bin:pc 3: error: token underflow: the store unit pops compute->store but no instruction is left that "
            "pushes to it\nnote: load unit is idle\nnote: compute unit is idle\n"
            "p.bin:pc 3: note: store unit blocked at STORE: waits for a token in compute->store");
  v.units[1].busy = true;  // a busy compute unit may still push: a deadlock, not an underflow
  v.cycle = 12;
  EXPECT_EQ(m.deadlock(v).str().rfind("p.bin:pc 3: error: token deadlock: no unit can make progress at cycle 12", 0), 0u);
}

TEST(TokenMachineTest, FlagsWithoutANeighbourAreIllegal) {
  Instruction load = withDeps(Opcode::kLoad, {true, false, false, false});
  load.mem().buffer = static_cast<int64_t>(Buffer::kInp);
  EXPECT_EQ(flagError(load), "illegal dependency flag: LOAD runs on the load unit, which has no previous unit to exchange tokens with");
  EXPECT_EQ(flagError(withDeps(Opcode::kGemm, {true, true, true, true})), "");
}

}  // namespace
}  // namespace accelc::isa
