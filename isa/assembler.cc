// isa/assembler.cc — assembly text -> Program.
#include "isa/assembler.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sys/stat.h>

#include "isa/semantics.h"
#include "isa/builder.h"
#include "isa/encoding.h"
#include "support/yaml.h"

namespace accelc::isa {

using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

/// A word of a source line and its 1-based column.
struct Token {
  std::string text;  ///< the word
  int col = 0;       ///< where it starts
};

std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == ';' || c == '#') break;
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])) && line[j] != ',' &&
           line[j] != ';' && line[j] != '#')
      ++j;
    out.push_back({line.substr(i, j - i), static_cast<int>(i) + 1});
    i = j;
  }
  return out;
}

std::optional<int64_t> parseInt(const std::string& s) {
  if (s.empty()) return std::nullopt;
  try {
    size_t pos = 0;
    long long v = std::stoll(s, &pos, 0);
    if (pos != s.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

/// A `@sym+N` operand to resolve once every symbol is known.
struct Fixup {
  size_t insn;        ///< instruction index
  std::string field;  ///< field to set
  std::string sym;    ///< symbol or micro-op table
  int64_t offset;     ///< added, in elements
  Location loc;       ///< for errors
};

/// Assembler state for one source file.
class Assembler {
 public:
  Assembler(std::string path, const std::optional<Target>& target) : path_(std::move(path)), given_(target) {
    if (target) target_ = *target;
  }
  Expected<Program> run(const std::string& text);

 private:
  Location at(int line, int col) const { return Location::file(path_, line, col); }
  Location at(const Token& t) const { return at(line_, t.col); }
  Status line(const std::vector<Token>& toks);
  Status directive(const std::vector<Token>& toks);
  Status hw(const std::vector<Token>& toks);
  Status symbol(const std::vector<Token>& toks, SymbolRole role);
  Status bytesLine(const std::vector<Token>& toks);
  Status uopLine(const std::vector<Token>& toks);
  Status instruction(const std::vector<Token>& toks);
  Status operand(Instruction& insn, const Token& tok);
  Status closeData();
  Status needTarget(const Token& t) const;
  Expected<Program> finish();
  Expected<Program> build();
  Expected<int64_t> address(const Token& t) const;

  std::string path_;                ///< source file name
  std::optional<Target> given_;     ///< --hw target, if any
  std::optional<Target> target_;    ///< the target in use
  int line_ = 0;                    ///< current line
  Program prog_;                    ///< being built
  std::vector<Instruction> insns_;  ///< instructions so far
  std::vector<int> insnLines_;      ///< source line per instruction
  std::vector<Fixup> fixups_;       ///< symbol references
  enum class Mode { kNone, kConst, kUops, kText } mode_ = Mode::kNone;  ///< what plain lines are
  size_t open_ = 0;                 ///< index of the const/uops segment being filled
  uint64_t constBytes_ = 0;         ///< bytes the open const needs
  int openLine_ = 0;                ///< line of the open const/label
  std::optional<Label> label_;      ///< label being collected
  std::map<std::string, int> labelLines_;  ///< every label's name and the line of its `.label`
  std::optional<uint64_t> window_;  ///< from .window
  bool haveText_ = false;           ///< a .text line was seen
  uint64_t textAddr_ = 0;           ///< its address
};

Status Assembler::needTarget(const Token& t) const {
  if (target_) return Status::ok();
  return error(at(t), "'" + t.text + "' needs the hwspec: write '.hw NAME' first or pass --hw");
}

Expected<int64_t> Assembler::address(const Token& t) const {
  std::optional<int64_t> v = parseInt(t.text);
  if (!v || *v < 0) return error(at(t), "expected a byte address, found '" + t.text + "'");
  return *v;
}

Status Assembler::hw(const std::vector<Token>& toks) {
  if (toks.size() != 2) return error(at(toks[0]), "expected '.hw NAME_OR_FILE'");
  std::string name = toks[1].text;
  if (given_ && name == given_->spec.name) return Status::ok();  // the --hw target, named as disasm prints it
  size_t slash = path_.rfind('/');
  std::string rel = slash == std::string::npos ? name : path_.substr(0, slash + 1) + name;
  struct stat st;
  Expected<hwspec::HwSpec> spec = hwspec::loadHwSpec(::stat(rel.c_str(), &st) == 0 ? rel : name);
  if (!spec) return error(at(toks[1]), "cannot load hwspec '" + name + "': " + spec.diag().message);
  ACCELC_ASSIGN_OR_RETURN(Target t, loadTarget(*spec));
  if (given_ && given_->hash != t.hash)
    return error(at(toks[1]), "'.hw " + name + "' (" + t.spec.name + ") does not match the hwspec given with --hw (" +
                                  given_->spec.name + ")");
  if (!given_ && target_ && target_->hash != t.hash) return error(at(toks[0]), "a second, different '.hw' line");
  target_ = std::move(t);
  return Status::ok();
}

Status Assembler::symbol(const std::vector<Token>& toks, SymbolRole role) {
  if (toks.size() != 5) return error(at(toks[0]), "expected '" + toks[0].text + " NAME ADDR DTYPE SHAPE'");
  Symbol s;
  s.name = toks[1].text;
  s.role = role;
  if (prog_.findSymbol(s.name) || prog_.findSegment(s.name))
    return error(at(toks[1]), "symbol '" + s.name + "' is defined twice");
  ACCELC_ASSIGN_OR_RETURN(int64_t addr, address(toks[2]));
  s.addr = static_cast<uint64_t>(addr);
  std::optional<support::DType> dt = support::parseDType(toks[3].text);
  if (!dt) return error(at(toks[3]), "unknown dtype '" + toks[3].text + "'; expected one of: " + support::dtypeNames());
  s.dtype = *dt;
  std::optional<std::vector<int64_t>> shape = support::parseShape(toks[4].text);
  if (!shape) return error(at(toks[4]), "expected a shape such as 1x16x16, found '" + toks[4].text + "'");
  s.shape = *shape;
  prog_.symbols.push_back(s);
  if (role == SymbolRole::kConst) {
    prog_.segments.push_back({s.name, SegmentRole::kData, s.addr, {}});
    open_ = prog_.segments.size() - 1;
    constBytes_ = s.bytes();
    openLine_ = line_;
    mode_ = Mode::kConst;
  }
  return Status::ok();
}

Status Assembler::closeData() {
  if (mode_ == Mode::kConst && prog_.segments[open_].bytes.size() != constBytes_)
    return error(at(openLine_, 1), "constant '" + prog_.segments[open_].name + "' needs " + std::to_string(constBytes_) +
                                       " bytes of .byte data, found " + std::to_string(prog_.segments[open_].bytes.size()));
  if (mode_ == Mode::kConst || mode_ == Mode::kUops) mode_ = haveText_ ? Mode::kText : Mode::kNone;
  return Status::ok();
}

Status Assembler::bytesLine(const std::vector<Token>& toks) {
  if (mode_ != Mode::kConst) return error(at(toks[0]), "'.byte' outside a '.const'");
  for (size_t i = 1; i < toks.size(); ++i) {
    const std::string& h = toks[i].text;
    std::optional<int64_t> v = h.size() == 2 ? parseInt("0x" + h) : std::nullopt;
    if (!v) return error(at(toks[i]), "expected two hex digits, found '" + h + "'");
    prog_.segments[open_].bytes.push_back(static_cast<uint8_t>(*v));
  }
  return Status::ok();
}

Status Assembler::uopLine(const std::vector<Token>& toks) {
  if (mode_ != Mode::kUops) return error(at(toks[0]), "'uop' outside a '.uops' table");
  if (toks.size() != 4) return error(at(toks[0]), "expected 'uop DST SRC WGT'");
  Uop u;
  int64_t* f[3] = {&u.dst, &u.src, &u.wgt};
  for (int i = 0; i < 3; ++i) {
    std::optional<int64_t> v = parseInt(toks[i + 1].text);
    if (!v) return error(at(toks[i + 1]), "expected an integer, found '" + toks[i + 1].text + "'");
    *f[i] = *v;
  }
  size_t n = prog_.segments[open_].bytes.size();
  prog_.segments[open_].bytes.resize(n + target_->uopBytes());
  return encodeUop(*target_, u, prog_.segments[open_].bytes.data() + n, at(toks[0]));
}

Status Assembler::directive(const std::vector<Token>& toks) {
  const std::string& d = toks[0].text;
  if (d == ".byte") return bytesLine(toks);
  ACCELC_TRY(closeData());
  if (d == ".hw") return hw(toks);
  if (d == ".window") {
    std::optional<int64_t> v = toks.size() == 2 ? support::parseByteSize(toks[1].text) : std::nullopt;
    if (!v || *v <= 0) v = toks.size() == 2 ? parseInt(toks[1].text) : std::nullopt;
    if (!v || *v <= 0) return error(at(toks[0]), "expected '.window BYTES'");
    window_ = static_cast<uint64_t>(*v);
    return Status::ok();
  }
  if (d == ".input") return symbol(toks, SymbolRole::kInput);
  if (d == ".output") return symbol(toks, SymbolRole::kOutput);
  if (d == ".scratch") return symbol(toks, SymbolRole::kScratch);
  if (d == ".const") return symbol(toks, SymbolRole::kConst);
  if (d == ".uops") {
    ACCELC_TRY(needTarget(toks[0]));
    if (toks.size() != 3) return error(at(toks[0]), "expected '.uops NAME ADDR'");
    if (prog_.findSymbol(toks[1].text) || prog_.findSegment(toks[1].text))
      return error(at(toks[1]), "symbol '" + toks[1].text + "' is defined twice");
    ACCELC_ASSIGN_OR_RETURN(int64_t addr, address(toks[2]));
    prog_.segments.push_back({toks[1].text, SegmentRole::kUops, static_cast<uint64_t>(addr), {}});
    open_ = prog_.segments.size() - 1;
    mode_ = Mode::kUops;
    return Status::ok();
  }
  if (d == ".text") {
    ACCELC_TRY(needTarget(toks[0]));
    if (haveText_) return error(at(toks[0]), "a second '.text'");
    if (toks.size() != 2) return error(at(toks[0]), "expected '.text ADDR'");
    ACCELC_ASSIGN_OR_RETURN(int64_t addr, address(toks[1]));
    haveText_ = true;
    textAddr_ = static_cast<uint64_t>(addr);
    mode_ = Mode::kText;
    return Status::ok();
  }
  if (d == ".label" || d == ".endlabel") {
    if (!haveText_) return error(at(toks[0]), "'" + d + "' before '.text'");
    if (d == ".endlabel" && !label_) return error(at(toks[0]), "'.endlabel' without an open '.label'");
    if (d == ".label" && toks.size() == 2 && labelLines_.count(toks[1].text))
      return error(at(toks[1]), "label '" + toks[1].text + "' is already defined at line " +
                                    std::to_string(labelLines_.at(toks[1].text)));
    mode_ = Mode::kText;
    if (label_) {
      label_->end = insns_.size();
      if (label_->end == label_->begin) return error(at(openLine_, 1), "label '" + label_->name + "' is empty");
      prog_.labels.push_back(*label_);
      label_.reset();
    }
    if (d == ".endlabel") return Status::ok();
    if (toks.size() != 2) return error(at(toks[0]), "expected '.label NAME'");
    label_ = Label{insns_.size(), 0, toks[1].text};
    openLine_ = line_;
    labelLines_[toks[1].text] = line_;
    return Status::ok();
  }
  return error(at(toks[0]), "unknown directive '" + d + "'");
}

Status Assembler::operand(Instruction& insn, const Token& tok) {
  size_t eq = tok.text.find('=');
  std::string name = tok.text.substr(0, eq);
  const FormatLayout& fl = target_->isa.format(formatOf(insn.opcode));
  const FieldLayout* f = nullptr;
  for (const FieldLayout& x : fl.fields)
    if (x.name == name) f = &x;
  if (!f) return error(at(tok), "'" + name + "' is not a field of " + opcodeName(insn.opcode));
  if (eq == std::string::npos) {
    if (f->bits != 1 || f->enumIndex >= 0) return error(at(tok), "field '" + name + "' needs a value: " + name + "=...");
    setFieldValue(insn, name, 1);
    return Status::ok();
  }
  std::string v = tok.text.substr(eq + 1);
  if (f->enumIndex >= 0) {
    EnumKind e = EnumKind(f->enumIndex);
    for (int i = 0; i < enumSize(e); ++i)
      if (v == enumValueName(e, i)) {
        setFieldValue(insn, name, i);
        return Status::ok();
      }
    std::string names;
    for (int i = 0; i < enumSize(e); ++i) names += std::string(i ? ", " : "") + enumValueName(e, i);
    return error(at(tok), "unknown " + std::string(enumName(e)) + " '" + v + "'; expected one of: " + names);
  }
  if (!v.empty() && v[0] == '@') {
    if (name != "dram_base") return error(at(tok), "'@symbol' is only allowed for dram_base");
    size_t plus = v.find('+');
    std::optional<int64_t> off = plus == std::string::npos ? 0 : parseInt(v.substr(plus + 1));
    if (!off || *off < 0 || *off > (int64_t{1} << 48))
      return error(at(tok), "expected '@symbol' or '@symbol+N' with 0 <= N < 2^48, found '" + v + "'");
    fixups_.push_back({insns_.size(), name, v.substr(1, plus == std::string::npos ? std::string::npos : plus - 1),
                       *off, at(tok)});
    return Status::ok();
  }
  std::optional<int64_t> n = parseInt(v);
  if (!n) return error(at(tok), "field '" + name + "': expected an integer, found '" + v + "'");
  setFieldValue(insn, name, *n);
  return Status::ok();
}

Status Assembler::instruction(const std::vector<Token>& toks) {
  ACCELC_TRY(needTarget(toks[0]));
  if (mode_ != Mode::kText) return error(at(toks[0]), "instruction before '.text'");
  std::string op = toks[0].text;
  std::transform(op.begin(), op.end(), op.begin(), [](unsigned char c) { return std::toupper(c); });
  for (int o = 0; o < kNumOpcodes; ++o) {
    if (op != opcodeName(Opcode(o))) continue;
    Instruction insn = makeInstruction(Opcode(o));
    std::vector<std::string> seen;
    for (size_t i = 1; i < toks.size(); ++i) {
      std::string name = toks[i].text.substr(0, toks[i].text.find('='));
      if (std::find(seen.begin(), seen.end(), name) != seen.end())
        return error(at(toks[i]), "field '" + name + "' given twice");
      seen.push_back(name);
      ACCELC_TRY(operand(insn, toks[i]));
    }
    insns_.push_back(insn);
    insnLines_.push_back(line_);
    return Status::ok();
  }
  return error(at(toks[0]), "unknown instruction '" + toks[0].text + "'; expected LOAD, STORE, GEMM, ALU or FINISH");
}

Status Assembler::line(const std::vector<Token>& toks) {
  if (toks[0].text[0] == '.') return directive(toks);
  if (toks[0].text == "uop") return uopLine(toks);
  ACCELC_TRY(closeData());
  return instruction(toks);
}

Expected<Program> Assembler::finish() {
  ACCELC_TRY(closeData());
  if (!target_) return error(at(0, 0), "no hwspec: write '.hw NAME' or pass --hw");
  if (!haveText_) return error(at(line_, 0), "no '.text' section");
  if (label_) {
    label_->end = insns_.size();
    if (label_->end == label_->begin) return error(at(openLine_, 1), "label '" + label_->name + "' is empty");
    prog_.labels.push_back(*label_);
  }
  for (const Fixup& f : fixups_) {
    uint64_t addr = 0;
    if (const Symbol* s = prog_.findSymbol(f.sym))
      addr = s->addr;
    else if (const Segment* g = prog_.findSegment(f.sym))
      addr = g->addr;
    else
      return error(f.loc, "unknown symbol '" + f.sym + "'");
    Instruction& insn = insns_[f.insn];
    int64_t elem = insn.opcode == Opcode::kLoad || insn.opcode == Opcode::kStore
                       ? dramEntryBytes(target_->spec, Buffer(insn.mem().buffer))
                       : 1;
    if (addr % elem) return error(f.loc, "symbol '" + f.sym + "' at byte " + std::to_string(addr) +
                                             " is not aligned to the " + std::to_string(elem) + "-byte elements of this buffer");
    setFieldValue(insn, f.field, static_cast<int64_t>(addr / elem) + f.offset);
  }
  return build();
}

Expected<Program> Assembler::build() {
  ProgramBuilder b(*target_);
  for (const Symbol& s : prog_.symbols) {
    const Segment* data = s.role == SymbolRole::kConst ? prog_.findSegment(s.name) : nullptr;
    b.symbol(s, data ? data->bytes : std::vector<uint8_t>{});
  }
  for (const Segment& s : prog_.segments) {
    if (s.role != SegmentRole::kUops) continue;
    std::vector<Uop> uops;
    for (size_t i = 0; i < s.bytes.size(); i += target_->uopBytes()) uops.push_back(decodeUop(*target_, &s.bytes[i]));
    b.uops(s.name, s.addr, std::move(uops));
  }
  b.text(textAddr_);
  if (window_) b.window(*window_);
  size_t li = 0;
  for (size_t i = 0; i < insns_.size(); ++i) {
    if (li < prog_.labels.size() && prog_.labels[li].begin == i) b.label(prog_.labels[li].name);
    b.add(insns_[i], at(insnLines_[i], 1));
    if (li < prog_.labels.size() && prog_.labels[li].end == i + 1) {
      b.endLabel();
      ++li;
    }
  }
  return b.finish(path_);
}

Expected<Program> Assembler::run(const std::string& text) {
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    ++line_;
    std::vector<Token> toks = tokenize(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (toks.empty()) continue;
    ACCELC_TRY(line(toks));
  }
  return finish();
}

}  // namespace

Expected<Program> assemble(const std::string& text, const std::string& path, const std::optional<Target>& target) {
  Assembler a(path, target);
  return a.run(text);
}

Expected<Program> assembleFile(const std::string& path, const std::optional<Target>& target) {
  ACCELC_ASSIGN_OR_RETURN(std::string text, support::readTextFile(path));
  return assemble(text, path, target);
}

}  // namespace accelc::isa
