// compiler/host/ir_ops.h — one elementwise operation as LLVM IR, for the
// chains' loops and the loop kernels' expressions alike (LLVM inside
// compiler/host only).
#ifndef ACCELC_COMPILER_HOST_IR_OPS_H_
#define ACCELC_COMPILER_HOST_IR_OPS_H_

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "compiler/host/elementwise.h"

namespace accelc::compiler::host {

/// The operands and constants of one operation.
struct IrOperands {
  llvm::Value* a = nullptr;
  llvm::Value* b = nullptr;
  float value = 0.0f;          ///< kConst (float)
  int32_t ivalue = 0;          ///< kConst (int32)
  float lo = 0.0f, hi = 0.0f;  ///< kClip
};

/// `op` yielding type `t` (float, int32, or a vector of them), rounding as the
/// reference kernel does, but for exp (and Sigmoid's), tanh and erf: those are
/// ir_math.h's vector polynomials, within the host-code rule of the C
/// library's results. pow calls the C library, lane by lane on a vector. On
/// int32 operands the operations are loop_ir.h's (Add, Sub and Mul wrap;
/// AddSat, Mulq and Shrr are isa/arith.h's). kInput has no meaning here and
/// yields `a`.
llvm::Value* emitEwOp(llvm::IRBuilder<>& b, EwOp op, llvm::Type* t, const IrOperands& x);

/// shrr(mulq(x, m), n) of int32 values or vectors, isa/arith.h's bits: from a
/// float estimate where that decides the rounding in every lane, else from
/// the exact integer arithmetic (a branch, so `b` must be inside a function;
/// it is left at the block after the two ways meet).
llvm::Value* emitMulqShrr(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* m, llvm::Value* n);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_IR_OPS_H_
