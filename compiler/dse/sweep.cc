// compiler/dse/sweep.cc — reading and validating sweeps, and their points.
//
// The keys a sweep may vary are those of the base hwspec's canonical YAML
// (every key, its defaults filled in) plus dram.split_4k; a point's hwspec is
// that YAML with the point's values put in, read back by the hwspec parser,
// so that the one schema decides what a value may be.
#include "compiler/dse/sweep.h"

#include <yaml-cpp/yaml.h>

#include <set>

#include "boards/board_spec.h"
#include "support/yaml.h"

namespace accelc::compiler::dse {

using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

/// The keys a sweep may vary, from the base's canonical YAML: its top-level
/// scalars but the schema and the name, and each section's keys.
std::set<std::string> variableKeys(const YAML::Node& canonical) {
  std::set<std::string> keys = {"dram.split_4k"};
  for (const auto& kv : canonical) {
    const std::string k = kv.first.Scalar();
    if (kv.second.IsScalar() && k != "schema" && k != "name") keys.insert(k);
    if (kv.second.IsMap())
      for (const auto& e : kv.second) keys.insert(k + "." + e.first.Scalar());
  }
  return keys;
}

/// The values of a range {from, to, step} or {from, to, times}.
Expected<std::vector<std::string>> rangeValues(const YAML::Node& node, const std::string& path, const std::string& key) {
  ACCELC_ASSIGN_OR_RETURN(support::YamlMap r, support::YamlMap::of(node, path, "vary." + key));
  ACCELC_ASSIGN_OR_RETURN(int64_t from, r.integer("from", INT32_MIN, INT32_MAX));
  ACCELC_ASSIGN_OR_RETURN(int64_t to, r.integer("to", INT32_MIN, INT32_MAX));
  if (r.has("step") == r.has("times"))
    return error(r.loc(), "range 'vary." + key + "': give exactly one of 'step' (added) and 'times' (multiplied)");
  ACCELC_ASSIGN_OR_RETURN(int64_t step, r.integerOr("step", 0, 1, INT32_MAX));
  ACCELC_ASSIGN_OR_RETURN(int64_t times, r.integerOr("times", 0, 2, 1 << 20));
  ACCELC_TRY(r.finish());
  if (from > to) return error(r.valueLoc("to"), "range 'vary." + key + "': 'to' is below 'from'");
  if (times && from < 1) return error(r.valueLoc("from"), "range 'vary." + key + "': a multiplied range starts at 1 or more");
  std::vector<std::string> values;
  for (int64_t v = from; v <= to; v = step ? v + step : v * times) {
    if (static_cast<int64_t>(values.size()) == kMaxValues)
      return error(r.loc(), "range 'vary." + key + "' has more than " + std::to_string(kMaxValues) + " values");
    values.push_back(std::to_string(v));
  }
  return values;
}

/// An axis's values: a list of scalars, or a range.
Expected<std::vector<std::string>> axisValues(const YAML::Node& node, const std::string& path, const std::string& key) {
  if (node.IsMap()) return rangeValues(node, path, key);
  if (!node.IsSequence() || node.size() == 0)
    return error(support::yamlLocation(path, node),
                 "key 'vary." + key + "': expected a non-empty list of values or a range {from, to, step or times}");
  if (node.size() > static_cast<size_t>(kMaxValues))
    return error(support::yamlLocation(path, node), "key 'vary." + key + "' has more than " + std::to_string(kMaxValues) + " values");
  std::vector<std::string> values;
  for (const YAML::Node& v : node) {
    if (!v.IsScalar()) return error(support::yamlLocation(path, v), "key 'vary." + key + "': each value is a scalar");
    for (const std::string& seen : values)
      if (seen == v.Scalar()) return error(support::yamlLocation(path, v), "key 'vary." + key + "': value '" + seen + "' twice");
    values.push_back(v.Scalar());
  }
  return values;
}

/// The axes of `vary`, checked against the keys of the base.
Expected<std::vector<SweepAxis>> readAxes(const YAML::Node& vary, const std::string& path, const std::set<std::string>& keys) {
  if (!vary.IsMap()) return error(support::yamlLocation(path, vary), "key 'vary': expected a mapping of hwspec keys to values");
  std::vector<SweepAxis> axes;
  int64_t points = 1;
  for (const auto& kv : vary) {
    const std::string key = kv.first.Scalar();
    if (!keys.count(key)) {
      std::string list;
      for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
      return error(support::yamlLocation(path, kv.first), "'" + key + "' is not a hwspec key a sweep can vary; expected one of: " + list);
    }
    ACCELC_ASSIGN_OR_RETURN(std::vector<std::string> values, axisValues(kv.second, path, key));
    points *= static_cast<int64_t>(values.size());
    if (points > kMaxPoints)
      return error(support::yamlLocation(path, kv.first),
                   "the sweep has more than " + std::to_string(kMaxPoints) + " points by key 'vary." + key + "'");
    axes.push_back({key, std::move(values)});
  }
  return axes;
}

std::string folderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

/// `name` as a file next to the sweep when it is relative and no bundled preset has that name.
std::string besideSweep(const std::string& name, const std::string& sweepPath, bool preset) {
  if (preset || name.empty() || name[0] == '/' || folderOf(sweepPath).empty()) return name;
  return folderOf(sweepPath) + "/" + name;
}

}  // namespace

