// hwspec/presets.cc — the presets bundled into the binary, and file loading.
#include "hwspec/hwspec.h"
#include "support/yaml.h"

namespace accelc::hwspec {

namespace {
struct Embedded {
  const char* name;  ///< file name without .yaml
  const char* text;  ///< the YAML text
};
const Embedded kPresets[] = {
#include "hwspec/presets.inc"
};

std::string stripYaml(const std::string& n) {
  const std::string ext = ".yaml";
  return n.size() > ext.size() && n.compare(n.size() - ext.size(), ext.size(), ext) == 0
             ? n.substr(0, n.size() - ext.size())
             : n;
}
}  // namespace

std::vector<std::string> presetNames() {
  std::vector<std::string> names;
  for (const Embedded& e : kPresets) names.push_back(e.name);
  return names;
}

std::string presetText(const std::string& name) {
  for (const Embedded& e : kPresets)
    if (stripYaml(name) == e.name) return e.text;
  return "";
}

support::Expected<HwSpec> loadHwSpec(const std::string& pathOrPreset) {
  if (support::isRegularFile(pathOrPreset)) {
    ACCELC_ASSIGN_OR_RETURN(std::string text, support::readTextFile(pathOrPreset));
    ACCELC_ASSIGN_OR_RETURN(HwSpec spec, parseHwSpec(text, pathOrPreset));
    size_t slash = pathOrPreset.rfind('/');
    spec.sourceDir = slash == std::string::npos ? "." : pathOrPreset.substr(0, slash);
    return spec;
  }
  std::string text = presetText(pathOrPreset);
  if (!text.empty()) return parseHwSpec(text, "presets/" + stripYaml(pathOrPreset) + ".yaml");
  std::string list;
  for (const std::string& n : presetNames()) list += (list.empty() ? "" : ", ") + n;
  return support::error(support::Location::file(pathOrPreset),
                        "no such hwspec file, and no preset by that name (presets: " + list + ")");
}

}  // namespace accelc::hwspec
