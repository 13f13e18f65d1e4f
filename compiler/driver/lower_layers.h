// compiler/driver/lower_layers.h — the `lower` pass.
#ifndef ACCELC_COMPILER_DRIVER_LOWER_LAYERS_H_
#define ACCELC_COMPILER_DRIVER_LOWER_LAYERS_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// Lowers every accelerator step on its plan to loop IR at its tensors'
/// addresses, writes its packed weights and parameter rows as bundle
/// constants, and places its micro-ops and text in DRAM; the programs wait
/// for the window (`emit`). The loop IR of every kernel is the pass's text.
support::Status lowerLayers(Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_LOWER_LAYERS_H_
