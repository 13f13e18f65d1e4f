// isa/program.cc — the binary program format and its validation.
//
// The file is a support/container.h container with four sections (target,
// segments, symbols, labels); docs/formats.md gives each one's fields.
#include "isa/program.h"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "isa/encoding.h"
#include "support/bytes.h"
#include "support/container.h"
#include "support/hash.h"

namespace accelc::isa {

using support::error;
using support::Expected;
using support::Location;
using support::Status;

const char* segmentRoleName(SegmentRole r) {
  switch (r) {
    case SegmentRole::kText:
      return "text";
    case SegmentRole::kUops:
      return "uops";
    case SegmentRole::kData:
      return "data";
  }
  return "?";
}

const char* symbolRoleName(SymbolRole r) {
  switch (r) {
    case SymbolRole::kInput:
      return "input";
    case SymbolRole::kOutput:
      return "output";
    case SymbolRole::kConst:
      return "const";
    case SymbolRole::kScratch:
      return "scratch";
  }
  return "?";
}

const Segment& Program::text() const {
  for (const Segment& s : segments)
    if (s.role == SegmentRole::kText) return s;
  static const Segment kEmpty{"text", SegmentRole::kText, 0, {}};
  return kEmpty;
}

const Symbol* Program::findSymbol(const std::string& n) const {
  for (const Symbol& s : symbols)
    if (s.name == n) return &s;
  return nullptr;
}

const Segment* Program::findSegment(const std::string& n) const {
  for (const Segment& s : segments)
    if (s.name == n) return &s;
  return nullptr;
}

bool Program::operator==(const Program& o) const {
  return hwspecYaml == o.hwspecYaml && isaYaml == o.isaYaml && hash == o.hash && window == o.window &&
         segments == o.segments && symbols == o.symbols && labels == o.labels;
}

namespace {

using support::ByteReader;
using support::ByteWriter;

}  // namespace

const support::ContainerKind& programContainerKind() {
  static const support::ContainerKind kKind{
      "ACXPROG", "program", kProgramFormatVersion, {"target", "segments", "symbols", "labels"},
      "rebuild it with this accelc (accelc asm or accelc compile)"};
  return kKind;
}

namespace {

/// Readers of each section; counts are bounded by the bytes left, since
/// every entry takes at least one byte.
Status readTarget(ByteReader& r, Program& p) {
  ACCELC_ASSIGN_OR_RETURN(p.hash, r.le(8, "hash"));
  ACCELC_ASSIGN_OR_RETURN(p.hwspecYaml, r.str("hwspec"));
  ACCELC_ASSIGN_OR_RETURN(p.isaYaml, r.str("ISA"));
  ACCELC_ASSIGN_OR_RETURN(p.window, r.le(8, "window"));
  return Status::ok();
}

Status readSegments(ByteReader& r, Program& p) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t n, r.count("segment count"));
  for (uint64_t i = 0; i < n; ++i) {
    Segment s;
    ACCELC_ASSIGN_OR_RETURN(s.name, r.str("segment name"));
    ACCELC_ASSIGN_OR_RETURN(uint64_t role, r.le(1, "segment role"));
    if (role > 2) return r.bad("segment role " + std::to_string(role));
    s.role = SegmentRole(role);
    ACCELC_ASSIGN_OR_RETURN(s.addr, r.le(8, "segment address"));
    ACCELC_ASSIGN_OR_RETURN(s.bytes, r.bytes("segment bytes"));
    p.segments.push_back(std::move(s));
  }
  return Status::ok();
}

Status readSymbols(ByteReader& r, Program& p) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t n, r.count("symbol count"));
  for (uint64_t i = 0; i < n; ++i) {
    Symbol s;
    ACCELC_ASSIGN_OR_RETURN(s.name, r.str("symbol name"));
    ACCELC_ASSIGN_OR_RETURN(uint64_t role, r.le(1, "symbol role"));
    if (role > 3) return r.bad("symbol role " + std::to_string(role));
    s.role = SymbolRole(role);
    ACCELC_ASSIGN_OR_RETURN(s.addr, r.le(8, "symbol address"));
    ACCELC_ASSIGN_OR_RETURN(uint64_t dt, r.le(1, "symbol dtype"));
    if (dt >= static_cast<uint64_t>(support::kDTypeCount)) return r.bad("symbol dtype " + std::to_string(dt));
    s.dtype = support::DType(dt);
    ACCELC_ASSIGN_OR_RETURN(uint64_t rank, r.le(8, "symbol rank"));
    if (rank > 8) return r.bad("symbol rank " + std::to_string(rank));
    for (uint64_t d = 0; d < rank; ++d) {
      ACCELC_ASSIGN_OR_RETURN(uint64_t dim, r.le(8, "symbol shape"));
      if (dim == 0 || dim > (uint64_t{1} << 40)) return r.bad("symbol dimension " + std::to_string(dim));
      s.shape.push_back(static_cast<int64_t>(dim));
    }
    p.symbols.push_back(std::move(s));
  }
  return Status::ok();
}

