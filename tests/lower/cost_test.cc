// tests/lower/cost_test.cc — the per-instruction cost formulas of
// docs/microarchitecture.md, on the examples the document works through.
#include <gtest/gtest.h>

#include "compiler/lower/cost.h"
#include "isa/builder.h"
#include "simulator/cycle/timing.h"
#include "tests/test_util.h"

namespace accelc::compiler::lower {
namespace {

TEST(CostTest, TheDocumentsExamplesOnVtaDefault) {
  isa::Target t = testing::presetTarget("vta-default");
  isa::Instruction load = isa::makeInstruction(isa::Opcode::kLoad);  // one 256-byte weight tile
  load.mem().buffer = static_cast<int64_t>(isa::Buffer::kWgt);
  load.mem().ySize = 1, load.mem().xSize = 1, load.mem().xStride = 1;
  EXPECT_EQ(simulator::instructionCycles(load, t.spec), 64 + 32);
  isa::Instruction gemm = isa::makeInstruction(isa::Opcode::kGemm);  // 16 micro-ops x 64 x 8
  gemm.gemm().uopBgn = 0, gemm.gemm().uopEnd = 16, gemm.gemm().iterOut = 64, gemm.gemm().iterIn = 8;
  EXPECT_EQ(simulator::instructionCycles(gemm, t.spec), 4 + 8192);
  isa::Instruction padded = load;  // a 2x3 input load padded to 4x5: 14 zero entries
  padded.mem().buffer = static_cast<int64_t>(isa::Buffer::kInp);
  padded.mem().ySize = 2, padded.mem().xSize = 3, padded.mem().xStride = 3;
  padded.mem().yPad0 = 1, padded.mem().yPad1 = 1, padded.mem().xPad0 = 1, padded.mem().xPad1 = 1;
  EXPECT_EQ(simulator::instructionCycles(padded, t.spec), 64 + 2 * 6 + 14);  // two 48-byte bursts in one window

  isa::ProgramBuilder b(t);  // per unit: the load on load, the GEMM on compute
  b.text(0);
  b.add(load), b.add(gemm), b.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p = b.finish("cost.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  auto units = unitCycles(*p, t);
  ASSERT_TRUE(units.isOk()) << units.diag().str();
  EXPECT_EQ((*units)[0], 96);
  EXPECT_EQ((*units)[1], 4 + 8192 + 1);
  EXPECT_EQ((*units)[2], 0);
  EXPECT_EQ(*estimateProgram(*p, t), 4 + 8192 + 1);
  EXPECT_EQ(*estimateProgram(*p, t, true), 96 + 4 + 8192 + 1);  // serialized: the units one after another
}

}  // namespace
}  // namespace accelc::compiler::lower
