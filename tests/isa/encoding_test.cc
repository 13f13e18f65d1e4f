// tests/isa/encoding_test.cc — the table-driven encoder and decoder.
#include <gtest/gtest.h>

#include <random>

#include "isa/encoding.h"
#include "tests/test_util.h"

namespace accelc::isa {
namespace {

class EncodingTest : public ::testing::TestWithParam<std::string> {};

/// Fills every field of `insn` with a random in-range value.
void randomFields(const Target& t, Instruction& insn, std::mt19937_64& rng) {
  const FormatLayout& fl = t.isa.format(formatOf(insn.opcode));
  for (const FieldLayout& f : fl.fields) {
    int64_t v;
    if (f.enumIndex >= 0)
      v = static_cast<int64_t>(rng() % enumSize(EnumKind(f.enumIndex)));
    else if (f.isSigned)
      v = static_cast<int64_t>(rng() % (uint64_t{1} << f.bits)) - (int64_t{1} << (f.bits - 1));
    else
      v = static_cast<int64_t>(rng() & ((uint64_t{1} << std::min(f.bits, 62)) - 1));
    ASSERT_TRUE(setFieldValue(insn, f.name, v));
  }
}

TEST_P(EncodingTest, EveryOpcodeRoundTripsWithRandomFields) {
  Target t = testing::presetTarget(GetParam());
  std::mt19937_64 rng(7);
  std::vector<uint8_t> word(t.insnBytes());
  for (int op = 0; op < kNumOpcodes; ++op)
    for (int trial = 0; trial < 200; ++trial) {
      Instruction insn = makeInstruction(Opcode(op));
      randomFields(t, insn, rng);
      ASSERT_TRUE(encodeInstruction(t, insn, word.data(), {}).isOk());
      auto back = decodeInstruction(t, word.data(), {});
      ASSERT_TRUE(back.isOk()) << back.diag().str();
      ASSERT_EQ(*back, insn) << opcodeName(Opcode(op));
    }
}

TEST_P(EncodingTest, MicroOpsRoundTripAtTheirWidestValues) {
  Target t = testing::presetTarget(GetParam());
  std::vector<uint8_t> word(t.uopBytes());
  const auto& f = t.isa.format(Format::kUop).fields;
  Uop u{(int64_t{1} << f[0].bits) - 1, (int64_t{1} << f[1].bits) - 1, (int64_t{1} << f[2].bits) - 1};
  ASSERT_TRUE(encodeUop(t, u, word.data(), {}).isOk());
  EXPECT_EQ(decodeUop(t, word.data()), u);
}

TEST_P(EncodingTest, ValueWiderThanItsFieldIsAnError) {
  Target t = testing::presetTarget(GetParam());
  Instruction insn = makeInstruction(Opcode::kGemm);
  int bits = 0;
  for (const FieldLayout& f : t.isa.format(Format::kGemm).fields)
    if (f.name == "uop_end") bits = f.bits;
  insn.gemm().uopEnd = int64_t{1} << bits;
  std::vector<uint8_t> word(t.insnBytes());
  support::Status s = encodeInstruction(t, insn, word.data(), support::Location::file("a.s", 9, 3));
  EXPECT_EQ(s.str(), "a.s:9:3: error: field 'uop_end' of GEMM: value " + std::to_string(int64_t{1} << bits) +
                         " does not fit " + std::to_string(bits) + " bits (range 0.." +
                         std::to_string((int64_t{1} << bits) - 1) + ")");
  insn = makeInstruction(Opcode::kAlu);
  insn.alu().imm = -40000;
  EXPECT_EQ(encodeInstruction(t, insn, word.data(), {}).str(),
            "error: field 'imm' of ALU: value -40000 does not fit 16 bits (range -32768..32767)");
}

TEST_P(EncodingTest, IllegalOpcodeAndEnumCodesAreRejected) {
  Target t = testing::presetTarget(GetParam());
  std::vector<uint8_t> word(t.insnBytes(), 0);
  word[0] = 7;  // opcode 7 is undefined
  EXPECT_EQ(decodeInstruction(t, word.data(), support::Location::pc("p.bin", 5)).diag().str(),
            "p.bin:pc 5: error: illegal opcode 7 (the ISA defines 5 opcodes)");
  Instruction load = makeInstruction(Opcode::kLoad);
  ASSERT_TRUE(encodeInstruction(t, load, word.data(), {}).isOk());
  word[0] |= 0x80, word[1] |= 0x03;  // buffer field (bits 7..9) = 7, which no buffer uses
  EXPECT_EQ(decodeInstruction(t, word.data(), support::Location::pc("p.bin", 6)).diag().str(),
            "p.bin:pc 6: error: illegal buffer code 7 in field 'buffer' of LOAD");
}

/// Bits [lo, lo + n) of a little-endian word.
uint64_t bitsAt(const std::vector<uint8_t>& w, int lo, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>((w[(lo + i) / 8] >> ((lo + i) % 8)) & 1) << i;
  return v;
}

TEST_P(EncodingTest, MulIsCodeEightInTheFourBitAluOp) {
  Target t = testing::presetTarget(GetParam());
  FieldLayout op;
  for (const FieldLayout& f : t.isa.format(Format::kAlu).fields)
    if (f.name == "alu_op") op = f;
  ASSERT_EQ(op.bits, 4);
  Instruction insn = makeInstruction(Opcode::kAlu);
  insn.alu().aluOp = static_cast<int64_t>(AluOp::kMul);
  insn.alu().useImm = 1, insn.alu().imm = -1;  // the immediate's bits next to alu_op all set
  std::vector<uint8_t> word(t.insnBytes(), 0);
  ASSERT_TRUE(encodeInstruction(t, insn, word.data(), {}).isOk());
  EXPECT_EQ(bitsAt(word, op.lo, 4), 8u);
  auto back = decodeInstruction(t, word.data(), {});
  ASSERT_TRUE(back.isOk()) << back.diag().str();
  EXPECT_EQ(*back, insn);
  word[(op.lo + 0) / 8] |= static_cast<uint8_t>(1 << ((op.lo + 0) % 8));  // code 9: no operation has it
  EXPECT_EQ(decodeInstruction(t, word.data(), support::Location::pc("p.bin", 3)).diag().str(),
            "p.bin:pc 3: error: illegal alu_op code 9 in field 'alu_op' of ALU");
}

TEST_P(EncodingTest, ReservedBitsMustBeZero) {
  // A word with a reserved bit set decoded as if it were clear, so that
  // disassembling and reassembling it gave other bytes.
  Target t = testing::presetTarget(GetParam());
  for (int op = 0; op < kNumOpcodes; ++op) {
    const FormatLayout& f = t.isa.format(formatOf(Opcode(op)));
    if (f.usedBits == f.wordBits) continue;  // the format fills its word
    std::vector<uint8_t> word(t.insnBytes(), 0);
    ASSERT_TRUE(encodeInstruction(t, makeInstruction(Opcode(op)), word.data(), {}).isOk());
    ASSERT_TRUE(decodeInstruction(t, word.data(), {}).isOk());
    const int bit = f.wordBits - 1;
    word[bit / 8] |= static_cast<uint8_t>(1 << (bit % 8));
    EXPECT_EQ(decodeInstruction(t, word.data(), support::Location::pc("p.bin", 2)).diag().str(),
              "p.bin:pc 2: error: " + std::string(opcodeName(Opcode(op))) + ": reserved bits [" +
                  std::to_string(f.usedBits) + ", " + std::to_string(f.wordBits) + ") are not zero");
  }
}

ACCELC_INSTANTIATE_FOR_PRESETS(EncodingTest);

}  // namespace
}  // namespace accelc::isa