Status readLabels(ByteReader& r, Program& p) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t n, r.count("label count"));
  for (uint64_t i = 0; i < n; ++i) {
    Label l;
    ACCELC_ASSIGN_OR_RETURN(l.begin, r.le(8, "label begin"));
    ACCELC_ASSIGN_OR_RETURN(l.end, r.le(8, "label end"));
    ACCELC_ASSIGN_OR_RETURN(l.name, r.str("label name"));
    p.labels.push_back(std::move(l));
  }
  return Status::ok();
}

bool overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return an && bn && a < b + bn && b < a + an; }

}  // namespace

std::vector<uint8_t> writeProgram(const Program& p) {
  support::SectionData d(4);
  ByteWriter target, segs, syms, labels;
  target.u64(p.hash);
  target.str(p.hwspecYaml);
  target.str(p.isaYaml);
  target.u64(p.window);
  segs.u64(p.segments.size());
  for (const Segment& s : p.segments) {
    segs.str(s.name);
    segs.u8(static_cast<uint8_t>(s.role));
    segs.u64(s.addr);
    segs.bytes(s.bytes);
  }
  syms.u64(p.symbols.size());
  for (const Symbol& s : p.symbols) {
    syms.str(s.name);
    syms.u8(static_cast<uint8_t>(s.role));
    syms.u64(s.addr);
    syms.u8(static_cast<uint8_t>(s.dtype));
    syms.u64(s.shape.size());
    for (int64_t dim : s.shape) syms.u64(static_cast<uint64_t>(dim));
  }
  labels.u64(p.labels.size());
  for (const Label& l : p.labels) {
    labels.u64(l.begin);
    labels.u64(l.end);
    labels.str(l.name);
  }
  d[0] = std::move(target.data()), d[1] = std::move(segs.data()), d[2] = std::move(syms.data());
  d[3] = std::move(labels.data());
  return support::writeContainer(programContainerKind(), d);
}

Expected<Program> readProgram(const std::vector<uint8_t>& bytes, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(support::SectionData d, support::readContainer(programContainerKind(), bytes, name));
  Program p;
  using SectionReader = Status (*)(ByteReader&, Program&);
  const SectionReader readers[] = {readTarget, readSegments, readSymbols, readLabels};
  for (size_t i = 0; i < d.size(); ++i) {
    ByteReader r(d[i], name + "[" + programContainerKind().sections[i] + "]");
    ACCELC_TRY(readers[i](r, p));
    if (!r.done()) return r.bad("trailing bytes");
  }
  return p;
}

Expected<Program> loadProgramFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error(Location::file(path), "cannot open file for reading");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return readProgram(bytes, path);
}

Status saveProgramFile(const std::string& path, const Program& p) {
  std::ofstream out(path, std::ios::binary);
  std::vector<uint8_t> b = writeProgram(p);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (!out) return error(Location::file(path), "cannot write file");
  return Status::ok();
}

Expected<Target> programTarget(const Program& p, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(hwspec::HwSpec spec, hwspec::parseHwSpec(p.hwspecYaml, name + "(embedded hwspec)"));
  ACCELC_ASSIGN_OR_RETURN(Target t, makeTarget(spec, p.isaYaml, name + "(embedded ISA)"));
  if (t.hash != p.hash)
    return error(Location::file(name), "hwspec hash mismatch: the program records " + support::hex64(p.hash) +
                                           " but its embedded hwspec and ISA hash to " + support::hex64(t.hash) +
                                           "; the file is corrupt");
  return t;
}

Status checkProgramTarget(const Program& p, const Target& t, const std::string& name) {
  if (p.hash == t.hash) return Status::ok();
  std::string built = "?";
  if (auto e = hwspec::parseHwSpec(p.hwspecYaml, name)) built = e->name;
  return error(Location::file(name), "hwspec hash mismatch: the program was built for '" + built + "' (hash " +
                                         support::hex64(p.hash) + ") but the given hwspec is '" + t.spec.name +
                                         "' (hash " + support::hex64(t.hash) + ")");
}

