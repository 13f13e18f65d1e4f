// compiler/lower/codegen.h — loop IR to an instruction stream.
#ifndef ACCELC_COMPILER_LOWER_CODEGEN_H_
#define ACCELC_COMPILER_LOWER_CODEGEN_H_

#include <string>

#include "compiler/lower/loop_ir.h"
#include "isa/builder.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::compiler::lower {

/// Where a kernel's own DRAM segments go.
struct CodegenPlacement {
  uint64_t uops = 0;  ///< byte address of the micro-op table
  uint64_t text = 0;  ///< byte address of the instructions
};

/// Appends the kernel's micro-op table, instructions and a label to `b`
/// (the builder owns symbols, window and the rest of the DRAM image).
/// With `serialize`, every instruction waits for the one before it: the same
/// program with all overlap between the units removed.
support::Status emitKernel(const Kernel& k, const isa::Target& t, const CodegenPlacement& at, bool serialize,
                           isa::ProgramBuilder& b);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_CODEGEN_H_
