// support/yaml.cc — located YAML reading.
#include "support/yaml.h"

#include <sys/stat.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

namespace accelc::support {

namespace {

/// How deep a document may nest: far more than any of the project's files.
constexpr int kMaxYamlDepth = 64;

/// A tag as the file spells it ("!!str" for yaml-cpp's expanded form).
std::string tagText(const std::string& tag) {
  const std::string core = "tag:yaml.org,2002:";
  return tag.rfind(core, 0) == 0 ? "!!" + tag.substr(core.size()) : tag;
}

/// What the project's files may not hold: explicit tags (a value is read
/// by the key's schema, never by a tag), duplicated keys (yaml-cpp would
/// keep one of them silently), and nesting past kMaxYamlDepth.
Status checkStrict(const YAML::Node& n, const std::string& path, int depth) {
  if (depth > kMaxYamlDepth)
    return error(yamlLocation(path, n), "YAML nested deeper than " + std::to_string(kMaxYamlDepth) + " levels");
  if (n.Tag() != "?" && n.Tag() != "!" && !n.Tag().empty())
    return error(yamlLocation(path, n), "YAML tag '" + tagText(n.Tag()) + "' is not accepted: write the plain value");
  if (n.IsSequence())
    for (const YAML::Node& e : n) ACCELC_TRY(checkStrict(e, path, depth + 1));
  if (!n.IsMap()) return Status::ok();
  std::vector<std::pair<std::string, YAML::Mark>> seen;
  for (const auto& kv : n) {
    ACCELC_TRY(checkStrict(kv.first, path, depth + 1));
    if (kv.first.IsScalar()) {
      const std::string& key = kv.first.Scalar();
      for (const auto& [k, mark] : seen)
        if (k == key)
          return error(yamlLocation(path, kv.first), "duplicated key '" + key + "' (first at line " +
                                                         std::to_string(mark.line + 1) + ", column " +
                                                         std::to_string(mark.column + 1) + ")");
      seen.emplace_back(key, kv.first.Mark());
    }
    ACCELC_TRY(checkStrict(kv.second, path, depth + 1));
  }
  return Status::ok();
}

/// Counts a document's parse events and remembers where the first one is.
class EventCounter : public YAML::EventHandler {
 public:
  int events = 0;     ///< events seen
  YAML::Mark first;   ///< where the first one is
  void OnDocumentStart(const YAML::Mark& m) override { note(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { note(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnMapEnd() override {}

 private:
  void note(const YAML::Mark& m) {
    if (events++ == 0) first = m;
  }
};

/// Where a second document starts, if the text has one. Only two documents
/// are ever parsed: yaml-cpp 0.7's LoadAll loops for ever, allocating, on
/// some malformed flow text (a run of quoted scalars in an unclosed
/// mapping), because its parser then yields one empty document after another.
std::optional<YAML::Mark> secondDocument(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  EventCounter first, second;
  if (!parser.HandleNextDocument(first)) return std::nullopt;
  if (!parser.HandleNextDocument(second) || second.events == 0) return std::nullopt;
  return second.first;
}

}  // namespace

Expected<YAML::Node> parseYaml(const std::string& text, const std::string& path) {
  YAML::Node doc;
  try {
    if (std::optional<YAML::Mark> m = secondDocument(text))
      return error(Location::file(path, m->line + 1, m->column + 1), "a second YAML document: the file must hold one");
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return error(Location::file(path, e.mark.line + 1, e.mark.column + 1),
                 "malformed YAML: " + e.msg);
  }
  ACCELC_TRY(checkStrict(doc, path, 0));
  return doc;
}

Status writeTextFile(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) return error(Location::file(path), "cannot write the file");
  return Status::ok();
}

std::string lastLines(const std::string& path, size_t n) {
  std::ifstream f(path);
  std::vector<std::string> all;
  for (std::string l; std::getline(f, l);) all.push_back(l);
  std::string out;
  for (size_t i = all.size() > n ? all.size() - n : 0; i < all.size(); ++i) out += "\n  " + all[i];
  return out;
}

bool moveIntoPlace(const std::string& work, const std::string& dir, const std::string& file) {
  if (::rename(work.c_str(), dir.c_str()) != 0 && isRegularFile(dir + "/" + file)) {
    std::error_code ignored;
    std::filesystem::remove_all(work, ignored);
  }
  return isRegularFile(dir + "/" + file);
}

bool makeDirs(const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); ++i)
    if (i == dir.size() || dir[i] == '/') ::mkdir(dir.substr(0, i).c_str(), 0755);
  struct stat st;
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

Expected<std::string> readTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error(Location::file(path), "cannot open file for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Location yamlLocation(const std::string& path, const YAML::Node& node) {
  YAML::Mark m = node.Mark();
  if (m.line < 0) return Location::file(path);
  return Location::file(path, m.line + 1, m.column + 1);
}

Expected<YamlMap> YamlMap::of(const YAML::Node& node, std::string path, std::string prefix) {
  if (!node.IsMap()) {
    std::string what = prefix.empty() ? "the document" : "key '" + prefix + "'";
    return error(yamlLocation(path, node), what + ": expected a mapping");
  }
  return YamlMap(node, std::move(path), std::move(prefix));
}

std::string YamlMap::dotted(const std::string& key) const {
  return prefix_.empty() ? key : prefix_ + "." + key;
}

bool YamlMap::has(const std::string& key) const { return static_cast<bool>(node_[key]); }

Location YamlMap::keyLoc(const std::string& key) const {
  for (const auto& kv : node_) {
    if (kv.first.Scalar() == key) return yamlLocation(path_, kv.first);
  }
  return loc();
}

Location YamlMap::valueLoc(const std::string& key) const {
  YAML::Node v = node_[key];
  return v ? yamlLocation(path_, v) : loc();
}

Expected<YAML::Node> YamlMap::required(const std::string& key, const char* what) {
  known_.push_back(key);
  YAML::Node v = node_[key];
  if (!v) return error(loc(), "missing key '" + dotted(key) + "' (expected " + what + ")");
  return v;
}

Diagnostic YamlMap::wrongType(const std::string& key, const std::string& what) const {
  YAML::Node v = node_[key];
  std::string found = v.IsScalar() ? "'" + v.Scalar() + "'" : v.IsMap() ? "a mapping" : "a sequence";
  return error(valueLoc(key), "key '" + dotted(key) + "': expected " + what + ", found " + found);
}

static std::optional<int64_t> parseInteger(const std::string& s) {
  if (s.empty()) return std::nullopt;
  size_t pos = 0;
  try {
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    long long v = std::stoll(s, &pos, hex ? 16 : 10);
    if (pos != s.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

Expected<int64_t> YamlMap::integer(const std::string& key, int64_t lo, int64_t hi) {
  std::string what = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  ACCELC_ASSIGN_OR_RETURN(YAML::Node v, required(key, what.c_str()));
  std::optional<int64_t> n = v.IsScalar() ? parseInteger(v.Scalar()) : std::nullopt;
  if (!n || *n < lo || *n > hi) return wrongType(key, what);
  return *n;
}

Expected<int64_t> YamlMap::integerOr(const std::string& key, int64_t def, int64_t lo, int64_t hi) {
  if (!has(key)) {
    known_.push_back(key);
    return def;
  }
  return integer(key, lo, hi);
}

Expected<bool> YamlMap::booleanOr(const std::string& key, bool def) {
  if (!has(key)) {
    known_.push_back(key);
    return def;
  }
  ACCELC_ASSIGN_OR_RETURN(YAML::Node v, required(key, "true or false"));
  if (!v.IsScalar() || (v.Scalar() != "true" && v.Scalar() != "false")) return wrongType(key, "true or false");
  return v.Scalar() == "true";
}

std::optional<int64_t> parseByteSize(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0) return std::nullopt;
  std::optional<int64_t> n = parseInteger(text.substr(0, i));
  if (!n) return std::nullopt;
  std::string unit = text.substr(i);
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  int shift = -1;
  if (unit.empty() || unit == "B") shift = 0;
  if (unit == "KiB") shift = 10;
  if (unit == "MiB") shift = 20;
  if (unit == "GiB") shift = 30;
  if (shift < 0 || *n > (int64_t{1} << (62 - shift))) return std::nullopt;
  return *n << shift;
}

Expected<int64_t> YamlMap::bytes(const std::string& key) {
  const char* what = "a byte size such as 4096, 32KiB or 1MiB";
  ACCELC_ASSIGN_OR_RETURN(YAML::Node v, required(key, what));
  std::optional<int64_t> n = v.IsScalar() ? parseByteSize(v.Scalar()) : std::nullopt;
  if (!n || *n <= 0) return wrongType(key, what);
  return *n;
}

Expected<std::string> YamlMap::string(const std::string& key) {
  ACCELC_ASSIGN_OR_RETURN(YAML::Node v, required(key, "a string"));
  if (!v.IsScalar()) return wrongType(key, "a string");
  return v.Scalar();
}

Expected<YamlMap> YamlMap::map(const std::string& key) {
  ACCELC_ASSIGN_OR_RETURN(YAML::Node v, required(key, "a mapping"));
  if (!v.IsMap()) return wrongType(key, "a mapping");
  return YamlMap(v, path_, dotted(key));
}

Expected<std::vector<std::string>> YamlMap::stringList(const std::string& key) {
  ACCELC_ASSIGN_OR_RETURN(YAML::Node v, required(key, "a list of names"));
  if (!v.IsSequence()) return wrongType(key, "a list of names");
  std::vector<std::string> out;
  for (const YAML::Node& e : v) {
    if (!e.IsScalar()) return error(yamlLocation(path_, e), "key '" + dotted(key) + "': expected a name");
    out.push_back(e.Scalar());
  }
  return out;
}

YAML::Node YamlMap::raw(const std::string& key) {
  known_.push_back(key);
  return node_[key];
}

Status YamlMap::finish() const {
  for (const auto& kv : node_) {
    const std::string& k = kv.first.Scalar();
    if (std::find(known_.begin(), known_.end(), k) != known_.end()) continue;
    std::string list;
    for (const std::string& n : known_) list += (list.empty() ? "" : ", ") + n;
    return error(yamlLocation(path_, kv.first),
                 "unknown key '" + dotted(k) + "'; expected one of: " + list);
  }
  return Status::ok();
}

}  // namespace accelc::support
