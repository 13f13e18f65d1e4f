// support/yaml.h — reading YAML while keeping locations.
//
// YamlMap wraps one YAML mapping of a named file. Every accessor records the
// key as known; finish() then reports the first key that no accessor asked
// for ("unknown key"). All errors carry `file:line:col` of the offending key
// or value, and the dotted path of the key (`gemm.block_in`).
#ifndef ACCELC_SUPPORT_YAML_H_
#define ACCELC_SUPPORT_YAML_H_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/status.h"

namespace accelc::support {

/// Parses YAML text holding one document; a syntax error, a second
/// document, an explicit tag (`!!str`) or a duplicated key becomes a located
/// diagnostic.
Expected<YAML::Node> parseYaml(const std::string& text, const std::string& path);

/// Reads a whole file into a string, or a diagnostic naming the file.
Expected<std::string> readTextFile(const std::string& path);
/// Writes `text` to the file `path` (replacing it), or a diagnostic naming the file.
Status writeTextFile(const std::string& path, const std::string& text);
/// The last `n` lines of the file `path`, each indented on a line of its own
/// (for an error that quotes a tool's log); "" when it cannot be read.
std::string lastLines(const std::string& path, size_t n);
/// Renames the finished folder `work` to `dir`, where a cache keeps it; when
/// another process put `dir` there first (it holds `file`), that one is as
/// good and `work` is removed. True when `dir`/`file` exists after.
bool moveIntoPlace(const std::string& work, const std::string& dir, const std::string& file);
/// Creates the folder `dir` and every missing parent (mkdir -p); true when it exists after.
bool makeDirs(const std::string& dir);
/// Whether `path` names a regular file (a bundled name is tried as a path with this).
bool isRegularFile(const std::string& path);

/// The location of a YAML node in `path` (yaml-cpp marks count from 0).
Location yamlLocation(const std::string& path, const YAML::Node& node);

/// A YAML mapping being read key by key.
class YamlMap {
 public:
  /// Wraps `node`, which must be a mapping; `prefix` is its dotted key path
  /// ("" for the document root).
  static Expected<YamlMap> of(const YAML::Node& node, std::string path, std::string prefix);

  bool has(const std::string& key) const;
  /// Where the key `key` is written (or the map itself when absent).
  Location keyLoc(const std::string& key) const;
  /// Where the value of `key` is written (or the map itself when absent).
  Location valueLoc(const std::string& key) const;
  /// The location of the mapping.
  Location loc() const { return yamlLocation(path_, node_); }
  const std::string& path() const { return path_; }
  /// `prefix.key`, as errors spell it.
  std::string dotted(const std::string& key) const;

  /// Required integer in [lo, hi].
  Expected<int64_t> integer(const std::string& key, int64_t lo, int64_t hi);
  /// Optional integer in [lo, hi]; `def` when absent.
  Expected<int64_t> integerOr(const std::string& key, int64_t def, int64_t lo, int64_t hi);
  /// Optional `true` or `false`; `def` when absent.
  Expected<bool> booleanOr(const std::string& key, bool def);
  /// Required byte count: an integer or a string with a B/KiB/MiB/GiB suffix.
  Expected<int64_t> bytes(const std::string& key);
  /// Required scalar string.
  Expected<std::string> string(const std::string& key);
  /// Required nested mapping.
  Expected<YamlMap> map(const std::string& key);
  /// Required sequence of scalar strings.
  Expected<std::vector<std::string>> stringList(const std::string& key);
  /// The raw node of `key` (marks it known); null node when absent.
  YAML::Node raw(const std::string& key);

  /// Reports the first key no accessor asked for.
  Status finish() const;

 private:
  YamlMap(YAML::Node node, std::string path, std::string prefix)
      : node_(std::move(node)), path_(std::move(path)), prefix_(std::move(prefix)) {}
  /// The value node of `key`, or a "missing key" diagnostic.
  Expected<YAML::Node> required(const std::string& key, const char* what);
  Diagnostic wrongType(const std::string& key, const std::string& what) const;

  YAML::Node node_;              ///< the mapping
  std::string path_;             ///< file name used in locations
  std::string prefix_;           ///< dotted path of this mapping
  std::vector<std::string> known_;  ///< keys asked for, in order
};

/// Parses "32KiB", "1MiB", "4096", "512B" into bytes; nullopt when malformed.
std::optional<int64_t> parseByteSize(const std::string& text);

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_YAML_H_
