// compiler/tune/tuner.h — the schedule tuner: per distinct layer, the cost
// model ranks the legal schedules and the cycle model measures the best.
//
// Layers with one key (layerKey) share their programs under every schedule,
// so each key is tuned once. Per key:
//  1. the legal choices (legalChoices: never an illegal one), the tiling
//     formulas' best `estimated` of a convolution's and every one of a pool's
//     or an addition's, are lowered and replayed with the cost model
//     (lower::estimateProgram); those that do not encode are dropped;
//  2. the `measured` best by that estimate, and always the choice the
//     compiler makes without tuning, run on the cycle model (measure.h),
//     round by round over all keys so that the processes keep many layers
//     in flight and a budget that ends early still leaves every layer its
//     best estimates measured;
//  3. the fastest measured choice wins; a tie goes to the untuned choice.
#ifndef ACCELC_COMPILER_TUNE_TUNER_H_
#define ACCELC_COMPILER_TUNE_TUNER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/schedule/tunable.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::compiler::tune {

/// How the tuner runs.
struct TuneOptions {
  double budgetSeconds = 60;  ///< wall time for both phases; measuring stops starting programs after it
  int jobs = 1;               ///< measuring processes
  size_t estimated = 64;      ///< a convolution's tilings replayed with the cost model (each in two ALU forms)
  size_t measured = 24;       ///< choices per layer measured on the cycle model, besides the untuned one
  bool serialize = false;     ///< programs without overlap between the units (compile --serialize)
  /// Hears the phase ("estimate", "measure"), the work done and the work in all.
  std::function<void(const std::string& phase, size_t done, size_t total)> progress;
};

/// One schedule tried.
struct Candidate {
  ScheduleChoice choice;
  int64_t estimate = 0;   ///< the cost model's cycles (lower::estimateContended: DMAs sharing the data channel)
  int64_t alone = 0;      ///< the cost model's cycles with each DMA alone on the port (lower::estimateProgram)
  int64_t measured = -1;  ///< the cycle model's; -1 when not measured
  std::string error;      ///< why the measurement failed
};

/// What tuning one key gave.
struct LayerTuning {
  std::string key;                 ///< layerKey
  std::string kind;                ///< layerKind
  std::vector<std::string> names;  ///< the layers with this key, in the model's order
  size_t legal = 0;                ///< legal choices
  std::vector<Candidate> candidates;  ///< those that encode, by estimate
  size_t untuned = 0;              ///< the compiler's own choice (always measured)
  size_t chosen = 0;               ///< the fastest measured
  int64_t runnerUp = -1;           ///< the second fastest measured, or -1
  std::string why;                 ///< one line: why the chosen beat the runner-up
};

/// Tunes the schedules of `layers` (as the partition records them, in the
/// model's order, repeated keys allowed) for `t`. An error when a layer has
/// no legal schedule or nothing could be measured.
support::Expected<std::vector<LayerTuning>> tuneLayers(const std::vector<TunableLayer>& layers, const isa::Target& t,
                                                       const TuneOptions& o);

/// The analytic model's error on a tuned layer: |estimate − measured| /
/// measured of its chosen schedule, in percent; with `alone`, of the
/// estimate that puts each DMA alone on the port (the compiler's search's).
double estimateErrorPct(const LayerTuning& l, bool alone = false);

}  // namespace accelc::compiler::tune

#endif  // ACCELC_COMPILER_TUNE_TUNER_H_
