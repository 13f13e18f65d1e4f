// compiler/passes/channel_slices.h — Split and Slice nodes that only cut a
// 4-D value's channels, for the DRAM plan: each part can be a view of the
// input's blocked storage (its readers load it with the input's row pitch),
// no copy.
#ifndef ACCELC_COMPILER_PASSES_CHANNEL_SLICES_H_
#define ACCELC_COMPILER_PASSES_CHANNEL_SLICES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/graph/graph.h"

namespace accelc::compiler {

/// The first channel of each output of `n` when it is a Split along axis 1 of
/// a 4-D value, or a Slice of a 4-D value with constant starts, ends, axes and
/// steps whose only cut is a contiguous range of channels (steps 1); nothing
/// otherwise.
std::optional<std::vector<int64_t>> channelStarts(const Graph& g, const Node& n);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_PASSES_CHANNEL_SLICES_H_
