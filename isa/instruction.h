// isa/instruction.h — the compiled-in instruction set: opcodes, formats,
// enumerations and one typed struct per format.
//
// All of it comes from isa/vta.isa.yaml at build time (isa/isa_def.inc, made
// by accelc_isa_gen): adding a field there adds a member here. Widths, bit
// positions and codes are not here; they are resolved at run time by
// isa/target.h. Field values are held as int64_t; enumerated fields (buffer,
// alu_op) hold the C++ enumerator, not its encoded value. The semantics of
// every instruction are in docs/isa.md.
#ifndef ACCELC_ISA_INSTRUCTION_H_
#define ACCELC_ISA_INSTRUCTION_H_

#include <cstdint>
#include <variant>

#include "isa/isa_def.inc"

namespace accelc::isa {

/// Instruction opcodes (LOAD, STORE, GEMM, ALU, FINISH).
enum class Opcode {
#define ACCELC_ISA_OPCODE_ENUM(E, N, F) k##E,
  ACCELC_ISA_OPCODES(ACCELC_ISA_OPCODE_ENUM)
#undef ACCELC_ISA_OPCODE_ENUM
};

/// Encoding formats; kUop is the micro-op word, the others instruction words.
enum class Format {
#define ACCELC_ISA_FORMAT_ENUM(E, n) k##E,
  ACCELC_ISA_FORMATS(ACCELC_ISA_FORMAT_ENUM)
#undef ACCELC_ISA_FORMAT_ENUM
};

/// Values of the `buffer` field.
enum class Buffer {
#define ACCELC_ISA_ENUM_VALUE(E, n) k##E,
  ACCELC_ISA_ENUM_Buffer(ACCELC_ISA_ENUM_VALUE)
};

/// Values of the `alu_op` field.
enum class AluOp { ACCELC_ISA_ENUM_AluOp(ACCELC_ISA_ENUM_VALUE) };

/// The enumerations of the ISA (which enumerated field uses which).
enum class EnumKind { ACCELC_ISA_ENUMS(ACCELC_ISA_ENUM_VALUE) };
#undef ACCELC_ISA_ENUM_VALUE

#define ACCELC_ISA_COUNT(...) +1
inline constexpr int kNumOpcodes = 0 ACCELC_ISA_OPCODES(ACCELC_ISA_COUNT);
inline constexpr int kNumFormats = 0 ACCELC_ISA_FORMATS(ACCELC_ISA_COUNT);
inline constexpr int kNumEnums = 0 ACCELC_ISA_ENUMS(ACCELC_ISA_COUNT);
inline constexpr int kNumBuffers = 0 ACCELC_ISA_ENUM_Buffer(ACCELC_ISA_COUNT);
inline constexpr int kNumAluOps = 0 ACCELC_ISA_ENUM_AluOp(ACCELC_ISA_COUNT);
#undef ACCELC_ISA_COUNT

// One struct per format: MemFields, GemmFields, AluFields, FinishFields, UopFields.
#define ACCELC_ISA_DECLARE_FIELD(camelName, snake) int64_t camelName = 0;
#define ACCELC_ISA_DECLARE_STRUCT(Fmt, fmt) \
  struct Fmt##Fields {                      \
    ACCELC_ISA_FIELDS_##Fmt(ACCELC_ISA_DECLARE_FIELD)  \
    bool operator==(const Fmt##Fields& o) const;       \
  };
ACCELC_ISA_FORMATS(ACCELC_ISA_DECLARE_STRUCT)
#undef ACCELC_ISA_DECLARE_STRUCT
#undef ACCELC_ISA_DECLARE_FIELD

/// Compile-time facts about a format struct: its Format, name, members.
template <typename T>
struct FormatTraits;
#define ACCELC_ISA_MEMBER_PTR(camelName, snake) &Self::camelName,
#define ACCELC_ISA_MEMBER_NAME(camelName, snake) #snake,
#define ACCELC_ISA_DECLARE_TRAITS(Fmt, fmt)                                              \
  template <>                                                                            \
  struct FormatTraits<Fmt##Fields> {                                                     \
    using Self = Fmt##Fields;                                                            \
    static constexpr Format kFormat = Format::k##Fmt;                                    \
    static constexpr const char* kName = #fmt;                                           \
    static constexpr int64_t Self::*kMembers[] = {ACCELC_ISA_FIELDS_##Fmt(ACCELC_ISA_MEMBER_PTR)}; \
    static constexpr const char* kFieldNames[] = {ACCELC_ISA_FIELDS_##Fmt(ACCELC_ISA_MEMBER_NAME)}; \
    static constexpr int kNumFields = sizeof(kFieldNames) / sizeof(kFieldNames[0]);     \
  };
ACCELC_ISA_FORMATS(ACCELC_ISA_DECLARE_TRAITS)
#undef ACCELC_ISA_DECLARE_TRAITS
#undef ACCELC_ISA_MEMBER_NAME
#undef ACCELC_ISA_MEMBER_PTR

using MemInsn = MemFields;
using GemmInsn = GemmFields;
using AluInsn = AluFields;
using FinishInsn = FinishFields;
using Uop = UopFields;

/// One decoded instruction: the opcode and the fields of its format.
struct Instruction {
  Opcode opcode = Opcode::kFinish;  ///< what the instruction does
  std::variant<MemInsn, GemmInsn, AluInsn, FinishInsn> fields;  ///< alternative = format of opcode

  bool operator==(const Instruction& o) const { return opcode == o.opcode && fields == o.fields; }
  MemInsn& mem() { return std::get<MemInsn>(fields); }
  const MemInsn& mem() const { return std::get<MemInsn>(fields); }
  GemmInsn& gemm() { return std::get<GemmInsn>(fields); }
  const GemmInsn& gemm() const { return std::get<GemmInsn>(fields); }
  AluInsn& alu() { return std::get<AluInsn>(fields); }
  const AluInsn& alu() const { return std::get<AluInsn>(fields); }
};

/// The dependency-token flags every instruction format carries.
struct Deps {
  bool popPrev = false, popNext = false, pushPrev = false, pushNext = false;
};

/// Builds an instruction of `op` with all fields zero.
Instruction makeInstruction(Opcode op);
/// The format that encodes `op`.
Format formatOf(Opcode op);
/// "LOAD", "GEMM", ...
const char* opcodeName(Opcode op);
/// "mem", "gemm", ...
const char* formatName(Format f);
/// "inp", "acc8", ... (the ISA YAML's names).
const char* bufferName(Buffer b);
/// "add", "shrr", ...
const char* aluOpName(AluOp op);
/// "buffer", "alu_op".
const char* enumName(EnumKind e);
/// Number of values of enumeration `e`.
int enumSize(EnumKind e);
/// Name of value `v` of enumeration `e`.
const char* enumValueName(EnumKind e, int v);
/// The token flags of `insn`.
Deps depsOf(const Instruction& insn);
/// Sets the token flags of `insn`.
void setDeps(Instruction& insn, const Deps& d);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_INSTRUCTION_H_
