// tests/hwspec/hwspec_test.cc — the hwspec schema, presets and located errors.
#include <gtest/gtest.h>

#include <regex>

#include "hwspec/hwspec.h"

namespace accelc::hwspec {
namespace {

std::string preset(const std::string& name) { return presetText(name); }

/// vta-default's text with one line replaced (`from` must occur once).
std::string edited(const std::string& from, const std::string& to) {
  std::string t = preset("vta-default");
  size_t at = t.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return t.replace(at, from.size(), to);
}

std::string errorOf(const std::string& text) {
  auto r = parseHwSpec(text, "hw.yaml");
  return r.isOk() ? "ok" : r.diag().str();
}

TEST(HwSpecTest, VtaDefaultPresetHasVtasShape) {
  auto s = loadHwSpec("vta-default");
  ASSERT_TRUE(s.isOk()) << s.diag().str();
  EXPECT_EQ(s->batch * s->blockIn * s->blockOut, 256);
  EXPECT_EQ(s->peakMacsPerCycle(), 256);
  EXPECT_EQ(s->depth(BufferKind::kUop), 8192);
  EXPECT_EQ(s->depth(BufferKind::kInput), 2048);
  EXPECT_EQ(s->depth(BufferKind::kWeight), 1024);
  EXPECT_EQ(s->depth(BufferKind::kAcc), 2048);
  EXPECT_EQ(s->indexBits(BufferKind::kAcc), 11);
  EXPECT_EQ(s->entryBytes(BufferKind::kWeight), 256);
  EXPECT_EQ(s->insnBits, 128);
  EXPECT_EQ(s->uopBits, 32);
  EXPECT_EQ(s->dramBytesPerCycle, 8);
}

TEST(HwSpecTest, EveryPresetLoads) {
  for (const std::string& name : presetNames()) {
    auto s = loadHwSpec(name);
    EXPECT_TRUE(s.isOk()) << name << ": " << (s ? "" : s.diag().str());
  }
  EXPECT_EQ(loadHwSpec("wide")->blockOut, 32);
  EXPECT_EQ(loadHwSpec("wide")->insnBits, 256);
  EXPECT_EQ(loadHwSpec("wide")->uopBits, 64);
  EXPECT_EQ(loadHwSpec("tiny")->blockIn, 4);
}

TEST(HwSpecTest, KeepsTheLocationOfEveryKey) {
  auto s = loadHwSpec("vta-default");
  EXPECT_EQ(s->locOf("buffers.acc").str(), "presets/vta-default.yaml:8:58");
  EXPECT_EQ(s->locOf("isa.insn_bits").str(), "presets/vta-default.yaml:13:38");
}

TEST(HwSpecTest, CanonicalYamlParsesToTheSameSpec) {
  auto s = loadHwSpec("wide");
  auto again = parseHwSpec(s->canonicalYaml(), "canonical.yaml");
  ASSERT_TRUE(again.isOk()) << again.diag().str();
  EXPECT_EQ(again->canonicalYaml(), s->canonicalYaml());
}

// Found by fuzzing: an operation name with a tab (after a NUL, which
// yaml-cpp drops) passed, and its canonical form, written unquoted, read back
// as another name.
TEST(HwSpecTest, AluOperationsAreNames) {
  EXPECT_EQ(errorOf(edited("clip", std::string("\0\tlip", 5))),
            "hw.yaml:11:12: error: key 'alu.ops': expected operation names (lower-case letters, digits, '_'), found "
            "'\\x09lip'");
}

TEST(HwSpecTest, TimingSectionIsOptionalWithDefaults) {
  std::string t = preset("vta-default");
  t = std::regex_replace(t, std::regex("timing:[^\n]*\n"), "");
  auto s = parseHwSpec(t, "hw.yaml");
  ASSERT_TRUE(s.isOk()) << s.diag().str();
  EXPECT_EQ(s->timing.accHazard, 4);
  EXPECT_EQ(s->timing.maxBurst, 256);
}

TEST(HwSpecTest, OlderFilesWithoutSchemaStillLoad) {
  EXPECT_EQ(errorOf(edited("schema: 1\n", "")), "ok");
  EXPECT_EQ(errorOf(edited("schema: 1", "schema: 2")),
            "hw.yaml:3:9: error: schema version 2 is newer than this accelc reads (1)");
}

TEST(HwSpecTest, MalformedYamlIsLocated) {
  EXPECT_EQ(errorOf("name: x\ngemm: {batch: 1\nclock_mhz: 3\n"), "hw.yaml:3:10: error: malformed YAML: end of map flow not found");
}

TEST(HwSpecTest, UnknownKeyIsLocated) {
  EXPECT_EQ(errorOf(edited("clock_mhz: 100", "clock_mhz: 100\nclock_ghz: 1")),
            "hw.yaml:6:1: error: unknown key 'clock_ghz'; expected one of: schema, name, clock_mhz, gemm, dtypes, "
            "buffers, dram, queues, alu, timing, isa");
  EXPECT_EQ(errorOf(edited("gemm_ii: 1", "gemm_iii: 1")),
            "hw.yaml:12:10: error: unknown key 'timing.gemm_iii'; expected one of: gemm_ii, alu_ii, pipeline_depth, "
            "acc_hazard, max_burst, outstanding");
}

TEST(HwSpecTest, MissingKeyNamesTheMap) {
  EXPECT_EQ(errorOf(edited("block_out: 16", "blk: 16")), "hw.yaml:6:7: error: missing key 'gemm.block_out' (expected an integer in [1, 256])");
}

TEST(HwSpecTest, WrongTypeIsLocated) {
  EXPECT_EQ(errorOf(edited("clock_mhz: 100", "clock_mhz: fast")),
            "hw.yaml:5:12: error: key 'clock_mhz': expected an integer in [1, 100000], found 'fast'");
  EXPECT_EQ(errorOf(edited("uop: 32KiB", "uop: 32KB")),
            "hw.yaml:8:16: error: key 'buffers.uop': expected a byte size such as 4096, 32KiB or 1MiB, found '32KB'");
}

TEST(HwSpecTest, NonPowerOfTwoIsRefused) {
  EXPECT_EQ(errorOf(edited("block_in: 16", "block_in: 12")),
            "hw.yaml:6:28: error: key 'gemm.block_in': expected a power of two, found 12");
  EXPECT_EQ(errorOf(edited("input: 32KiB", "input: 48KiB")),
            "hw.yaml:8:30: error: key 'buffers.input': expected a power of two, found 49152 bytes");
}

TEST(HwSpecTest, BufferSmallerThanOneTileIsRefused) {
  EXPECT_EQ(errorOf(edited("weight: 256KiB", "weight: 128")),
            "hw.yaml:8:45: error: buffer 'buffers.weight' holds 128 bytes, less than one tile (256 bytes)");
}

TEST(HwSpecTest, TheDramPortNeedsALatencyAndBurstsThatHoldAnInstruction) {
  EXPECT_EQ(errorOf(edited("latency_cycles: 64", "latency_cycles: 0")),
            "hw.yaml:9:44: error: key 'dram.latency_cycles': expected an integer in [1, 100000], found '0'");
  EXPECT_NE(errorOf(edited("max_burst: 256", "max_burst: 8"))
                .find("error: key 'timing.max_burst': a burst must hold one instruction (16 bytes), found 8"),
            std::string::npos);
}

TEST(HwSpecTest, OtherDtypesAreUnsupportedInV1) {
  EXPECT_EQ(errorOf(edited("weight: int8", "weight: int4")),
            "hw.yaml:7:31: error: dtypes.weight: 'int4' is unsupported in v1; expected int8");
}

TEST(HwSpecTest, InstructionWidthMustBe128Or256) {
  EXPECT_EQ(errorOf(edited("insn_bits: 128", "insn_bits: 96")),
            "hw.yaml:13:38: error: key 'isa.insn_bits': expected 128 or 256, found 96");
}

TEST(HwSpecTest, UnknownPresetOrFile) {
  EXPECT_EQ(loadHwSpec("nonesuch").diag().str(),
            "nonesuch: error: no such hwspec file, and no preset by that name (presets: ice40, tiny, vta-default, wide)");
}

}  // namespace
}  // namespace accelc::hwspec
