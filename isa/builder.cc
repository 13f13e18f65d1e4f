// isa/builder.cc — encoding a built program.
#include "isa/builder.h"

#include <algorithm>

#include "isa/encoding.h"

namespace accelc::isa {

using support::Expected;

void ProgramBuilder::symbol(Symbol s, std::vector<uint8_t> data) {
  if (s.role == SymbolRole::kConst) p_.segments.push_back({s.name, SegmentRole::kData, s.addr, std::move(data)});
  p_.symbols.push_back(std::move(s));
}

void ProgramBuilder::uops(const std::string& name, uint64_t addr, std::vector<Uop> uops) {
  uops_.push_back({name, {addr, std::move(uops)}});
}

void ProgramBuilder::add(const Instruction& insn, support::Location loc) {
  insns_.push_back(insn);
  locs_.push_back(std::move(loc));
}

void ProgramBuilder::label(const std::string& name) {
  endLabel();
  open_ = Label{insns_.size(), 0, name};
}

void ProgramBuilder::endLabel() {
  if (open_ && open_->begin < insns_.size()) {
    open_->end = insns_.size();
    p_.labels.push_back(*open_);
  }
  open_.reset();
}

Expected<Program> ProgramBuilder::finish(const std::string& name) {
  endLabel();
  Program p = p_;
  for (const auto& [uname, table] : uops_) {
    Segment s{uname, SegmentRole::kUops, table.first, std::vector<uint8_t>(table.second.size() * t_.uopBytes())};
    for (size_t i = 0; i < table.second.size(); ++i)
      ACCELC_TRY(encodeUop(t_, table.second[i], s.bytes.data() + i * t_.uopBytes(),
                           support::Location::file(name)));
    p.segments.push_back(std::move(s));
  }
  Segment text{"text", SegmentRole::kText, textAddr_, std::vector<uint8_t>(insns_.size() * t_.insnBytes())};
  for (size_t i = 0; i < insns_.size(); ++i) {
    support::Location loc = locs_[i].kind() == support::Location::Kind::kNone ? support::Location::pc(name, i) : locs_[i];
    ACCELC_TRY(encodeInstruction(t_, insns_[i], text.bytes.data() + i * t_.insnBytes(), loc));
  }
  p.segments.push_back(std::move(text));
  std::stable_sort(p.segments.begin(), p.segments.end(),
                   [](const Segment& a, const Segment& b) { return a.addr < b.addr; });
  uint64_t end = 0;
  for (const Segment& s : p.segments) end = std::max<uint64_t>(end, s.addr + s.bytes.size());
  for (const Symbol& s : p.symbols) end = std::max<uint64_t>(end, s.addr + s.bytes());
  p.window = window_ ? *window_ : (end + 4095) / 4096 * 4096;
  p.hwspecYaml = t_.spec.canonicalYaml();
  p.isaYaml = t_.isa.yamlText;
  p.hash = t_.hash;
  ACCELC_TRY(validateProgram(p, t_, name));
  return p;
}

}  // namespace accelc::isa
