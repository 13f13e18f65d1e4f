// compiler/host/ir_ops.h — one elementwise operation as LLVM IR, for the
// chains' loops and the loop kernels' expressions alike (LLVM inside
// compiler/host only).
#ifndef ACCELC_COMPILER_HOST_IR_OPS_H_
#define ACCELC_COMPILER_HOST_IR_OPS_H_

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>

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

/// `then()` where `cond` holds, else `otherwise()`: each built in a block of its own, the value of the one
/// that ran (both of one type); `b` is left at the block where they meet. `weights`: the branch's
/// profile, when known.
llvm::Value* emitChoice(llvm::IRBuilder<>& b, llvm::Value* cond, const std::function<llvm::Value*()>& then,
                        const std::function<llvm::Value*()>& otherwise, llvm::MDNode* weights = nullptr);

/// What emitMulqShrr's float estimate takes from m and n: the scale
/// m·2^-(31+n) and the limit of its test, floats (or vectors of them) with
/// n clamped as shrr clamps it.
struct MulqShrrConstants {
  llvm::Value* scale = nullptr;
  llvm::Value* limit = nullptr;
};
/// The constants of int32 values or vectors m and n, as floats of type `fl`.
MulqShrrConstants mulqShrrConstants(llvm::IRBuilder<>& b, llvm::Value* m, llvm::Value* n, llvm::Type* fl);

/// shrr(mulq(x, m), n) of int32 values or vectors, isa/arith.h's bits: from a
/// float estimate where that decides the rounding in every lane, else from
/// the exact integer arithmetic (a branch, so `b` must be inside a function;
/// it is left at the block after the two ways meet). `known`: m's and n's
/// constants, computed once for many uses (a kernel's per-channel tables);
/// else they are computed here.
llvm::Value* emitMulqShrr(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* m, llvm::Value* n,
                          const MulqShrrConstants* known = nullptr);

/// nearbyint(clip(a / d, lo, hi)) of float values or vectors (EwOp kDiv, kClip and kRound, as a
/// QuantizeLinear computes them), the same bits: from a·(1/d) where that decides the rounding in every
/// lane, else from the division (a branch, so `b` must be inside a function; it is left after the two
/// ways meet). With `intType` (int32 or a vector of it), that converted as EwOp kToInt converts: then
/// |lo| and |hi| must be below 2^30.
llvm::Value* emitRoundDiv(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* d, float lo, float hi,
                          llvm::Type* intType = nullptr);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_IR_OPS_H_
