// compiler/host/loop_codegen.h — a scheduled loop stage as an LLVM function
// (LLVM inside compiler/host only).
//
// The function is `void SYMBOL(float* const* buffers, int64_t begin, int64_t end)`:
// it runs iterations [begin, end) of the schedule's outermost loop when that
// loop is spatial and outside the register tile (a thread pool hands each
// thread a range), else the whole stage. Inside, every buffer pointer is
// `noalias`, the register tile's accumulators are SSA values across the
// reduction loops, the vector loop is explicit <W x float> code with masked
// loads and gathers where bounds or strides need them, and a sum of products
// folds with fma.
#ifndef ACCELC_COMPILER_HOST_LOOP_CODEGEN_H_
#define ACCELC_COMPILER_HOST_LOOP_CODEGEN_H_

#include <llvm/IR/Module.h>

#include <string>

#include "compiler/host/loop_ir.h"

namespace accelc::compiler::host {

/// Adds stage `stage` of `k` under `s` (both validated) to `m` as `symbol`.
void buildStage(llvm::Module& m, const LoopKernel& k, size_t stage, const StageSchedule& s, const std::string& symbol);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_LOOP_CODEGEN_H_
