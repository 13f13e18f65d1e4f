// compiler/driver/move_clamps.h — the `move-clamps` pass.
#ifndef ACCELC_COMPILER_DRIVER_MOVE_CLAMPS_H_
#define ACCELC_COMPILER_DRIVER_MOVE_CLAMPS_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// Gives each accelerator MaxPool the clamp below (a ReLU) of the QConv it
/// alone reads: the maximum of clamped values is the clamped maximum, so the
/// pool's outputs stay the same while the clamp runs on a fraction of the
/// values (a quarter behind a 3x3 pool of stride 2). The convolution's output
/// tensor, which nothing else reads, then holds unclamped values.
support::Status moveClamps(Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_MOVE_CLAMPS_H_