uint64_t textStart(const Target& t, uint64_t at) {
  const uint64_t b = static_cast<uint64_t>(t.spec.timing.maxBurst);
  return (at + b - 1) / b * b;
}

Status validateProgram(const Program& p, const Target& t, const std::string& name) {
  Location loc = Location::file(name);
  if (p.window == 0 || p.window > static_cast<uint64_t>(t.spec.dramWindowBytes))
    return error(loc, "window of " + std::to_string(p.window) + " bytes is not in [1, " +
                          std::to_string(t.spec.dramWindowBytes) + "] (dram.window)");
  int texts = 0;
  for (size_t i = 0; i < p.segments.size(); ++i) {
    const Segment& s = p.segments[i];
    if (s.role == SegmentRole::kText) {
      ++texts;
      if (s.bytes.size() % t.insnBytes())
        return error(loc, "text segment of " + std::to_string(s.bytes.size()) + " bytes is not a whole number of " +
                              std::to_string(t.insnBytes()) + "-byte instructions");
      if (t.spec.dramSplit4k && textStart(t, s.addr) != s.addr)
        return error(loc, "text segment at byte " + std::to_string(s.addr) + " does not start on a " +
                              std::to_string(t.spec.timing.maxBurst) +
                              "-byte boundary (timing.max_burst): with dram.split_4k fetch's bursts must not cross 4 KiB");
    }
    if (s.role == SegmentRole::kUops && s.bytes.size() % t.uopBytes())
      return error(loc, "micro-op segment '" + s.name + "' is not a whole number of micro-ops");
    if (s.addr > p.window || s.bytes.size() > p.window - s.addr)
      return error(loc, "segment '" + s.name + "' [" + std::to_string(s.addr) + ", " +
                            std::to_string(s.addr + s.bytes.size()) + ") lies outside the window of " +
                            std::to_string(p.window) + " bytes");
    for (size_t j = 0; j < i; ++j)
      if (overlaps(s.addr, s.bytes.size(), p.segments[j].addr, p.segments[j].bytes.size()))
        return error(loc, "segments '" + p.segments[j].name + "' and '" + s.name + "' overlap");
  }
  if (texts != 1) return error(loc, "expected exactly one text segment, found " + std::to_string(texts));
  for (size_t i = 0; i < p.symbols.size(); ++i) {
    const Symbol& s = p.symbols[i];
    if (!support::checkedShapeElements(s.shape) || s.addr > p.window || s.bytes() > p.window - s.addr)
      return error(loc, "symbol '" + s.name + "' lies outside the window of " + std::to_string(p.window) + " bytes");
    for (size_t j = 0; j < i; ++j) {
      if (p.symbols[j].name == s.name) return error(loc, "symbol '" + s.name + "' is defined twice");
      if (overlaps(s.addr, s.bytes(), p.symbols[j].addr, p.symbols[j].bytes()))
        return error(loc, "symbols '" + p.symbols[j].name + "' and '" + s.name + "' overlap");
    }
    for (const Segment& g : p.segments)
      if (!(g.role == SegmentRole::kData && g.name == s.name) && overlaps(s.addr, s.bytes(), g.addr, g.bytes.size()))
        return error(loc, "symbol '" + s.name + "' overlaps segment '" + g.name + "'");
  }
  uint64_t n = p.insnCount(t), prevEnd = 0;
  for (const Label& l : p.labels) {
    if (l.begin >= l.end || l.end > n || l.begin < prevEnd)
      return error(loc, "label '" + l.name + "' [" + std::to_string(l.begin) + ", " + std::to_string(l.end) +
                            ") is empty, overlaps another, or lies past the " + std::to_string(n) + " instructions");
    prevEnd = l.end;
  }
  return Status::ok();
}

Expected<CheckedProgram> loadCheckedProgram(const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(Program p, loadProgramFile(path));
  ACCELC_ASSIGN_OR_RETURN(Target t, programTarget(p, path));
  ACCELC_TRY(validateProgram(p, t, path));
  return CheckedProgram{std::move(p), std::move(t)};
}

Expected<std::vector<Instruction>> decodeText(const Program& p, const Target& t, const std::string& name) {
  const Segment& text = p.text();
  std::vector<Instruction> out;
  uint64_t n = text.bytes.size() / t.insnBytes();
  out.reserve(n);
  for (uint64_t pc = 0; pc < n; ++pc) {
    ACCELC_ASSIGN_OR_RETURN(Instruction i,
                            decodeInstruction(t, text.bytes.data() + pc * t.insnBytes(), Location::pc(name, pc)));
    out.push_back(std::move(i));
  }
  return out;
}

}  // namespace accelc::isa
