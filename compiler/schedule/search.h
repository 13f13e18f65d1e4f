// compiler/schedule/search.h — choosing a convolution's schedule.
//
// The tiling formulas (compiler/lower/conv.h) rank every legal schedule; the
// best few are lowered and replayed with the cost model
// (lower::estimateProgram), which also sees how loads, GEMMs and the
// requantization of one tile wait on each other, and the fastest is kept.
// The tuner extends this search.
#ifndef ACCELC_COMPILER_SCHEDULE_SEARCH_H_
#define ACCELC_COMPILER_SCHEDULE_SEARCH_H_

#include "compiler/lower/conv.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::compiler {

/// Schedules the tiling formulas rank best that are lowered and replayed.
inline constexpr size_t kReplayedSchedules = 8;

/// The schedule of `l` with the lowest replayed estimate; its `why` says
/// how it was chosen. When none encodes, the formulas' first (the caller's
/// encoding check then says why). An error when no tiling is legal.
support::Expected<lower::ConvSchedule> searchConvSchedule(const lower::ConvLayer& l, const isa::Target& t,
                                                          bool serialize);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_SCHEDULE_SEARCH_H_
