// compiler/schedule/tunable.h — the layers whose schedules the tuner chooses:
// their legal choices, the key a tuning log files a layer under, and a
// layer's program under a choice.
//
// A convolution (or matrix product) chooses its tiling (lower::ConvSchedule:
// rows, columns, output blocks per tile, input blocks per reduction chunk)
// and whether its ALU passes walk a tile in the instructions' loops; a pool
// its output rows per tile; an addition its rows per tile and, in the GEMM
// form, the same loops. The partition asks the tuning log before searching
// (TuneHooks), so a compile with a log and one without differ only in the
// choices the log names.
#ifndef ACCELC_COMPILER_SCHEDULE_TUNABLE_H_
#define ACCELC_COMPILER_SCHEDULE_TUNABLE_H_

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "compiler/lower/add.h"
#include "compiler/lower/conv.h"
#include "compiler/lower/pool.h"
#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::compiler {

/// A pool's schedule: output rows per tile.
struct PoolChoice {
  int64_t rows = 1;
};
/// An addition's schedule: image rows per tile, and the GEMM form's passes in loops.
struct AddChoice {
  int64_t rows = 1;
  bool loops = false;
};

/// A layer whose schedule is chosen, as the partition lowers it.
using TunableLayer = std::variant<lower::ConvLayer, lower::PoolLayer, lower::AddLayer>;
/// One schedule of a layer of the matching kind.
using ScheduleChoice = std::variant<lower::ConvSchedule, PoolChoice, AddChoice>;

/// A choice from a tuning log, with why it won.
struct TunedChoice {
  ScheduleChoice choice;
  std::string why;
};
/// Tuned choices by layerKey.
using TunedSchedules = std::map<std::string, TunedChoice>;

/// What a compile hands the partition for tuning: the log's choices, and
/// where every tunable layer it places is recorded (either may be null).
struct TuneHooks {
  const TunedSchedules* tuned = nullptr;
  std::vector<TunableLayer>* seen = nullptr;
};

const std::string& layerName(const TunableLayer& l);
/// "conv", "pool" or "add".
std::string layerKind(const TunableLayer& l);
/// What decides the layer's program on `hw` besides its schedule: its kind,
/// layouts, shape, window and the passes its arithmetic needs, never its
/// weights. Two layers with one key have the same instructions under every
/// choice but for their immediates (zero points, clamps), so the same cycles.
std::string layerKey(const TunableLayer& l, const hwspec::HwSpec& hw);

/// Every legal schedule, the tiling formulas' best first for a convolution
/// (each tiling twice: ALU passes in loops, then one micro-op per pixel; a
/// program whose loops or DMAs the ISA's fields cannot hold fails to encode,
/// and the untuned choice may then load a DMA per row), the most rows first
/// otherwise; or the error that no tiling fits.
support::Expected<std::vector<ScheduleChoice>> legalChoices(const TunableLayer& l, const hwspec::HwSpec& hw);
/// The schedule the compiler chooses without a tuning log: a convolution's
/// searchConvSchedule, a pool's or an addition's most rows per tile (the
/// addition's passes in loops when its program encodes so).
support::Expected<ScheduleChoice> untunedChoice(const TunableLayer& l, const isa::Target& t, bool serialize);
/// Whether `c` is a legal schedule of `l` (a choice read from a log is checked before use).
support::Status checkChoice(const TunableLayer& l, const ScheduleChoice& c, const hwspec::HwSpec& hw);
/// "2 rows x all columns x 4 output blocks x 1 input blocks per chunk, ALU loops".
std::string describeChoice(const ScheduleChoice& c);

/// `l`'s program under `c`, its tensors, constants, micro-ops and text laid
/// out from address 0 one after another on the DRAM plan's 64-byte alignment
/// (so its DMAs meet 4 KiB boundaries as a model's do, if not at the same
/// places); an error when it does not encode.
support::Expected<isa::Program> choiceProgram(const TunableLayer& l, const ScheduleChoice& c, const isa::Target& t,
                                              bool serialize);

/// A choice as JSON, and back (`kind` is its layer's); the error says what is wrong with `j`.
nlohmann::ordered_json choiceJson(const ScheduleChoice& c);
support::Expected<ScheduleChoice> parseChoice(const nlohmann::json& j, const std::string& kind);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_SCHEDULE_TUNABLE_H_
