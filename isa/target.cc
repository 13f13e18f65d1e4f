// isa/target.cc — reading the ISA YAML and resolving it against a HwSpec.
#include "isa/target.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "support/hash.h"
#include "support/yaml.h"

namespace accelc::isa {

using hwspec::BufferKind;
using hwspec::HwSpec;
using support::error;
using support::Expected;
using support::Location;
using support::Status;
using support::YamlMap;

namespace {

struct Embedded {
  const char* name;  ///< file name without .yaml
  const char* text;  ///< YAML text
};
const Embedded kIsaFiles[] = {
#include "isa/isa_files.inc"
};

/// The compiled-in field names of each format, in struct order.
std::vector<std::string> compiledFields(Format f) {
  switch (f) {
#define ACCELC_ISA_NAMES(Fmt, fmt) \
  case Format::k##Fmt:             \
    return {std::begin(FormatTraits<Fmt##Fields>::kFieldNames), std::end(FormatTraits<Fmt##Fields>::kFieldNames)};
    ACCELC_ISA_FORMATS(ACCELC_ISA_NAMES)
#undef ACCELC_ISA_NAMES
  }
  return {};
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

/// The enumeration a compiled-in field holds, or -1.
int compiledEnum(const std::string& format, const std::string& field) {
#define ACCELC_ISA_FIELD_ENUM(Fmt, fmt, fieldName, Enum) \
  if (format == #fmt && field == #fieldName) return static_cast<int>(EnumKind::k##Enum);
  ACCELC_ISA_ENUM_FIELDS(ACCELC_ISA_FIELD_ENUM)
#undef ACCELC_ISA_FIELD_ENUM
  return -1;
}

/// Reads `enums:`; every compiled-in enumeration with exactly its names.
Status readEnums(YamlMap& root, IsaLayout& out) {
  ACCELC_ASSIGN_OR_RETURN(YamlMap enums, root.map("enums"));
  for (int e = 0; e < kNumEnums; ++e) {
    EnumKind kind = EnumKind(e);
    ACCELC_ASSIGN_OR_RETURN(YamlMap values, enums.map(enumName(kind)));
    std::vector<int64_t>& codes = out.enumCodes[e];
    codes.assign(enumSize(kind), 0);
    for (int v = 0; v < enumSize(kind); ++v) {
      ACCELC_ASSIGN_OR_RETURN(codes[v], values.integer(enumValueName(kind, v), 0, 255));
      for (int u = 0; u < v; ++u)
        if (codes[u] == codes[v])
          return error(values.valueLoc(enumValueName(kind, v)),
                       std::string("enum '") + enumName(kind) + "': code " + std::to_string(codes[v]) +
                           " is used by both '" + enumValueName(kind, u) + "' and '" + enumValueName(kind, v) + "'");
    }
    ACCELC_TRY(values.finish());
  }
  return enums.finish();
}

/// Reads one field entry `{name, bits, signed?, enum?, doc?}` of format `fl`.
Status readField(const YAML::Node& node, const std::string& path, const HwSpec& spec,
                 const std::vector<std::string>& names, FormatLayout& fl) {
  ACCELC_ASSIGN_OR_RETURN(YamlMap m, YamlMap::of(node, path, "formats." + fl.name + ".fields"));
  ACCELC_ASSIGN_OR_RETURN(std::string name, m.string("name"));
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    return error(m.valueLoc("name"), "format '" + fl.name + "' has no field '" + name +
                                         "' in this instruction set; expected one of: " + joined(names));
  int idx = static_cast<int>(it - names.begin());
  FieldLayout& f = fl.fields[idx];
  if (!f.name.empty()) return error(m.valueLoc("name"), "format '" + fl.name + "': field '" + name + "' listed twice");
  f.name = name;
  YAML::Node bits = m.raw("bits");
  if (!bits || !bits.IsScalar()) return error(m.loc(), "field '" + name + "': missing key 'bits'");
  f.widthExpr = bits.Scalar();
  int64_t q = widthQuantity(spec, f.widthExpr);
  if (q < 0) {
    ACCELC_ASSIGN_OR_RETURN(q, m.integer("bits", 1, 64));
  }
  f.bits = static_cast<int>(q);
  const int maxBits = fl.hasOpcode ? 48 : 32;  // micro-op fields index buffers; DRAM addresses stay below 2^48
  if (f.bits < 1 || f.bits > maxBits)
    return error(m.valueLoc("bits"), "field '" + name + "': width " + std::to_string(f.bits) + " is not in [1, " +
                                         std::to_string(maxBits) + "]");
  YAML::Node sgn = m.raw("signed");
  if (sgn) {
    const std::string v = sgn.IsScalar() ? sgn.Scalar() : "";
    if (v != "true" && v != "false") return error(m.valueLoc("signed"), "field '" + name + "': 'signed' must be true or false");
    f.isSigned = v == "true";
  }
  YAML::Node en = m.raw("enum");
  if (en) {
    for (int e = 0; e < kNumEnums; ++e)
      if (en.Scalar() == enumName(EnumKind(e))) f.enumIndex = e;
    if (f.enumIndex < 0) return error(m.valueLoc("enum"), "field '" + name + "': unknown enum '" + en.Scalar() + "'");
  }
  const int want = compiledEnum(fl.name, name);
  if (f.enumIndex != want)
    return error(m.loc(), "field '" + fl.name + "." + name + "' must " +
                              (want < 0 ? std::string("not be an enumeration")
                                        : std::string("have 'enum: ") + enumName(EnumKind(want)) + "'") +
                              " in this instruction set");
  YAML::Node doc = m.raw("doc");
  if (doc) f.doc = doc.Scalar();
  fl.order.push_back(idx);
  return m.finish();
}

/// Reads the opcodes of one instruction format.
Status readOpcodes(YamlMap& m, Format fmt, IsaLayout& out) {
  ACCELC_ASSIGN_OR_RETURN(YamlMap ops, m.map("opcodes"));
  for (int o = 0; o < kNumOpcodes; ++o) {
    if (formatOf(Opcode(o)) != fmt) continue;
    ACCELC_ASSIGN_OR_RETURN(out.opcodeCode[o],
                            ops.integer(opcodeName(Opcode(o)), 0, (int64_t{1} << out.opcodeBits) - 1));
  }
  return ops.finish();
}

Status readFormat(const YAML::Node& node, const std::string& path, const HwSpec& spec, IsaLayout& out,
                  std::vector<bool>& seen) {
  ACCELC_ASSIGN_OR_RETURN(YamlMap m, YamlMap::of(node, path, "formats"));
  ACCELC_ASSIGN_OR_RETURN(std::string name, m.string("name"));
  int fi = -1;
  std::vector<std::string> all;
  for (int f = 0; f < kNumFormats; ++f) {
    all.push_back(formatName(Format(f)));
    if (name == formatName(Format(f))) fi = f;
  }
  if (fi < 0) return error(m.valueLoc("name"), "unknown format '" + name + "'; expected one of: " + joined(all));
  if (seen[fi]) return error(m.valueLoc("name"), "format '" + name + "' listed twice");
  seen[fi] = true;
  FormatLayout& fl = out.formats[fi];
  fl.name = name;
  ACCELC_ASSIGN_OR_RETURN(std::string word, m.string("word"));
  if (word != "insn" && word != "uop") return error(m.valueLoc("word"), "key 'word': expected insn or uop");
  fl.hasOpcode = word == "insn";
  if ((Format(fi) == Format::kUop) == fl.hasOpcode)
    return error(m.valueLoc("word"), "format '" + name + "' must use word '" + (fl.hasOpcode ? "uop" : "insn") + "'");
  fl.wordBits = static_cast<int>(fl.hasOpcode ? spec.insnBits : spec.uopBits);
  if (fl.hasOpcode) ACCELC_TRY(readOpcodes(m, Format(fi), out));
  std::vector<std::string> names = compiledFields(Format(fi));
  fl.fields.assign(names.size(), FieldLayout{});
  YAML::Node fields = m.raw("fields");
  if (!fields || !fields.IsSequence()) return error(m.loc(), "format '" + name + "': missing list 'fields'");
  for (const YAML::Node& f : fields) ACCELC_TRY(readField(f, path, spec, names, fl));
  for (size_t i = 0; i < names.size(); ++i)
    if (fl.fields[i].name.empty()) return error(m.loc(), "format '" + name + "' lacks field '" + names[i] + "'");
  YAML::Node doc = m.raw("doc"), diagram = m.raw("diagram");
  if (doc) fl.doc = doc.Scalar();
  if (diagram) fl.diagram = diagram.Scalar();
  return m.finish();
}

/// Assigns bit positions and proves the fit of each format in its word.
Status placeFields(const HwSpec& spec, IsaLayout& out) {
  for (int f = 0; f < kNumFormats; ++f) {
    FormatLayout& fl = out.formats[f];
    int pos = fl.hasOpcode ? out.opcodeBits : 0;
    for (int idx : fl.order) {
      fl.fields[idx].lo = pos;
      pos += fl.fields[idx].bits;
    }
    fl.usedBits = pos;
    if (pos <= fl.wordBits) continue;
    std::string wordKey = fl.hasOpcode ? "isa.insn_bits" : "isa.uop_bits";
    support::Diagnostic d = error(spec.locOf(wordKey),
                                  "format '" + fl.name + "' needs " + std::to_string(pos) + " bits but the " +
                                      (fl.hasOpcode ? "instruction" : "micro-op") + " word has " +
                                      std::to_string(fl.wordBits) + " (" + wordKey +
                                      "); shrink a buffer named below or widen the word");
    std::map<std::string, std::pair<int, std::string>> byKey;  // key -> (bits, "field N, ...")
    for (int idx : fl.order) {
      const FieldLayout& fld = fl.fields[idx];
      std::string key = quantityKey(spec, fld.widthExpr);
      if (key.empty()) continue;
      auto& e = byKey[key];
      e.first += fld.bits;
      e.second += (e.second.empty() ? "" : ", ") + fld.name + " " + std::to_string(fld.bits);
    }
    std::vector<std::pair<std::string, std::pair<int, std::string>>> rows(byKey.begin(), byKey.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
    for (const auto& r : rows)
      d.note(spec.locOf(r.first), r.first + " drives " + std::to_string(r.second.first) + " bits (" + r.second.second + ")");
    return d;
  }
  return Status::ok();
}

/// Every enumerated field must hold every code of its enumeration.
Status checkEnumWidths(const IsaLayout& out, const std::string& path) {
  for (const FormatLayout& fl : out.formats)
    for (const FieldLayout& f : fl.fields) {
      if (f.enumIndex < 0) continue;
      for (int64_t c : out.enumCodes[f.enumIndex])
        if (c >= (int64_t{1} << f.bits))
          return error(Location::file(path), "field '" + fl.name + "." + f.name + "' (" + std::to_string(f.bits) +
                                                 " bits) cannot hold code " + std::to_string(c));
    }
  return Status::ok();
}

Status checkAluOps(const HwSpec& spec) {
  std::vector<std::string> names;
  for (int i = 0; i < kNumAluOps; ++i) names.push_back(aluOpName(AluOp(i)));
  for (const std::string& op : spec.aluOps)
    if (std::find(names.begin(), names.end(), op) == names.end())
      return error(spec.locOf("alu.ops"), "unknown ALU operation '" + op + "'; expected some of: " + joined(names));
  return Status::ok();
}

}  // namespace

int64_t widthQuantity(const HwSpec& s, const std::string& name) {
  int64_t inp = s.indexBits(BufferKind::kInput), acc = s.indexBits(BufferKind::kAcc);
  if (name == "uop_idx_bits") return s.indexBits(BufferKind::kUop);
  if (name == "uop_end_bits") return s.indexBits(BufferKind::kUop) + 1;
  if (name == "inp_idx_bits") return inp;
  if (name == "wgt_idx_bits") return s.indexBits(BufferKind::kWeight);
  if (name == "acc_idx_bits") return acc;
  if (name == "out_idx_bits") return s.indexBits(BufferKind::kOutput);
  if (name == "src_idx_bits") return std::max(inp, acc);
  if (name == "dram_addr_bits") return s.dramAddrBits;
  if (name == "sram_addr_bits") {
    int64_t m = 0;
    for (int b = 0; b < hwspec::kNumBuffers; ++b) m = std::max(m, s.indexBits(BufferKind(b)));
    return m;
  }
  return -1;
}

std::string quantityKey(const HwSpec& s, const std::string& name) {
  auto key = [](BufferKind b) { return std::string("buffers.") + hwspec::bufferKindName(b); };
  if (name == "uop_idx_bits" || name == "uop_end_bits") return key(BufferKind::kUop);
  if (name == "inp_idx_bits") return key(BufferKind::kInput);
  if (name == "wgt_idx_bits") return key(BufferKind::kWeight);
  if (name == "acc_idx_bits") return key(BufferKind::kAcc);
  if (name == "out_idx_bits") return key(BufferKind::kOutput);
  if (name == "src_idx_bits")
    return key(s.indexBits(BufferKind::kInput) > s.indexBits(BufferKind::kAcc) ? BufferKind::kInput : BufferKind::kAcc);
  if (name == "dram_addr_bits") return "dram.addr_bits";
  if (name == "sram_addr_bits") {
    BufferKind best = BufferKind::kUop;
    for (int b = 0; b < hwspec::kNumBuffers; ++b)
      if (s.indexBits(BufferKind(b)) > s.indexBits(best)) best = BufferKind(b);
    return key(best);
  }
  return "";
}

std::string IsaLayout::canonicalText() const {
  std::ostringstream o;
  o << "isa " << version << " opcode_bits " << opcodeBits << "\n";
  for (int op = 0; op < kNumOpcodes; ++op) o << "opcode " << opcodeName(Opcode(op)) << " " << opcodeCode[op] << "\n";
  for (int e = 0; e < kNumEnums; ++e)
    for (size_t v = 0; v < enumCodes[e].size(); ++v)
      o << "enum " << enumName(EnumKind(e)) << "." << enumValueName(EnumKind(e), static_cast<int>(v)) << " "
        << enumCodes[e][v] << "\n";
  for (const FormatLayout& fl : formats) {
    o << "format " << fl.name << " word " << fl.wordBits << "\n";
    for (int idx : fl.order)
      o << "  " << fl.fields[idx].name << " " << fl.fields[idx].lo << " " << fl.fields[idx].bits
        << (fl.fields[idx].isSigned ? " signed" : "") << "\n";
  }
  return o.str();
}

std::string bundledIsaText(const std::string& name) {
  for (const Embedded& e : kIsaFiles)
    if (name == e.name || name == std::string(e.name) + ".yaml") return e.text;
  return "";
}

Expected<Target> makeTarget(const HwSpec& spec, const std::string& isaText, const std::string& isaPath) {
  ACCELC_TRY(checkAluOps(spec));
  ACCELC_ASSIGN_OR_RETURN(YAML::Node doc, support::parseYaml(isaText, isaPath));
  ACCELC_ASSIGN_OR_RETURN(YamlMap root, YamlMap::of(doc, isaPath, ""));
  Target t;
  t.spec = spec;
  IsaLayout& isa = t.isa;
  isa.yamlText = isaText;
  isa.path = isaPath;
  ACCELC_ASSIGN_OR_RETURN(int64_t version, root.integer("version", 1, 1));
  isa.version = static_cast<int>(version);
  ACCELC_ASSIGN_OR_RETURN(int64_t opBits, root.integer("opcode_bits", 1, 16));
  isa.opcodeBits = static_cast<int>(opBits);
  ACCELC_TRY(readEnums(root, isa));
  YAML::Node formats = root.raw("formats");
  if (!formats || !formats.IsSequence()) return error(root.loc(), "missing list 'formats'");
  std::vector<bool> seen(kNumFormats, false);
  for (const YAML::Node& f : formats) ACCELC_TRY(readFormat(f, isaPath, spec, isa, seen));
  for (int f = 0; f < kNumFormats; ++f)
    if (!seen[f]) return error(root.loc(), std::string("format '") + formatName(Format(f)) + "' is missing");
  for (int o = 0; o < kNumOpcodes; ++o)
    for (int p = 0; p < o; ++p)
      if (isa.opcodeCode[p] == isa.opcodeCode[o])
        return error(Location::file(isaPath), std::string("opcodes ") + opcodeName(Opcode(p)) + " and " +
                                                  opcodeName(Opcode(o)) + " share code " +
                                                  std::to_string(isa.opcodeCode[o]));
  ACCELC_TRY(root.finish());
  ACCELC_TRY(checkEnumWidths(isa, isaPath));
  ACCELC_TRY(placeFields(spec, isa));
  t.hash = support::fnv1a64(spec.canonicalYaml() + "---\n" + isa.canonicalText());
  return t;
}

Expected<Target> loadTarget(const HwSpec& spec) {
  std::string local = (spec.sourceDir.empty() ? std::string() : spec.sourceDir + "/") + spec.isaFile;
  if (!spec.sourceDir.empty() && support::isRegularFile(local)) {
    ACCELC_ASSIGN_OR_RETURN(std::string text, support::readTextFile(local));
    return makeTarget(spec, text, local);
  }
  std::string text = bundledIsaText(spec.isaFile);
  if (text.empty())
    return error(spec.locOf("isa.file"), "ISA file '" + spec.isaFile +
                                             "' not found next to the hwspec, and no bundled ISA by that name "
                                             "(bundled: vta.isa.yaml, small.isa.yaml)");
  return makeTarget(spec, text, spec.isaFile);
}

}  // namespace accelc::isa
