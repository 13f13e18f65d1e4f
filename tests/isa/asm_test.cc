// tests/isa/asm_test.cc — assembler and disassembler: golden forms, byte-identical
// round trips, and located errors.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/disassembler.h"
#include "tests/test_util.h"

namespace accelc::isa {
namespace {

class AsmFormsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AsmFormsTest, AsmDisasmAsmIsByteIdenticalAndMatchesGolden) {
  Target t = testing::presetTarget(GetParam());
  auto p = assembleFile(testing::sourceDir() + "/tests/golden/forms.s", t);
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  auto text = disassemble(*p, t, "forms.bin");
  ASSERT_TRUE(text.isOk()) << text.diag().str();
  testing::expectGolden("forms." + GetParam() + ".s", *text);
  auto again = assemble(*text, "forms.dis.s", t);
  ASSERT_TRUE(again.isOk()) << again.diag().str();
  EXPECT_EQ(writeProgram(*again), writeProgram(*p));
  auto twice = assemble(*text, "forms.dis.s", std::nullopt);  // from the .hw line alone
  ASSERT_TRUE(twice.isOk()) << twice.diag().str();
  EXPECT_EQ(writeProgram(*twice), writeProgram(*p));
}

ACCELC_INSTANTIATE_FOR_PRESETS(AsmFormsTest);

std::string asmError(const std::string& body) {
  auto p = assemble(".hw vta-default\n.input x 0x0 int8 1x16\n.text 0x1000\n" + body, "bad.s", std::nullopt);
  return p.isOk() ? "ok" : p.diag().str();
}

TEST(AsmTest, ErrorsAreLocatedAtLineAndColumn) {
  EXPECT_EQ(asmError("  FINISH\n"), "ok");
  EXPECT_EQ(asmError("  JUMP x\n"),
            "bad.s:4:3: error: unknown instruction 'JUMP'; expected LOAD, STORE, GEMM, ALU or FINISH");
  EXPECT_EQ(asmError("  GEMM uop_bgn=0 foo=3\n"), "bad.s:4:18: error: 'foo' is not a field of GEMM");
  EXPECT_EQ(asmError("  GEMM uop_bgn=zero\n"), "bad.s:4:8: error: field 'uop_bgn': expected an integer, found 'zero'");
  EXPECT_EQ(asmError("  LOAD buffer=ram\n"),
            "bad.s:4:8: error: unknown buffer 'ram'; expected one of: uop, wgt, inp, acc, out, acc8");
  EXPECT_EQ(asmError("  LOAD buffer=inp dram_base=@nowhere\n"), "bad.s:4:19: error: unknown symbol 'nowhere'");
  EXPECT_EQ(asmError("  GEMM uop_bgn=8192\n"),
            "bad.s:4:1: error: field 'uop_bgn' of GEMM: value 8192 does not fit 13 bits (range 0..8191)");
  EXPECT_EQ(asmError("  GEMM reset reset\n"), "bad.s:4:14: error: field 'reset' given twice");
  EXPECT_EQ(asmError(".frob 3\n"), "bad.s:4:1: error: unknown directive '.frob'");
  EXPECT_EQ(asmError(".const w 0x100 int8 1x4\n.byte 01 02\n"),
            "bad.s:4:1: error: constant 'w' needs 4 bytes of .byte data, found 2");
}

TEST(AsmTest, MulAssemblesAndDisassemblesByName) {
  Target t = testing::presetTarget("vta-default");
  auto p = assemble(".text 0x1000\n  ALU alu_op=mul uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 use_imm imm=-3\n  FINISH\n",
                    "mul.s", t);
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  auto dis = disassemble(*p, t, "mul.bin");
  ASSERT_TRUE(dis.isOk()) << dis.diag().str();
  EXPECT_NE(dis->find("  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=mul use_imm imm=-3\n"), std::string::npos)
      << *dis;
  EXPECT_EQ(asmError("  ALU alu_op=mult\n"),
            "bad.s:4:7: error: unknown alu_op 'mult'; expected one of: min, max, add, mulq, shr, shrr, clip, mov, mul");
}

TEST(AsmTest, LayoutAndOperandMistakesAreRefused) {
  EXPECT_EQ(asmError("  GEMM uop_bgn=@x\n"), "bad.s:4:8: error: '@symbol' is only allowed for dram_base");
  EXPECT_EQ(asmError("  LOAD buffer=inp dram_base=@x+-1\n"),
            "bad.s:4:19: error: expected '@symbol' or '@symbol+N' with 0 <= N < 2^48, found '@x+-1'");
  auto p = assemble(".hw vta-default\n.input x 0x1000 int8 64\n.text 0x1000\n FINISH\n", "ov.s", std::nullopt);
  EXPECT_EQ(p.diag().str(), "ov.s: error: symbol 'x' overlaps segment 'text'");
  p = assemble(".hw vta-default\n.input x 0x0 int8 64\n.output y 0x20 int8 64\n.text 0x1000\n FINISH\n", "ov.s",
               std::nullopt);
  EXPECT_EQ(p.diag().str(), "ov.s: error: symbols 'x' and 'y' overlap");
}

TEST(AsmTest, LabelsAreDefinedOnceAndClosedOnlyWhenOpen) {
  EXPECT_EQ(asmError(".label a\n  FINISH\n"), "ok");
  EXPECT_EQ(asmError(".label conv\n  GEMM\n.label conv\n  FINISH\n"),
            "bad.s:6:8: error: label 'conv' is already defined at line 4");
  EXPECT_EQ(asmError(".label conv\n  GEMM\n.endlabel\n.label pool\n  GEMM\n.endlabel\n.label conv\n  FINISH\n"),
            "bad.s:10:8: error: label 'conv' is already defined at line 4");
  EXPECT_EQ(asmError(".endlabel\n  FINISH\n"), "bad.s:4:1: error: '.endlabel' without an open '.label'");
  EXPECT_EQ(asmError(".label a\n  GEMM\n.endlabel\n.endlabel\n  FINISH\n"),
            "bad.s:7:1: error: '.endlabel' without an open '.label'");
}

TEST(AsmTest, ProgramsForAHwspecFileReassembleWithHw) {
  std::string text = hwspec::presetText("tiny");
  text.replace(text.find("name: tiny"), 10, "name: my-npu");
  auto spec = hwspec::parseHwSpec(text, "my-npu.yaml");
  ASSERT_TRUE(spec.isOk()) << spec.diag().str();
  Target t = *loadTarget(*spec);
  auto p = assemble(".text 0\n FINISH\n", "a.s", t);
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  auto dis = disassemble(*p, t, "a.bin");
  EXPECT_EQ(dis->substr(0, dis->find(".window")), "; accelc program for hwspec 'my-npu'\n.hw my-npu\n");
  auto again = assemble(*dis, "a.dis.s", t);
  ASSERT_TRUE(again.isOk()) << again.diag().str();
  EXPECT_EQ(writeProgram(*again), writeProgram(*p));
}

TEST(AsmTest, NoHwspecIsAnError) {
  auto p = assemble(".text 0\n FINISH\n", "nohw.s", std::nullopt);
  EXPECT_EQ(p.diag().str(), "nohw.s:1:1: error: '.text' needs the hwspec: write '.hw NAME' first or pass --hw");
}

TEST(AsmTest, HwLineMustMatchTheGivenTarget) {
  Target tiny = testing::presetTarget("tiny");
  auto p = assemble(".hw vta-default\n.text 0\n FINISH\n", "m.s", tiny);
  EXPECT_EQ(p.diag().str(), "m.s:1:5: error: '.hw vta-default' (vta-default) does not match the hwspec given with --hw (tiny)");
}

}  // namespace
}  // namespace accelc::isa
