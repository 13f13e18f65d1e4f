// compiler/driver/plan_dram.h — the `plan-dram` pass.
#ifndef ACCELC_COMPILER_DRIVER_PLAN_DRAM_H_
#define ACCELC_COMPILER_DRIVER_PLAN_DRAM_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// An address for every tensor slot, and the constants host steps read.
/// Intermediate tensors share DRAM when their lifetimes (first write to last
/// read, in steps) do not overlap: plain ones when the region is large
/// enough, blocked ones only with a tensor of the very same layout — their
/// borders, written once at load, then hold the same fill and no step writes
/// them. Model inputs, outputs and constants keep their own memory.
support::Status planDram(Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_PLAN_DRAM_H_
