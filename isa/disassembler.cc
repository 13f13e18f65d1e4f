// isa/disassembler.cc — Program -> assembly text (inverse of the assembler).
#include "isa/disassembler.h"

#include <cstdio>
#include <sstream>

#include "isa/encoding.h"

namespace accelc::isa {

using support::Expected;

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

template <typename T>
void formatFields(const Target& t, const T& s, std::ostringstream& o) {
  const FormatLayout& fl = t.isa.format(FormatTraits<T>::kFormat);
  for (int idx : fl.order) {
    const FieldLayout& f = fl.fields[idx];
    int64_t v = s.*FormatTraits<T>::kMembers[idx];
    if (f.enumIndex >= 0)
      o << " " << f.name << "=" << enumValueName(EnumKind(f.enumIndex), static_cast<int>(v));
    else if (f.bits == 1 && !f.isSigned && v)
      o << " " << f.name;
    else if (v != 0)
      o << " " << f.name << "=" << v;
  }
}

void writeSymbol(const Program& p, const Symbol& s, std::ostringstream& o) {
  o << "." << symbolRoleName(s.role) << " " << s.name << " " << hex(s.addr) << " " << support::dtypeName(s.dtype)
    << " " << support::shapeStr(s.shape) << "\n";
  if (s.role != SymbolRole::kConst) return;
  const Segment* seg = p.findSegment(s.name);
  if (!seg) return;
  for (size_t i = 0; i < seg->bytes.size(); i += 16) {
    o << ".byte";
    for (size_t j = i; j < seg->bytes.size() && j < i + 16; ++j) {
      char b[4];
      std::snprintf(b, sizeof b, " %02x", seg->bytes[j]);
      o << b;
    }
    o << "\n";
  }
}

void writeUops(const Target& t, const Segment& seg, std::ostringstream& o) {
  o << ".uops " << seg.name << " " << hex(seg.addr) << "\n";
  for (size_t i = 0; i + t.uopBytes() <= seg.bytes.size(); i += t.uopBytes()) {
    Uop u = decodeUop(t, seg.bytes.data() + i);
    o << "uop " << u.dst << " " << u.src << " " << u.wgt << "\n";
  }
}

}  // namespace

std::string formatInstruction(const Target& t, const Instruction& insn) {
  std::ostringstream o;
  o << opcodeName(insn.opcode);
  std::visit([&](const auto& f) { formatFields(t, f, o); }, insn.fields);
  return o.str();
}

Expected<std::string> disassemble(const Program& p, const Target& t, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(std::vector<Instruction> insns, decodeText(p, t, name));
  std::ostringstream o;
  o << "; accelc program for hwspec '" << t.spec.name << "'\n";
  o << ".hw " << t.spec.name << "\n.window " << p.window << "\n";
  for (const Symbol& s : p.symbols) writeSymbol(p, s, o);
  for (const Segment& s : p.segments)
    if (s.role == SegmentRole::kUops) writeUops(t, s, o);
  o << ".text " << hex(p.text().addr) << "\n";
  size_t li = 0;
  for (size_t pc = 0; pc < insns.size(); ++pc) {
    if (li < p.labels.size() && p.labels[li].begin == pc) o << ".label " << p.labels[li].name << "\n";
    o << "  " << formatInstruction(t, insns[pc]) << "\n";
    if (li < p.labels.size() && p.labels[li].end == pc + 1) {
      o << ".endlabel\n";
      ++li;
    }
  }
  return o.str();
}

}  // namespace accelc::isa
