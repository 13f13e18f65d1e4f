// compiler/driver/emit_programs.h — the `emit` pass.
#ifndef ACCELC_COMPILER_DRIVER_EMIT_PROGRAMS_H_
#define ACCELC_COMPILER_DRIVER_EMIT_PROGRAMS_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// Sizes the bundle's DRAM window (whole 4 KiB pages; an error when it
/// exceeds the hwspec's dram.window or --window) and encodes every lowered layer into a
/// program over that window.
support::Status emitPrograms(Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_EMIT_PROGRAMS_H_
