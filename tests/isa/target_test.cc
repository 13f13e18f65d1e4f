// tests/isa/target_test.cc — resolving the ISA YAML against a hwspec.
#include <gtest/gtest.h>

#include "isa/manual.h"
#include "isa/target.h"
#include "tests/test_util.h"

namespace accelc::isa {
namespace {

const FieldLayout& field(const Target& t, Format f, const std::string& name) {
  for (const FieldLayout& x : t.isa.format(f).fields)
    if (x.name == name) return x;
  static FieldLayout none;
  ADD_FAILURE() << "no field " << name;
  return none;
}

TEST(TargetTest, VtaDefaultFillsVtasWords) {
  Target t = testing::presetTarget("vta-default");
  EXPECT_EQ(t.isa.format(Format::kGemm).usedBits, 127);
  EXPECT_EQ(t.isa.format(Format::kAlu).usedBits, 128);  // alu_op's 4 bits fill the word
  EXPECT_EQ(field(t, Format::kAlu, "alu_op").lo, 107);
  EXPECT_EQ(field(t, Format::kAlu, "alu_op").bits, 4);
  EXPECT_EQ(field(t, Format::kAlu, "imm").lo, 112);
  EXPECT_EQ(t.isa.format(Format::kUop).usedBits, 32);
  EXPECT_EQ(field(t, Format::kGemm, "dst_factor_out").bits, 11);
  EXPECT_EQ(field(t, Format::kGemm, "wgt_factor_in").bits, 10);
  EXPECT_EQ(field(t, Format::kMem, "pop_prev").lo, 3);
  EXPECT_EQ(field(t, Format::kMem, "dram_base").bits, 32);
  EXPECT_EQ(field(t, Format::kUop, "dst").lo, 0);
  EXPECT_EQ(field(t, Format::kUop, "wgt").lo, 22);
}

TEST(TargetTest, WidthsFollowTheHwspec) {
  Target wide = testing::presetTarget("wide");
  EXPECT_EQ(field(wide, Format::kGemm, "wgt_factor_out").bits, 9);
  EXPECT_EQ(wide.isa.format(Format::kUop).wordBits, 64);
  Target tiny = testing::presetTarget("tiny");
  EXPECT_EQ(field(tiny, Format::kUop, "dst").bits, 8);
  EXPECT_NE(wide.hash, tiny.hash);
}

TEST(TargetTest, DoubledAccumulatorDoesNotFitAndSaysWhy) {
  std::string text = hwspec::presetText("vta-default");
  text.replace(text.find("acc: 128KiB"), 11, "acc: 256KiB");
  auto spec = hwspec::parseHwSpec(text, "big.yaml");
  ASSERT_TRUE(spec.isOk()) << spec.diag().str();
  auto t = loadTarget(*spec);
  ASSERT_FALSE(t.isOk());
  EXPECT_EQ(t.diag().str(),
            "big.yaml:13:38: error: format 'gemm' needs 129 bits but the instruction word has 128 (isa.insn_bits); "
            "shrink a buffer named below or widen the word\n"
            "big.yaml:8:16: note: buffers.uop drives 27 bits (uop_bgn 13, uop_end 14)\n"
            "big.yaml:8:58: note: buffers.acc drives 24 bits (dst_factor_out 12, dst_factor_in 12)\n"
            "big.yaml:8:30: note: buffers.input drives 22 bits (src_factor_out 11, src_factor_in 11)\n"
            "big.yaml:8:45: note: buffers.weight drives 20 bits (wgt_factor_out 10, wgt_factor_in 10)");
}

TEST(TargetTest, IsaYamlMustNameTheCompiledInFields) {
  Target t = testing::presetTarget("vta-default");
  std::string yaml = t.isa.yamlText;
  std::string renamed = yaml;
  renamed.replace(renamed.find("name: sram_base"), 15, "name: sram_addr");
  auto r = makeTarget(t.spec, renamed, "my.isa.yaml");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.diag().str().find("my.isa.yaml:"), std::string::npos);
  EXPECT_NE(r.diag().str().find("format 'mem' has no field 'sram_addr' in this instruction set"), std::string::npos);
}

TEST(TargetTest, IsaYamlCannotChangeWhatAFieldMeans) {
  Target t = testing::presetTarget("vta-default");
  std::string yaml = t.isa.yamlText;
  std::string noEnum = yaml;
  noEnum.replace(noEnum.find("bits: 3, enum: buffer"), 21, "bits: 3");
  EXPECT_NE(makeTarget(t.spec, noEnum, "e.isa.yaml").diag().str().find("field 'mem.buffer' must have 'enum: buffer'"),
            std::string::npos);
  std::string dup = yaml;
  dup.replace(dup.find("{GEMM: 2}"), 9, "{GEMM: 0}");
  EXPECT_EQ(makeTarget(t.spec, dup, "d.isa.yaml").diag().str(), "d.isa.yaml: error: opcodes LOAD and GEMM share code 0");
  std::string wide = yaml;
  wide.replace(wide.find("name: iter_out, bits: 14"), 24, "name: iter_out, bits: 60");
  EXPECT_NE(makeTarget(t.spec, wide, "w.isa.yaml").diag().str().find("width 60 is not in [1, 48]"), std::string::npos);
}

TEST(TargetTest, AThreeBitAluOpCannotHoldMul) {
  for (const char* preset : {"vta-default", "ice40"}) {
    Target t = testing::presetTarget(preset);
    std::string yaml = t.isa.yamlText;
    yaml.replace(yaml.find("name: alu_op, bits: 4"), 21, "name: alu_op, bits: 3");
    EXPECT_EQ(makeTarget(t.spec, yaml, "a.isa.yaml").diag().str(),
              "a.isa.yaml: error: field 'alu.alu_op' (3 bits) cannot hold code 8")
        << preset;
  }
}

TEST(TargetTest, SmallIsaPacksTheWiderAluOp) {
  Target t = testing::presetTarget("ice40");
  EXPECT_EQ(field(t, Format::kAlu, "alu_op").bits, 4);
  EXPECT_EQ(field(t, Format::kAlu, "use_imm").lo, field(t, Format::kAlu, "alu_op").lo + 4);
  EXPECT_EQ(t.isa.format(Format::kAlu).usedBits, 90);
}

TEST(TargetTest, ReorderedFieldsMoveButStillFit) {
  Target t = testing::presetTarget("vta-default");
  std::string yaml = t.isa.yamlText;
  const std::string a = "      - {name: dst, bits: acc_idx_bits, doc: \"accumulator row\"}\n";
  size_t at = yaml.find(a);
  ASSERT_NE(at, std::string::npos);
  yaml.erase(at, a.size());
  yaml += a;
  auto r = makeTarget(t.spec, yaml, "moved.isa.yaml");
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  EXPECT_EQ(field(*r, Format::kUop, "dst").lo, 21);
  EXPECT_NE(r->hash, t.hash);
}

TEST(TargetTest, DiagramsInTheIsaYamlMatchVtaDefault) {
  Target t = testing::presetTarget("vta-default");
  for (const FormatLayout& fl : t.isa.formats) {
    std::string written;
    for (char c : fl.diagram)
      if (c != ' ' && c != '\n') written += c;
    size_t at;
    while ((at = written.find("||")) != std::string::npos) written.erase(at, 1);
    std::string want;
    for (char c : formatDiagram(t.isa, fl))
      if (c != ' ') want += c;
    EXPECT_EQ(written, want) << "diagram of format '" << fl.name << "' in isa/vta.isa.yaml";
  }
}

TEST(TargetTest, GeneratedManualForVtaDefaultIsCurrent) {
  Target t = testing::presetTarget("vta-default");
  EXPECT_EQ(testing::readFile(testing::sourceDir() + "/docs/isa-vta-default.md"), isaManualMarkdown(t))
      << "docs/isa-vta-default.md is stale: regenerate it with `accelc isa --hw vta-default > docs/isa-vta-default.md`";
}

}  // namespace
}  // namespace accelc::isa
