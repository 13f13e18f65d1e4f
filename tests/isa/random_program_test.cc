// tests/isa/random_program_test.cc — generated programs round-trip through
// encode, decode, disassemble and reassemble.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/disassembler.h"
#include "isa/random_program.h"
#include "isa/random_target.h"
#include "tests/test_util.h"

namespace accelc::isa {
namespace {

TEST(RandomProgramTest, SameSeedSameProgram) {
  Target t = testing::presetTarget("vta-default");
  auto a = randomProgram(t, 42), b = randomProgram(t, 42), c = randomProgram(t, 43);
  ASSERT_TRUE(a.isOk()) << a.diag().str();
  EXPECT_EQ(writeProgram(*a), writeProgram(*b));
  EXPECT_NE(writeProgram(*a), writeProgram(*c));
}

TEST(RandomProgramTest, ProgramsRoundTripOnEveryPreset) {
  for (const char* preset : {"tiny", "vta-default", "wide", "ice40"}) {
    Target t = testing::presetTarget(preset);
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      auto p = randomProgram(t, seed);
      ASSERT_TRUE(p.isOk()) << preset << " seed " << seed << ": " << p.diag().str();
      auto insns = decodeText(*p, t, "r.bin");
      ASSERT_TRUE(insns.isOk()) << insns.diag().str();
      EXPECT_EQ(insns->back().opcode, Opcode::kFinish);
      auto text = disassemble(*p, t, "r.bin");
      ASSERT_TRUE(text.isOk());
      auto again = assemble(*text, "r.s", t);
      ASSERT_TRUE(again.isOk()) << preset << " seed " << seed << ": " << again.diag().str();
      ASSERT_EQ(writeProgram(*again), writeProgram(*p)) << preset << " seed " << seed;
    }
  }
}

/// ALU instructions of `op` in the random programs of seeds 1..40.
int aluOpsDrawn(const Target& t, AluOp op) {
  int n = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    auto p = randomProgram(t, seed);
    EXPECT_TRUE(p.isOk()) << p.diag().str();
    if (!p.isOk()) continue;
    auto insns = decodeText(*p, t, "r.bin");
    EXPECT_TRUE(insns.isOk()) << insns.diag().str();
    if (!insns.isOk()) continue;
    for (const Instruction& i : *insns) n += i.opcode == Opcode::kAlu && AluOp(i.alu().aluOp) == op;
  }
  return n;
}

TEST(RandomProgramTest, MulIsDrawnOnlyWhereTheHardwareHasIt) {
  EXPECT_GT(aluOpsDrawn(testing::presetTarget("vta-default"), AluOp::kMul), 5);
  EXPECT_GT(aluOpsDrawn(testing::presetTarget("tiny"), AluOp::kMul), 5);
  EXPECT_EQ(aluOpsDrawn(testing::presetTarget("ice40"), AluOp::kMul), 0);  // its alu.ops has no mul
}

TEST(RandomTargetTest, EveryDrawLoadsAndTheSameSeedGivesTheSameTarget) {
  int batch2 = 0, small = 0, wideWords = 0, noMulq = 0, noMul = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    auto r = randomTarget(seed);
    ASSERT_TRUE(r.isOk()) << r.diag().str();
    EXPECT_EQ(r->target.hash, randomTarget(seed)->target.hash) << "seed " << seed;
    EXPECT_EQ(r->target.spec.name, "random-" + std::to_string(seed));
    const hwspec::HwSpec& hw = r->target.spec;
    batch2 += hw.batch == 2, small += hw.isaFile == "small.isa.yaml", wideWords += hw.insnBits == 256;
    noMulq += !hw.hasAluOp("mulq"), noMul += !hw.hasAluOp("mul");
    // The YAML it gives reproduces it.
    auto again = hwspec::parseHwSpec(r->yaml, "again.yaml");
    ASSERT_TRUE(again.isOk()) << again.diag().str();
    EXPECT_EQ(again->canonicalYaml(), hw.canonicalYaml());
    // Random programs are made for it and round-trip.
    auto p = randomProgram(r->target, seed);
    ASSERT_TRUE(p.isOk()) << "seed " << seed << ": " << p.diag().str();
    auto text = disassemble(*p, r->target, "r.bin");
    ASSERT_TRUE(text.isOk()) << text.diag().str();
    auto back = assemble(*text, "r.s", r->target);
    ASSERT_TRUE(back.isOk()) << "seed " << seed << ": " << back.diag().str();
    EXPECT_EQ(writeProgram(*back), writeProgram(*p)) << "seed " << seed;
  }
  // The draws cover the space: none of these is rare.
  EXPECT_GT(batch2, 20);
  EXPECT_GT(small, 20);
  EXPECT_GT(wideWords, 20);
  EXPECT_GT(noMulq, 10);
  EXPECT_GT(noMul, 10);
  EXPECT_LT(noMul, 100);
}

}  // namespace
}  // namespace accelc::isa
