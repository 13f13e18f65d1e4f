// hls/hls_gen.cc — accelc_params.h from the target, and the embedded sources.
#include "hls/hls_gen.h"

#include <sstream>

#include "isa/instruction.h"
#include "isa/semantics.h"
#include "isa/tokens.h"
#include "support/yaml.h"

namespace accelc::hls {

namespace {

struct Embedded {
  const char* name;  ///< file name
  const char* text;  ///< its contents
};
/// hls/cpp/*, then isa/arith_ops.h.
const Embedded kHlsSources[] = {
#include "hls/hls_sources.inc"
};
/// hls/csim/*.
const Embedded kCsimSources[] = {
#include "hls/csim_sources.inc"
};

/// The project's name for an embedded file (isa/arith_ops.h travels as accelc_arith_ops.h).
std::string projectName(const std::string& name) { return name == "arith_ops.h" ? "accelc_arith_ops.h" : name; }

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// The C struct and decoder of one format: `<fmt>_insn_t decode_<fmt>(word)`
/// (uop_t decode_uop for the micro-op word), one int64_t per field.
template <typename Fields>
void decoder(const isa::Target& t, std::ostringstream& o) {
  using Traits = isa::FormatTraits<Fields>;
  const isa::FormatLayout& f = t.isa.format(Traits::kFormat);
  const bool uop = !f.hasOpcode;
  const std::string type = uop ? "uop_t" : std::string(Traits::kName) + "_insn_t";
  const std::string word = uop ? "uop_word_t" : "insn_word_t";
  o << "\n/// The " << Traits::kName << " format: " << f.doc << "\nstruct " << type << " {\n";
  for (int i = 0; i < Traits::kNumFields; ++i) o << "  int64_t " << Traits::kFieldNames[i] << ";\n";
  o << "};\nstatic inline " << type << " decode_" << Traits::kName << "(const " << word << "& w) {\n  " << type
    << " d;\n";
  for (int i = 0; i < Traits::kNumFields; ++i) {
    const isa::FieldLayout& fl = f.fields[static_cast<size_t>(i)];
    o << "  d." << Traits::kFieldNames[i] << " = " << (fl.isSigned ? "field_s" : "field_u") << "(w, " << fl.lo << ", "
      << fl.bits << ");\n";
  }
  o << "  return d;\n}\n";
}

/// `#define NAME value` lines of the codes of one enumeration.
void enumCodes(const isa::Target& t, isa::EnumKind e, const std::string& prefix, std::ostringstream& o) {
  const std::vector<int64_t>& codes = t.isa.enumCodes[static_cast<size_t>(e)];
  for (size_t v = 0; v < codes.size(); ++v)
    o << "#define " << prefix << upper(isa::enumValueName(e, static_cast<int>(v))) << " " << codes[v] << "\n";
}

/// A function `name(code)` that answers per code of enumeration `e`, else `otherwise`.
template <typename Fn>
void perCode(const isa::Target& t, isa::EnumKind e, const std::string& sig, const std::string& otherwise, Fn answer,
             std::ostringstream& o) {
  o << "static inline " << sig << " {\n";
  const std::vector<int64_t>& codes = t.isa.enumCodes[static_cast<size_t>(e)];
  for (size_t v = 0; v < codes.size(); ++v)
    o << "  if (code == " << codes[v] << ") return " << answer(static_cast<int>(v)) << ";\n";
  o << "  return " << otherwise << ";\n}\n";
}

void constants(const isa::Target& t, std::ostringstream& o) {
  using hwspec::BufferKind;
  const hwspec::HwSpec& s = t.spec;
  int64_t maxEntry = 0;
  for (int b = 0; b < isa::kNumBuffers; ++b) maxEntry = std::max(maxEntry, isa::dramEntryBytes(s, isa::Buffer(b)));
  int immBits = 32;
  for (const isa::FieldLayout& f : t.isa.format(isa::Format::kAlu).fields)
    if (f.name == "imm") immBits = f.bits;
  o << "#define ACCELC_HWSPEC_HASH 0x" << std::hex << t.hash << std::dec << "ull\n"
    << "#define BATCH " << s.batch << "\n#define BLOCK_IN " << s.blockIn << "\n#define BLOCK_OUT " << s.blockOut << "\n"
    << "#define UOP_DEPTH " << s.depth(BufferKind::kUop) << "\n#define INP_DEPTH " << s.depth(BufferKind::kInput)
    << "\n#define WGT_DEPTH " << s.depth(BufferKind::kWeight) << "\n#define ACC_DEPTH " << s.depth(BufferKind::kAcc)
    << "\n#define OUT_DEPTH " << s.depth(BufferKind::kOutput) << "\n"
    << "#define INSN_BITS " << s.insnBits << "\n#define INSN_BYTES " << s.insnBits / 8 << "\n#define UOP_BITS "
    << s.uopBits << "\n#define UOP_BYTES " << s.uopBits / 8 << "\n"
    << "#define DRAM_BEAT_BYTES " << s.dramBytesPerCycle << "\n#define DRAM_BEAT_BITS " << 8 * s.dramBytesPerCycle
    << "\n#define MAX_ENTRY_BYTES " << maxEntry << "\n"
    << "#define CMD_DEPTH " << s.commandDepth << "\n#define TOKEN_DEPTH " << s.tokenDepth << "\n"
    << "#define GEMM_II " << s.timing.gemmIi << "\n#define ALU_II " << s.timing.aluIi << "\n"
    << "#define ALU_IMM_BITS " << immBits << "\n"
    << "#define NUM_OPCODES " << isa::kNumOpcodes << "\n#define NUM_SRAMS " << hwspec::kNumBuffers
    << "\n#define NUM_TOKEN_QUEUES " << isa::kNumTokenQueues << "\n";
  o << "\n// Buffer kinds (hwspec order), opcodes (isa order) and token queues (isa/tokens.h order).\n";
  for (int b = 0; b < hwspec::kNumBuffers; ++b)
    o << "#define SRAM_" << upper(hwspec::bufferKindName(BufferKind(b))) << " " << b << "\n";
  for (int op = 0; op < isa::kNumOpcodes; ++op) o << "#define OP_" << isa::opcodeName(isa::Opcode(op)) << " " << op << "\n";
  for (int q = 0; q < isa::kNumTokenQueues; ++q) {
    std::string n = upper(isa::kQueueNames[q]);
    n.replace(n.find("->"), 2, "_TO_");
    o << "#define Q_" << n << " " << q << "\n";
  }
  o << "\n// Codes of the encoding.\n#define OPCODE_BITS " << t.isa.opcodeBits << "\n";
  for (int op = 0; op < isa::kNumOpcodes; ++op)
    o << "#define OPCODE_" << isa::opcodeName(isa::Opcode(op)) << " " << t.isa.opcodeCode[static_cast<size_t>(op)]
      << "\n";
  enumCodes(t, isa::EnumKind::kBuffer, "BUFFER_", o);
  enumCodes(t, isa::EnumKind::kAluOp, "ALU_OP_", o);
}

void functions(const isa::Target& t, std::ostringstream& o) {
  const hwspec::HwSpec& s = t.spec;
  o << "\ntypedef ap_uint<INSN_BITS> insn_word_t;\ntypedef ap_uint<UOP_BITS> uop_word_t;\n\n"
    << "/// Bits [lo, lo + bits) of a word, unsigned or sign-extended.\n"
    << "template <int W>\nstatic inline int64_t field_u(const ap_uint<W>& w, int lo, int bits) {\n"
    << "  return static_cast<int64_t>(w.range(lo + bits - 1, lo).to_uint64());\n}\n"
    << "template <int W>\nstatic inline int64_t field_s(const ap_uint<W>& w, int lo, int bits) {\n"
    << "  const int64_t v = field_u(w, lo, bits);\n"
    << "  return bits < 64 && (v >> (bits - 1)) & 1 ? v - (static_cast<int64_t>(1) << bits) : v;\n}\n"
    << "static inline int64_t opcode_code(const insn_word_t& w) { return field_u(w, 0, OPCODE_BITS); }\n";
  decoder<isa::MemFields>(t, o);
  decoder<isa::GemmFields>(t, o);
  decoder<isa::AluFields>(t, o);
  decoder<isa::FinishFields>(t, o);
  decoder<isa::UopFields>(t, o);
  o << "\n/// The opcode's index (OP_*), or -1 for a code the ISA does not define.\n"
    << "static inline int opcode_index(int64_t code) {\n";
  for (int op = 0; op < isa::kNumOpcodes; ++op)
    o << "  if (code == OPCODE_" << isa::opcodeName(isa::Opcode(op)) << ") return OP_" << isa::opcodeName(isa::Opcode(op))
      << ";\n";
  o << "  return -1;\n}\n\n";
  o << "/// Per buffer code: the buffer kind it addresses (SRAM_*), or -1.\n";
  perCode(t, isa::EnumKind::kBuffer, "int sram_of(int64_t code)", "-1",
          [](int v) { return std::to_string(static_cast<int>(isa::sramOf(isa::Buffer(v)))); }, o);
  o << "/// Per buffer code: bytes of one DRAM element of its transfers.\n";
  perCode(t, isa::EnumKind::kBuffer, "int64_t dram_entry_bytes(int64_t code)", "1",
          [&](int v) { return std::to_string(isa::dramEntryBytes(s, isa::Buffer(v))); }, o);
  o << "/// Per ALU code: its arithmetic (isa::arith::AluIndex), or -1.\n";
  perCode(t, isa::EnumKind::kAluOp, "int alu_index(int64_t code)", "-1", [](int v) { return std::to_string(v); }, o);
  o << "/// Per ALU code: whether this hardware's ALU implements it (alu.ops).\n";
  perCode(t, isa::EnumKind::kAluOp, "bool alu_op_in_hardware(int64_t code)", "false",
          [&](int v) { return s.hasAluOp(isa::aluOpName(isa::AluOp(v))) ? "true" : "false"; }, o);
  o << "\n/// Per buffer kind: entries, and bytes of one entry.\nstatic inline int64_t sram_depth(int k) {\n";
  for (int b = 0; b < hwspec::kNumBuffers; ++b)
    o << "  if (k == " << b << ") return " << s.depth(hwspec::BufferKind(b)) << ";\n";
  o << "  return 0;\n}\nstatic inline int64_t sram_entry_bytes(int k) {\n";
  for (int b = 0; b < hwspec::kNumBuffers; ++b)
    o << "  if (k == " << b << ") return " << s.entryBytes(hwspec::BufferKind(b)) << ";\n";
  o << "  return 0;\n}\n\n"
    << "/// Whether the opcode and every enumerated field hold codes the ISA defines.\n"
    << "static inline bool codes_legal(const insn_word_t& w) {\n"
    << "  const int64_t op = opcode_code(w);\n  if (opcode_index(op) < 0) return false;\n"
    << "  if (op == OPCODE_LOAD || op == OPCODE_STORE) return sram_of(decode_mem(w).buffer) >= 0;\n"
    << "  if (op == OPCODE_ALU) return alu_index(decode_alu(w).alu_op) >= 0;\n  return true;\n}\n\n"
    << "/// The ALU's operand from an immediate, and one lane (isa/arith_ops.h).\n"
    << "static inline int32_t alu_immediate(int64_t code, int64_t imm) {\n"
    << "  return accelc::isa::arith::aluImmediateOf(alu_index(code), imm, ALU_IMM_BITS);\n}\n"
    << "static inline int32_t alu_apply(int64_t code, int32_t a, int32_t b) {\n"
    << "  return accelc::isa::arith::aluLane(alu_index(code), a, b);\n}\n";
}

/// The binding as macros the sources' pragmas name.
void binding(const HlsBinding& b, std::ostringstream& o) {
  o << "\n// The binding on the target part (hls/hls_estimate.h): GEMM products on DSPs (the rest in\n"
    << "// fabric), and each buffer's memory.\n#define GEMM_DSP_PRODUCTS " << b.dspProducts << "\n";
  for (int k = 0; k < hwspec::kNumBuffers; ++k)
    o << "#define IMPL_" << upper(hwspec::bufferKindName(hwspec::BufferKind(k))) << " "
      << (b.uram[static_cast<size_t>(k)] ? "uram" : "bram") << "\n";
}

}  // namespace

std::string hlsParams(const isa::Target& t) { return hlsParams(t, bindOnPart(t.spec)); }

std::string hlsParams(const isa::Target& t, const HlsBinding& b) {
  std::ostringstream o;
  o << "// accelc_params.h: generated by accelc from hwspec '" << t.spec.name << "' and the ISA '" << t.spec.isaFile
    << "'; do not edit.\n#ifndef ACCELC_PARAMS_H_\n#define ACCELC_PARAMS_H_\n\n#include <stdint.h>\n\n"
    << "#include \"ap_int.h\"\n#include \"accelc_arith_ops.h\"\n\n";
  constants(t, o);
  binding(b, o);
  functions(t, o);
  o << "\n#endif  // ACCELC_PARAMS_H_\n";
  return o.str();
}

support::Status hlsSupports(const hwspec::HwSpec& hw) {
  using hwspec::ElemType;
  if (hw.inputType != ElemType::kInt8 || hw.weightType != ElemType::kInt8 || hw.outputType != ElemType::kInt8 ||
      hw.accType != ElemType::kInt32)
    return support::error(hw.locOf("dtypes"), "the HLS C++ implements int8 inputs, weights and outputs with int32 "
                                              "accumulators only");
  return support::Status::ok();
}

std::vector<std::string> hlsFiles() {
  std::vector<std::string> files = {"accelc_params.h"};
  for (const Embedded& e : kHlsSources) files.push_back(projectName(e.name));
  return files;
}

support::Status writeHls(const isa::Target& t, const std::string& dir) {
  return writeHls(t, dir, bindOnPart(t.spec));
}

support::Status writeHls(const isa::Target& t, const std::string& dir, const HlsBinding& b) {
  ACCELC_TRY(hlsSupports(t.spec));
  if (!support::makeDirs(dir)) return support::error(support::Location::file(dir), "cannot create the folder");
  ACCELC_TRY(support::writeTextFile(dir + "/accelc_params.h", hlsParams(t, b)));
  for (const Embedded& e : kHlsSources) ACCELC_TRY(support::writeTextFile(dir + "/" + projectName(e.name), e.text));
  return support::Status::ok();
}

const std::vector<std::pair<std::string, std::string>>& csimSources() {
  static const std::vector<std::pair<std::string, std::string>> all = [] {
    std::vector<std::pair<std::string, std::string>> v;
    for (const Embedded& e : kCsimSources) v.emplace_back(e.name, e.text);
    return v;
  }();
  return all;
}

std::string hlsSourceTexts() {
  std::string all;
  for (const Embedded& e : kHlsSources) all += e.text;
  for (const Embedded& e : kCsimSources) all += e.text;
  return all;
}

}  // namespace accelc::hls
