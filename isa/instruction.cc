// isa/instruction.cc — names and helpers of the compiled-in instruction set.
#include "isa/instruction.h"

namespace accelc::isa {

#define ACCELC_ISA_FIELD_EQ(camelName, snake) &&camelName == o.camelName
#define ACCELC_ISA_DEFINE_EQ(Fmt, fmt) \
  bool Fmt##Fields::operator==(const Fmt##Fields& o) const { return true ACCELC_ISA_FIELDS_##Fmt(ACCELC_ISA_FIELD_EQ); }
ACCELC_ISA_FORMATS(ACCELC_ISA_DEFINE_EQ)
#undef ACCELC_ISA_DEFINE_EQ
#undef ACCELC_ISA_FIELD_EQ

Instruction makeInstruction(Opcode op) {
  Instruction i;
  i.opcode = op;
  switch (formatOf(op)) {
    case Format::kMem:
      i.fields = MemInsn{};
      break;
    case Format::kGemm:
      i.fields = GemmInsn{};
      break;
    case Format::kAlu:
      i.fields = AluInsn{};
      break;
    case Format::kFinish:
    case Format::kUop:
      i.fields = FinishInsn{};
      break;
  }
  return i;
}

Format formatOf(Opcode op) {
  switch (op) {
#define ACCELC_ISA_OPCODE_FORMAT(E, N, F) \
  case Opcode::k##E:                      \
    return Format::k##F;
    ACCELC_ISA_OPCODES(ACCELC_ISA_OPCODE_FORMAT)
#undef ACCELC_ISA_OPCODE_FORMAT
  }
  return Format::kFinish;
}

const char* opcodeName(Opcode op) {
  switch (op) {
#define ACCELC_ISA_OPCODE_NAME(E, N, F) \
  case Opcode::k##E:                    \
    return #N;
    ACCELC_ISA_OPCODES(ACCELC_ISA_OPCODE_NAME)
#undef ACCELC_ISA_OPCODE_NAME
  }
  return "?";
}

const char* formatName(Format f) {
  switch (f) {
#define ACCELC_ISA_FORMAT_NAME(E, n) \
  case Format::k##E:                 \
    return #n;
    ACCELC_ISA_FORMATS(ACCELC_ISA_FORMAT_NAME)
#undef ACCELC_ISA_FORMAT_NAME
  }
  return "?";
}

#define ACCELC_ISA_VALUE_NAME(E, n) #n,
static const char* const kBufferNames[] = {ACCELC_ISA_ENUM_Buffer(ACCELC_ISA_VALUE_NAME)};
static const char* const kAluOpNames[] = {ACCELC_ISA_ENUM_AluOp(ACCELC_ISA_VALUE_NAME)};
static const char* const kEnumNames[] = {ACCELC_ISA_ENUMS(ACCELC_ISA_VALUE_NAME)};
#undef ACCELC_ISA_VALUE_NAME

const char* bufferName(Buffer b) { return kBufferNames[static_cast<int>(b)]; }
const char* aluOpName(AluOp op) { return kAluOpNames[static_cast<int>(op)]; }
const char* enumName(EnumKind e) { return kEnumNames[static_cast<int>(e)]; }

int enumSize(EnumKind e) {
  switch (e) {
    case EnumKind::kBuffer:
      return kNumBuffers;
    case EnumKind::kAluOp:
      return kNumAluOps;
  }
  return 0;
}

const char* enumValueName(EnumKind e, int v) {
  switch (e) {
    case EnumKind::kBuffer:
      return kBufferNames[v];
    case EnumKind::kAluOp:
      return kAluOpNames[v];
  }
  return "?";
}

Deps depsOf(const Instruction& insn) {
  return std::visit(
      [](const auto& f) { return Deps{f.popPrev != 0, f.popNext != 0, f.pushPrev != 0, f.pushNext != 0}; },
      insn.fields);
}

void setDeps(Instruction& insn, const Deps& d) {
  std::visit(
      [&](auto& f) {
        f.popPrev = d.popPrev;
        f.popNext = d.popNext;
        f.pushPrev = d.pushPrev;
        f.pushNext = d.pushNext;
      },
      insn.fields);
}

}  // namespace accelc::isa
