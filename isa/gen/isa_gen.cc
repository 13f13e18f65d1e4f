// isa/gen/isa_gen.cc — build-time generator: ISA YAML -> X-macro include.
//
// Reads the canonical ISA description and writes the compiled-in instruction
// set (formats, opcodes, field names, enumerations) as X-macros, so the C++
// enums and typed instruction structs come from the same data as the run-time
// layout. Usage: accelc_isa_gen ISA.yaml OUT.inc
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

/// snake_case or UPPER -> UpperCamel.
std::string camel(const std::string& s, bool upperFirst) {
  std::string out;
  bool up = upperFirst;
  for (char c : s) {
    if (c == '_') {
      up = true;
      continue;
    }
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(l))) : l;
    up = false;
  }
  return out;
}

void emitFormats(const YAML::Node& formats, std::ostream& o) {
  o << "#define ACCELC_ISA_FORMATS(X)";
  for (const auto& f : formats) o << " \\\n  X(" << camel(f["name"].as<std::string>(), true) << ", "
                                  << f["name"].as<std::string>() << ")";
  o << "\n\n#define ACCELC_ISA_OPCODES(X)";
  for (const auto& f : formats) {
    if (!f["opcodes"]) continue;
    for (const auto& op : f["opcodes"])
      o << " \\\n  X(" << camel(op.first.as<std::string>(), true) << ", " << op.first.as<std::string>() << ", "
        << camel(f["name"].as<std::string>(), true) << ")";
  }
  o << "\n\n";
  for (const auto& f : formats) {
    o << "#define ACCELC_ISA_FIELDS_" << camel(f["name"].as<std::string>(), true) << "(X)";
    for (const auto& fld : f["fields"]) {
      std::string n = fld["name"].as<std::string>();
      o << " \\\n  X(" << camel(n, false) << ", " << n << ")";
    }
    o << "\n\n";
  }
}

/// X(Format, format, field, Enum) for every enumerated field.
void emitEnumFields(const YAML::Node& formats, std::ostream& o) {
  o << "#define ACCELC_ISA_ENUM_FIELDS(X)";
  for (const auto& f : formats)
    for (const auto& fld : f["fields"])
      if (fld["enum"])
        o << " \\\n  X(" << camel(f["name"].as<std::string>(), true) << ", " << f["name"].as<std::string>() << ", "
          << fld["name"].as<std::string>() << ", " << camel(fld["enum"].as<std::string>(), true) << ")";
  o << "\n\n";
}

void emitEnums(const YAML::Node& enums, std::ostream& o) {
  o << "#define ACCELC_ISA_ENUMS(X)";
  for (const auto& e : enums) o << " \\\n  X(" << camel(e.first.as<std::string>(), true) << ", "
                                << e.first.as<std::string>() << ")";
  o << "\n\n";
  for (const auto& e : enums) {
    o << "#define ACCELC_ISA_ENUM_" << camel(e.first.as<std::string>(), true) << "(X)";
    for (const auto& v : e.second) o << " \\\n  X(" << camel(v.first.as<std::string>(), true) << ", "
                                     << v.first.as<std::string>() << ")";
    o << "\n\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: accelc_isa_gen ISA.yaml OUT.inc\n";
    return 2;
  }
  try {
    YAML::Node isa = YAML::LoadFile(argv[1]);
    std::ostringstream o;
    o << "// Generated from " << std::string(argv[1]).substr(std::string(argv[1]).rfind('/') + 1)
      << " by accelc_isa_gen; do not edit.\n\n";
    emitFormats(isa["formats"], o);
    emitEnums(isa["enums"], o);
    emitEnumFields(isa["formats"], o);
    std::ofstream out(argv[2]);
    out << o.str();
    return out ? 0 : 1;
  } catch (const YAML::Exception& e) {
    std::cerr << argv[1] << ":" << e.mark.line + 1 << ":" << e.mark.column + 1 << ": error: " << e.msg << "\n";
    return 1;
  }
}
