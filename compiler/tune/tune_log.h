// compiler/tune/tune_log.h — the tuning log: JSON lines, one per tuned
// layer key, that `accelc compile --tune-log` reuses.
//
// An entry is keyed by the layer's key (layerKey), the hwspec's hash (of its
// canonical YAML) and the compiler build's identity (a hash of the sources
// that decide the lowering and the tuning, compiler/build_identity.h; the
// version string does not change when they do). Its schedule applies only when
// all three match; an entry for another hwspec or build is ignored with a
// note. A log gathers entries of several hwspecs: writing one keeps the
// entries of other keys.
//
//   {"key": "conv 1x64x56x56+1,1,1,1/4 -> ...", "kind": "conv", "layers": ["/layer1/..."],
//    "hwspec": "3f0c...", "build": "9a1e...", "schedule": {"rows": 2, ...},
//    "cycles": 529863, "untuned_cycles": 531607, "estimate": 529863, "why": "..."}
#ifndef ACCELC_COMPILER_TUNE_TUNE_LOG_H_
#define ACCELC_COMPILER_TUNE_TUNE_LOG_H_

#include <string>
#include <vector>

#include "compiler/schedule/tunable.h"
#include "compiler/tune/tuner.h"
#include "hwspec/hwspec.h"
#include "support/status.h"

namespace accelc::compiler::tune {

/// One line of the log.
struct TuneEntry {
  std::string key, kind;
  std::vector<std::string> layers;  ///< the layers that had this key when it was tuned
  std::string hwspec, build;        ///< hwspecHash, buildIdentity
  ScheduleChoice choice;
  int64_t cycles = 0, untunedCycles = 0, estimate = 0;  ///< measured, measured untuned, the cost model's
  std::string why;
};

/// 16 hex digits: the hash of `hw`'s canonical YAML.
std::string hwspecHash(const hwspec::HwSpec& hw);
/// The compiler build's identity, 16 hex digits.
std::string buildIdentity();

/// The entries of a tuning on `hw`.
std::vector<TuneEntry> entriesOf(const std::vector<LayerTuning>& tuned, const hwspec::HwSpec& hw);

/// Writes `entries` into the log at `path`, keeping the entries already
/// there whose key, hwspec or build differs from every new one's (a log that
/// cannot be read is an error, never overwritten); whole or not at all.
support::Status writeTuneLog(const std::string& path, const std::vector<TuneEntry>& entries);

/// Reads the log at `path`. Errors are located (path:line) and say what was
/// expected.
support::Expected<std::vector<TuneEntry>> readTuneLog(const std::string& path);

/// The choices of `entries` that apply to `hw` and this build, by key;
/// `notes` hears one line per entry ignored and why.
TunedSchedules applicable(const std::vector<TuneEntry>& entries, const hwspec::HwSpec& hw,
                          std::vector<std::string>* notes);

}  // namespace accelc::compiler::tune

#endif  // ACCELC_COMPILER_TUNE_TUNE_LOG_H_
