// compiler/driver/borders.h — the `trial-borders` and `infer-borders` passes.
#ifndef ACCELC_COMPILER_DRIVER_BORDERS_H_
#define ACCELC_COMPILER_DRIVER_BORDERS_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// Per value, the border (top, left, bottom, right) its accelerator readers
/// need: a blocked tensor carries its convolution's or pool's padding, so the
/// DMA reads it without a padded copy. Before partitioning, every QConv and
/// MaxPool counts (`trial-borders`: an upper bound the partitioner's trial
/// lowering uses); after, only those placed on the accelerator (`infer-borders`).
support::Status trialBorders(Lowering& s);
support::Status inferBorders(Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_BORDERS_H_
