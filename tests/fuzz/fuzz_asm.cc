// tests/fuzz/fuzz_asm.cc — assembly text: assemble; a program that
// assembles disassembles and reassembles to the same bytes, and its binary
// form reads back to the same program.
#include "fuzz_util.h"
#include "isa/assembler.h"
#include "isa/disassembler.h"
#include "isa/program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  const isa::Target& t = fuzz::preset("vta-default");
  auto p = isa::assemble(fuzz::text(data, size), "fuzz.s", t);
  if (!p) return 0;
  const std::vector<uint8_t> bin = isa::writeProgram(*p);
  auto back = isa::readProgram(bin, "fuzz.bin");
  FUZZ_EXPECT(back.isOk() && *back == *p, "a program's binary form reads back");
  auto text = isa::disassemble(*p, t, "fuzz.bin");
  FUZZ_EXPECT(text.isOk(), "an assembled program disassembles");
  auto again = isa::assemble(*text, "fuzz.dis.s", t);
  FUZZ_EXPECT(again.isOk(), "disassembly reassembles");
  FUZZ_EXPECT(isa::writeProgram(*again) == bin, "disassembly reassembles to the same bytes");
  return 0;
}
