// tests/fuzz/fuzz_isa.cc — ISA YAML: resolve the layout on every preset; an
// instruction of each format encodes and decodes back to itself.
#include "fuzz_util.h"
#include "isa/encoding.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  const std::string text = fuzz::text(data, size);
  for (const char* name : {"vta-default", "tiny"}) {
    auto t = isa::makeTarget(fuzz::preset(name).spec, text, "fuzz.isa.yaml");
    if (!t) continue;
    for (isa::Opcode op : {isa::Opcode::kLoad, isa::Opcode::kGemm, isa::Opcode::kAlu, isa::Opcode::kFinish}) {
      const isa::Instruction insn = isa::makeInstruction(op);
      std::vector<uint8_t> word(t->insnBytes());
      if (!isa::encodeInstruction(*t, insn, word.data(), support::Location()).isOk()) continue;
      auto back = isa::decodeInstruction(*t, word.data(), support::Location());
      FUZZ_EXPECT(back.isOk() && *back == insn, "an encoded instruction decodes to itself");
    }
  }
  return 0;
}
