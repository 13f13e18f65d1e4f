// tests/simulator/rtl_decode_test.cc — the RTL's LOAD/STORE decoder
// (hls/rtl/accelc_mem_decode.sv with the generated accelc_isa_pkg, verilated
// per preset) reads back every field of random instructions that the C++
// encoder wrote.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "isa/encoding.h"
#include "isa/target.h"
#include "tests/simulator/rtl_util.h"
#include "tests/test_util.h"

namespace accelc::isa {
namespace {

class RtlDecodeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RtlDecodeTest, RandomLoadsAndStoresDecodeToTheirFields) {
  Target t = testing::presetTarget(GetParam());
  const FormatLayout& mem = t.isa.format(Format::kMem);
  std::mt19937_64 g(7);
  std::ostringstream in, want;
  const int words = t.insnBytes() / 4, count = 300;
  in << words << " " << count << "\n";
  for (int i = 0; i < count; ++i) {
    Instruction insn = makeInstruction(g() % 2 ? Opcode::kLoad : Opcode::kStore);
    want << t.isa.opcodeCode[static_cast<size_t>(insn.opcode)];
    for (int f : mem.order) {
      const FieldLayout& fl = mem.fields[static_cast<size_t>(f)];
      const uint64_t mask = fl.bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << fl.bits) - 1;
      int64_t value = static_cast<int64_t>(g() & mask), raw = value;
      if (fl.enumIndex >= 0) {  // a C++ enumerator; the word holds its code
        const std::vector<int64_t>& codes = t.isa.enumCodes[static_cast<size_t>(fl.enumIndex)];
        value = static_cast<int64_t>(g() % codes.size()), raw = codes[static_cast<size_t>(value)];
      } else if (fl.isSigned) {
        value = static_cast<int64_t>(g() % (uint64_t{1} << (fl.bits - 1)));
        raw = value;
      }
      ASSERT_TRUE(setFieldValue(insn, fl.name, value)) << fl.name;
      want << " " << raw;
    }
    want << "\n";
    std::vector<uint8_t> bytes(static_cast<size_t>(t.insnBytes()));
    ASSERT_TRUE(encodeInstruction(t, insn, bytes.data(), support::Location()).isOk());
    for (int w = 0; w < words; ++w) {
      uint32_t v = 0;
      for (int b = 3; b >= 0; --b) v = v << 8 | bytes[static_cast<size_t>(4 * w + b)];
      in << std::hex << v << std::dec << (w + 1 < words ? " " : "\n");
    }
  }
  EXPECT_EQ(testing::runVerilated(GetParam(), "mem_decode", in.str()), want.str());
}

ACCELC_INSTANTIATE_FOR_RTL_PRESETS(RtlDecodeTest);

}  // namespace
}  // namespace accelc::isa
