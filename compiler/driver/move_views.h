// compiler/driver/move_views.h — moves of rows of pixels as views, part of the `partition` pass.
#ifndef ACCELC_COMPILER_DRIVER_MOVE_VIEWS_H_
#define ACCELC_COMPILER_DRIVER_MOVE_VIEWS_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// Whether `n` only moves int8 elements (Reshape, Transpose, Slice, Squeeze, Unsqueeze, Flatten, Identity)
/// with every input but the first a constant.
bool isMove(const Graph& g, const Node& n);

/// After the placements: every int8 move on the host whose output, stored as rows of pixels
/// (runtime::BlockedForm::kRows) or, when only accelerator matrix products read it as their right operand, as
/// weights (kWeights), is a contiguous run of the rows storage of the value its chain of moves starts from,
/// written by an accelerator layer, becomes a MovePlan view of it (attention's head split and join, Kᵀ, the
/// reshapes around a batched product's rows): its readers read that storage in place. The moves above a view
/// that only views read then fold into them, and no step computes them.
void planMoveViews(Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_MOVE_VIEWS_H_
