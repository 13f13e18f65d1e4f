// compiler/host/ir_math.h — exp, erf and tanh of float lanes as LLVM IR
// polynomials, so that a vector of them stays a vector (LLVM inside
// compiler/host only).
//
// The C library computes these one lane at a time, and a call in a vector
// loop spills every register: Softmax and Gelu spent 8 to 10 ns a value that
// way. These are not the C library's bits. A float host output is held to the
// host-code rule instead (|a - b| <= 1e-5 · Σ|terms| + 4 ULP · |b|), and each
// function here stays well inside it. The bounds below are measured over a
// million floats of every exponent (tests/host/elementwise_jit_test.cc).
#ifndef ACCELC_COMPILER_HOST_IR_MATH_H_
#define ACCELC_COMPILER_HOST_IR_MATH_H_

#include <llvm/IR/IRBuilder.h>

namespace accelc::compiler::host {

/// e^x lane by lane of a float or float vector: ±inf, NaN, overflow to inf and
/// subnormal results as expf gives them; within 1 ULP.
llvm::Value* emitExp(llvm::IRBuilder<>& b, llvm::Value* x);
/// erf(x): odd, ±1 at ±inf, NaN passes; within 4 ULP and 3e-7 relative.
llvm::Value* emitErf(llvm::IRBuilder<>& b, llvm::Value* x);
/// tanh(x): odd, ±1 at ±inf, NaN passes; within 2 ULP.
llvm::Value* emitTanh(llvm::IRBuilder<>& b, llvm::Value* x);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_IR_MATH_H_
