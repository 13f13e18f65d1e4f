// isa/encoding.cc — bit packing driven by the resolved ISA layout.
#include "isa/encoding.h"

#include <algorithm>
#include <cstring>

namespace accelc::isa {

using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

void putBits(uint8_t* w, int lo, int bits, uint64_t v) {
  for (int i = 0; i < bits; ++i) {
    int b = lo + i;
    uint8_t mask = static_cast<uint8_t>(1u << (b & 7));
    if ((v >> i) & 1)
      w[b >> 3] |= mask;
    else
      w[b >> 3] &= static_cast<uint8_t>(~mask);
  }
}

uint64_t getBits(const uint8_t* w, int lo, int bits) {
  uint64_t v = 0;
  for (int i = 0; i < bits; ++i) {
    int b = lo + i;
    v |= static_cast<uint64_t>((w[b >> 3] >> (b & 7)) & 1) << i;
  }
  return v;
}

/// The raw bits for `v` in field `f`, or an error when it does not fit.
Expected<uint64_t> fieldBits(const Target& t, const FieldLayout& f, int64_t v, const char* what, const Location& loc) {
  if (f.enumIndex >= 0) {
    const auto& codes = t.isa.enumCodes[f.enumIndex];
    if (v < 0 || v >= static_cast<int64_t>(codes.size()))
      return error(loc, std::string("field '") + f.name + "' of " + what + ": no enumerator " + std::to_string(v));
    return static_cast<uint64_t>(codes[v]);
  }
  const int64_t lo = f.isSigned ? -(int64_t{1} << (f.bits - 1)) : 0;
  const int64_t hi = f.isSigned ? (int64_t{1} << (f.bits - 1)) - 1
                                : (f.bits == 64 ? INT64_MAX : (int64_t{1} << f.bits) - 1);
  if (v < lo || v > hi)
    return error(loc, std::string("field '") + f.name + "' of " + what + ": value " + std::to_string(v) +
                          " does not fit " + std::to_string(f.bits) + " bits (range " + std::to_string(lo) + ".." +
                          std::to_string(hi) + ")");
  return static_cast<uint64_t>(v) & (f.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << f.bits) - 1);
}

/// The value of field `f` from its raw bits; false for an unknown enum code.
bool fieldFromBits(const Target& t, const FieldLayout& f, uint64_t raw, int64_t& v) {
  if (f.enumIndex >= 0) {
    const auto& codes = t.isa.enumCodes[f.enumIndex];
    for (size_t i = 0; i < codes.size(); ++i)
      if (static_cast<uint64_t>(codes[i]) == raw) {
        v = static_cast<int64_t>(i);
        return true;
      }
    return false;
  }
  if (f.isSigned && f.bits < 64 && ((raw >> (f.bits - 1)) & 1)) raw |= ~uint64_t{0} << f.bits;
  v = static_cast<int64_t>(raw);
  return true;
}

template <typename T>
Status encodeFields(const Target& t, const T& s, uint8_t* out, const char* what, const Location& loc) {
  const FormatLayout& fl = t.isa.format(FormatTraits<T>::kFormat);
  for (int i = 0; i < FormatTraits<T>::kNumFields; ++i) {
    const FieldLayout& f = fl.fields[i];
    ACCELC_ASSIGN_OR_RETURN(uint64_t raw, fieldBits(t, f, s.*FormatTraits<T>::kMembers[i], what, loc));
    putBits(out, f.lo, f.bits, raw);
  }
  return Status::ok();
}

template <typename T>
Status decodeFields(const Target& t, const uint8_t* in, T& s, const char* what, const Location& loc) {
  const FormatLayout& fl = t.isa.format(FormatTraits<T>::kFormat);
  for (int i = 0; i < FormatTraits<T>::kNumFields; ++i) {
    const FieldLayout& f = fl.fields[i];
    uint64_t raw = getBits(in, f.lo, f.bits);
    if (!fieldFromBits(t, f, raw, s.*FormatTraits<T>::kMembers[i]))
      return error(loc, std::string("illegal ") + enumName(EnumKind(f.enumIndex)) + " code " + std::to_string(raw) +
                            " in field '" + f.name + "' of " + what);
  }
  return Status::ok();
}

}  // namespace

Status encodeInstruction(const Target& t, const Instruction& insn, uint8_t* out, const Location& loc) {
  std::memset(out, 0, t.insnBytes());
  putBits(out, 0, t.isa.opcodeBits, static_cast<uint64_t>(t.isa.opcodeCode[static_cast<int>(insn.opcode)]));
  const char* what = opcodeName(insn.opcode);
  if (insn.fields.index() != static_cast<size_t>(formatOf(insn.opcode)))
    return error(loc, std::string("instruction ") + what + " carries the fields of another format");
  return std::visit([&](const auto& f) { return encodeFields(t, f, out, what, loc); }, insn.fields);
}

Expected<Instruction> decodeInstruction(const Target& t, const uint8_t* in, const Location& loc) {
  uint64_t code = getBits(in, 0, t.isa.opcodeBits);
  for (int op = 0; op < kNumOpcodes; ++op) {
    if (static_cast<uint64_t>(t.isa.opcodeCode[op]) != code) continue;
    Instruction insn = makeInstruction(Opcode(op));
    const char* what = opcodeName(insn.opcode);
    ACCELC_TRY(std::visit([&](auto& f) { return decodeFields(t, in, f, what, loc); }, insn.fields));
    // The bits past the format's fields are reserved: a word with one set is
    // not an instruction (it would not survive disassembly and reassembly).
    const FormatLayout& layout = t.isa.format(formatOf(insn.opcode));
    for (int lo = layout.usedBits; lo < layout.wordBits; lo += 32)
      if (getBits(in, lo, std::min(32, layout.wordBits - lo)) != 0)
        return error(loc, std::string(what) + ": reserved bits [" + std::to_string(layout.usedBits) + ", " +
                              std::to_string(layout.wordBits) + ") are not zero");
    return insn;
  }
  return error(loc, "illegal opcode " + std::to_string(code) + " (the ISA defines " +
                        std::to_string(kNumOpcodes) + " opcodes)");
}

Status encodeUop(const Target& t, const Uop& uop, uint8_t* out, const Location& loc) {
  std::memset(out, 0, t.uopBytes());
  return encodeFields(t, uop, out, "micro-op", loc);
}

Uop decodeUop(const Target& t, const uint8_t* in) {
  Uop u;
  Status s = decodeFields(t, in, u, "micro-op", Location());
  ACCELC_CHECK(s.isOk()) << "micro-ops have no enumerated fields";
  return u;
}

namespace {
template <typename T>
int64_t* findField(T& s, const std::string& name) {
  for (int i = 0; i < FormatTraits<T>::kNumFields; ++i)
    if (name == FormatTraits<T>::kFieldNames[i]) return &(s.*FormatTraits<T>::kMembers[i]);
  return nullptr;
}
}  // namespace

bool fieldValue(const Instruction& insn, const std::string& name, int64_t& value) {
  Instruction copy = insn;
  int64_t* p = std::visit([&](auto& f) { return findField(f, name); }, copy.fields);
  if (p) value = *p;
  return p != nullptr;
}

bool setFieldValue(Instruction& insn, const std::string& name, int64_t value) {
  int64_t* p = std::visit([&](auto& f) { return findField(f, name); }, insn.fields);
  if (p) *p = value;
  return p != nullptr;
}

}  // namespace accelc::isa
