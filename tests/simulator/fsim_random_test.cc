// tests/simulator/fsim_random_test.cc — random programs run clean; mutated ones are caught.
#include <gtest/gtest.h>

#include "isa/encoding.h"
#include "isa/random_program.h"
#include "tests/simulator/sim_util.h"

namespace accelc::simulator {
namespace {

/// Re-encodes instruction `pc` of `p` after `edit`.
template <typename Edit>
isa::Program mutate(const isa::Target& t, isa::Program p, uint64_t pc, Edit edit) {
  auto insns = isa::decodeText(p, t, "m.bin");
  EXPECT_TRUE(insns.isOk());
  edit((*insns)[pc]);
  for (isa::Segment& s : p.segments) {
    if (s.role != isa::SegmentRole::kText) continue;
    EXPECT_TRUE(isa::encodeInstruction(t, (*insns)[pc], s.bytes.data() + pc * t.insnBytes(), {}).isOk());
  }
  return p;
}

class RandomFsimTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomFsimTest, GeneratedProgramsRunWithoutDiagnostics) {
  isa::Target t = testing::presetTarget(GetParam());
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    auto p = isa::randomProgram(t, seed);
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    // Random programs read SRAM the generator never filled: --check-defined is off.
    testing::Ran checked = testing::run(t, *p, true, false), fast = testing::run(t, *p, false, false);
    ASSERT_TRUE(checked.counters.isOk()) << "seed " << seed << ": " << checked.counters.diag().str();
    ASSERT_TRUE(fast.counters.isOk());
    EXPECT_EQ(*checked.counters, *fast.counters);
    const isa::Symbol* out = p->findSymbol("result");
    EXPECT_EQ(checked.read(out->addr, out->bytes()), fast.read(out->addr, out->bytes())) << "seed " << seed;
    EXPECT_GT(checked.counters->insns[static_cast<int>(isa::Opcode::kStore)], 0u);
  }
}

TEST_P(RandomFsimTest, RemovingATokenIsCaught) {
  isa::Target t = testing::presetTarget(GetParam());
  int caught = 0, tried = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    isa::Program p = *isa::randomProgram(t, seed);
    auto insns = *isa::decodeText(p, t, "m.bin");
    for (uint64_t pc = 0; pc < insns.size(); ++pc) {
      isa::Deps d = isa::depsOf(insns[pc]);
      if (!(d.popPrev || d.popNext || d.pushPrev || d.pushNext)) continue;
      isa::Program m = mutate(t, p, pc, [](isa::Instruction& i) {
        isa::Deps e = isa::depsOf(i);
        if (e.pushNext) e.pushNext = false;
        else if (e.pushPrev) e.pushPrev = false;
        else if (e.popPrev) e.popPrev = false;
        else e.popNext = false;
        isa::setDeps(i, e);
      });
      ++tried;
      testing::Ran r = testing::run(t, m, true, false);
      if (!r.counters.isOk()) ++caught;
      else ADD_FAILURE() << "seed " << seed << " pc " << pc << ": removing a token went unnoticed";
    }
  }
  EXPECT_GT(tried, 50);
  EXPECT_EQ(caught, tried);
}

TEST_P(RandomFsimTest, IntroducedHazardIsCaught) {
  isa::Target t = testing::presetTarget(GetParam());
  int tried = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    isa::Program p = *isa::randomProgram(t, seed);
    auto insns = *isa::decodeText(p, t, "m.bin");
    for (uint64_t pc = 0; pc < insns.size(); ++pc) {
      if (insns[pc].opcode != isa::Opcode::kGemm) continue;
      // One micro-op reduced twice into the same row: distance 1 < acc_hazard.
      isa::Program m = mutate(t, p, pc, [](isa::Instruction& i) {
        isa::GemmInsn& g = i.gemm();
        g.uopEnd = g.uopBgn + 1;
        g.iterIn = 2;
        g.dstFactorIn = g.srcFactorIn = g.wgtFactorIn = 0;
      });
      testing::Ran r = testing::run(t, m, true, false);
      ASSERT_FALSE(r.counters.isOk()) << "seed " << seed << " pc " << pc;
      EXPECT_NE(r.counters.diag().str().find("pc " + std::to_string(pc) + ": error: accumulator hazard"),
                std::string::npos)
          << r.counters.diag().str();
      ++tried;
    }
  }
  EXPECT_GT(tried, 20);
}

ACCELC_INSTANTIATE_FOR_PRESETS(RandomFsimTest);

}  // namespace
}  // namespace accelc::simulator