int64_t Sweep::points() const {
  int64_t n = 1;
  for (const SweepAxis& a : axes) n *= static_cast<int64_t>(a.values.size());
  return n;
}

Expected<Sweep> loadSweep(const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(std::string text, support::readTextFile(path));
  return parseSweep(text, path);
}

Expected<Sweep> parseSweep(const std::string& text, const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(YAML::Node doc, support::parseYaml(text, path));
  ACCELC_ASSIGN_OR_RETURN(support::YamlMap root, support::YamlMap::of(doc, path, ""));
  ACCELC_ASSIGN_OR_RETURN(int64_t schema, root.integerOr("sweep", 1, 1, 1 << 20));
  if (schema > 1)
    return error(root.valueLoc("sweep"), "sweep schema " + std::to_string(schema) + " is newer than this accelc reads (1)");
  Sweep s;
  s.path = path;
  ACCELC_ASSIGN_OR_RETURN(s.base, root.string("base"));
  const std::string basePath = besideSweep(s.base, path, !hwspec::presetText(s.base).empty());
  Expected<hwspec::HwSpec> base = hwspec::loadHwSpec(basePath);
  if (!base)  // the base's own error, as a note at its place
    return error(root.valueLoc("base"), "base hwspec '" + s.base + "' cannot be read")
        .note(base.diag().loc, base.diag().message);
  s.baseYaml = base->canonicalYaml();
  s.baseDir = base->sourceDir;
  if (root.has("board")) {
    ACCELC_ASSIGN_OR_RETURN(std::string board, root.string("board"));
    const std::string beside = besideSweep(board, path, false);
    s.board = support::isRegularFile(beside) ? beside : board;
    Expected<boards::BoardSpec> b = boards::loadBoard(s.board);
    if (!b) return error(root.valueLoc("board"), "board '" + board + "' cannot be read").note(b.diag().loc, b.diag().message);
  }
  const YAML::Node vary = root.raw("vary");
  ACCELC_TRY(root.finish());
  if (vary && !vary.IsNull()) {
    ACCELC_ASSIGN_OR_RETURN(s.axes, readAxes(vary, path, variableKeys(YAML::Load(s.baseYaml))));
  }
  return s;
}

std::vector<std::string> pointValues(const Sweep& s, int64_t i) {
  std::vector<std::string> v(s.axes.size());
  for (size_t a = s.axes.size(); a-- > 0;) {
    const int64_t n = static_cast<int64_t>(s.axes[a].values.size());
    v[a] = s.axes[a].values[static_cast<size_t>(i % n)];
    i /= n;
  }
  return v;
}

std::string describePoint(const Sweep& s, int64_t i) {
  const std::vector<std::string> v = pointValues(s, i);
  std::string out;
  for (size_t a = 0; a < v.size(); ++a) out += (a ? ", " : "") + s.axes[a].key + "=" + v[a];
  return out.empty() ? "base" : out;
}

Expected<hwspec::HwSpec> pointHwSpec(const Sweep& s, int64_t i) {
  YAML::Node doc = YAML::Load(s.baseYaml);
  const std::vector<std::string> v = pointValues(s, i);
  for (size_t a = 0; a < v.size(); ++a) {
    const std::string& key = s.axes[a].key;
    const size_t dot = key.find('.');
    if (dot == std::string::npos) doc[key] = v[a];
    else doc[key.substr(0, dot)][key.substr(dot + 1)] = v[a];
  }
  YAML::Emitter out;
  out << doc;
  const std::string where = s.path + " point " + std::to_string(i) + " (" + describePoint(s, i) + ")";
  Expected<hwspec::HwSpec> spec = hwspec::parseHwSpec(out.c_str(), where);
  if (!spec) return error(Location::file(where), spec.diag().message);
  // Later errors (the ISA's fields) name the point, not places in the YAML made for it.
  spec->sourcePath = where;
  for (auto& [key, loc] : spec->keyLocs) loc = Location::file(where);
  spec->sourceDir = s.baseDir;  // the base's ISA file, when it has one of its own
  return spec;
}

}  // namespace accelc::compiler::dse
