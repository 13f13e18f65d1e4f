// compiler/driver/finish_bundle.h — the `finish-bundle` pass.
#ifndef ACCELC_COMPILER_DRIVER_FINISH_BUNDLE_H_
#define ACCELC_COMPILER_DRIVER_FINISH_BUNDLE_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// Completes the bundle: its hwspec, ISA and hash, one layer record per node
/// (where it runs and why, MACs, compulsory DRAM bytes, and for accelerator
/// layers the cost model's estimate of its program), the integer graph's
/// text for the reference engine; then validates it.
support::Status finishBundle(Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_FINISH_BUNDLE_H_
