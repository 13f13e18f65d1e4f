// compiler/driver/build_steps.h — the `build-steps` pass.
#ifndef ACCELC_COMPILER_DRIVER_BUILD_STEPS_H_
#define ACCELC_COMPILER_DRIVER_BUILD_STEPS_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// The bundle's tensor slots and steps, in node order: an accelerator step
/// per accelerator node (reading and writing blocked slots; QGemm rows of
/// pixels), a host step per host node (plain slots), and a pack or unpack
/// step wherever a value is needed in a layout it does not have yet.
support::Status buildSteps(Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_BUILD_STEPS_H_
