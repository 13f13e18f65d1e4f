// tests/isa/program_test.cc — the binary program container.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/program.h"
#include "tests/test_util.h"

namespace accelc::isa {
namespace {

Program example() {
  auto p = assembleFile(testing::sourceDir() + "/examples/dense_relu.s", std::nullopt);
  EXPECT_TRUE(p.isOk()) << (p ? "" : p.diag().str());
  return *p;
}

TEST(ProgramTest, WriteThenReadIsIdentical) {
  Program p = example();
  auto back = readProgram(writeProgram(p), "p.bin");
  ASSERT_TRUE(back.isOk()) << back.diag().str();
  EXPECT_EQ(*back, p);
  EXPECT_EQ(writeProgram(*back), writeProgram(p));
}

TEST(ProgramTest, CarriesItsTargetAndChecksTheHash) {
  Program p = example();
  auto t = programTarget(p, "p.bin");
  ASSERT_TRUE(t.isOk()) << t.diag().str();
  EXPECT_EQ(t->spec.name, "vta-default");
  EXPECT_EQ(t->hash, p.hash);
  EXPECT_TRUE(checkProgramTarget(p, *t, "p.bin").isOk());
  Target tiny = testing::presetTarget("tiny");
  std::string msg = checkProgramTarget(p, tiny, "p.bin").str();
  EXPECT_EQ(msg.substr(0, msg.find("(hash")),
            "p.bin: error: hwspec hash mismatch: the program was built for 'vta-default' ");
  EXPECT_NE(msg.find("but the given hwspec is 'tiny'"), std::string::npos);
}

TEST(ProgramTest, CorruptHashIsDetected) {
  Program p = example();
  p.hash ^= 1;
  auto bad = readProgram(writeProgram(p), "p.bin");
  ASSERT_TRUE(bad.isOk());
  std::string msg = programTarget(*bad, "p.bin").diag().str();
  EXPECT_EQ(msg.substr(0, 43), "p.bin: error: hwspec hash mismatch: the pro");
  EXPECT_NE(msg.find("the file is corrupt"), std::string::npos);
}

TEST(ProgramTest, TruncatedFileSaysWhatIsMissing) {
  std::vector<uint8_t> bytes = writeProgram(example());
  bytes.resize(bytes.size() - 100);
  auto r = readProgram(bytes, "cut.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str().substr(0, 70),
            "cut.bin: error: truncated program: program section 'symbols' declares ");
  std::vector<uint8_t> tiny(bytes.begin(), bytes.begin() + 10);
  EXPECT_EQ(readProgram(tiny, "cut.bin").diag().str(),
            "cut.bin: error: truncated program: the header needs 20 bytes, the file has 10");
}

TEST(ProgramTest, BadMagicAndVersion) {
  std::vector<uint8_t> bytes = writeProgram(example());
  std::vector<uint8_t> other = bytes;
  other[0] = 'X';
  EXPECT_EQ(readProgram(other, "x.bin").diag().str(), "x.bin: error: not an accelc program: bad magic (expected ACXPROG)");
  other = bytes;
  other[8] = 1;  // the format before sections and checksums
  EXPECT_EQ(readProgram(other, "x.bin").diag().str(),
            "x.bin: error: program format version 1 is not this accelc's version 3: rebuild it with this accelc "
            "(accelc asm or accelc compile)");
  other = bytes;
  other[8] = 2;  // sections and checksums, but the 3-bit alu_op before mul
  EXPECT_EQ(readProgram(other, "x.bin").diag().str(),
            "x.bin: error: program format version 2 is not this accelc's version 3: rebuild it with this accelc "
            "(accelc asm or accelc compile)");
  other = bytes;
  other[8] = 9;  // a newer version, or a damaged header
  EXPECT_EQ(readProgram(other, "x.bin").diag().str(), "x.bin: error: program header is corrupt (checksum mismatch)");
}

TEST(ProgramTest, EachSectionsChecksumNamesTheSection) {
  const std::vector<uint8_t> bytes = writeProgram(example());
  // Flip one bit in the last byte of every section: the last section ends the file.
  auto sectionEnd = [&](size_t k) {
    size_t pos = 20;
    for (size_t i = 0; i <= k; ++i) {
      uint64_t size = 0;
      for (int b = 0; b < 8; ++b) size |= static_cast<uint64_t>(bytes[pos + 8 + b]) << (8 * b);
      pos += 20 + size;
    }
    return pos;
  };
  const char* names[] = {"target", "segments", "symbols", "labels"};
  for (size_t k = 0; k < 4; ++k) {
    std::vector<uint8_t> bad = bytes;
    bad[sectionEnd(k) - 1] ^= 0x10;
    EXPECT_EQ(readProgram(bad, "f.bin").diag().str(),
              std::string("f.bin: error: program section '") + names[k] + "' is corrupt (checksum mismatch)");
  }
  EXPECT_EQ(sectionEnd(3), bytes.size());
}

TEST(ProgramTest, ValidationFindsOverlapsAndWindowOverflow) {
  Program p = example();
  Target t = *programTarget(p, "p.bin");
  Program q = p;
  q.segments[1].addr = q.segments[0].addr + 4;
  EXPECT_NE(validateProgram(q, t, "p.bin").str().find("overlap"), std::string::npos);
  q = p;
  q.symbols[0].addr = q.window;
  EXPECT_EQ(validateProgram(q, t, "p.bin").str(),
            "p.bin: error: symbol 'x' lies outside the window of " + std::to_string(p.window) + " bytes");
}

}  // namespace
}  // namespace accelc::isa
