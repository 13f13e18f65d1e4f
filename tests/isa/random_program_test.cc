// tests/isa/random_program_test.cc — generated programs round-trip through
// encode, decode, disassemble and reassemble.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/disassembler.h"
#include "isa/random_program.h"
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

}  // namespace
}  // namespace accelc::isa
