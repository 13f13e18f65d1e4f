// compiler/host/ir_ops.cc — elementwise operations as LLVM IR.
#include "compiler/host/ir_ops.h"

#include <llvm/IR/Intrinsics.h>

namespace accelc::compiler::host {

namespace {

/// A C library function of one float, lane by lane on a vector.
llvm::Value* libm(llvm::IRBuilder<>& b, llvm::Module& m, const char* name, llvm::Value* x) {
  llvm::Type* f32 = b.getFloatTy();
  llvm::FunctionCallee fn = m.getOrInsertFunction(name, llvm::FunctionType::get(f32, {f32}, false));
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
  if (!vt) return b.CreateCall(fn, {x});
  llvm::Value* r = llvm::UndefValue::get(vt);
  for (unsigned l = 0; l < vt->getNumElements(); ++l)
    r = b.CreateInsertElement(r, b.CreateCall(fn, {b.CreateExtractElement(x, l)}), l);
  return r;
}

}  // namespace

llvm::Value* emitEwOp(llvm::IRBuilder<>& b, llvm::Module& m, EwOp op, llvm::Type* t, const IrOperands& x) {
  auto splat = [&](float v) { return llvm::ConstantFP::get(t, static_cast<double>(v)); };
  switch (op) {
    case EwOp::kInput:
      return x.a;
    case EwOp::kConst:
      return splat(x.value);
    case EwOp::kAdd:
      return b.CreateFAdd(x.a, x.b);
    case EwOp::kSub:
      return b.CreateFSub(x.a, x.b);
    case EwOp::kMul:
      return b.CreateFMul(x.a, x.b);
    case EwOp::kDiv:
      return b.CreateFDiv(x.a, x.b);
    case EwOp::kPow:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::pow, x.a, x.b);
    case EwOp::kMin:  // std::min(a, b): b < a ? b : a
      return b.CreateSelect(b.CreateFCmpOLT(x.b, x.a), x.b, x.a);
    case EwOp::kMax:  // std::max(a, b): a < b ? b : a
      return b.CreateSelect(b.CreateFCmpOLT(x.a, x.b), x.b, x.a);
    case EwOp::kRelu:  // x > 0 ? x : 0
      return b.CreateSelect(b.CreateFCmpOGT(x.a, splat(0.0f)), x.a, splat(0.0f));
    case EwOp::kClip: {  // std::min(std::max(x, lo), hi)
      llvm::Value* lo = b.CreateSelect(b.CreateFCmpOLT(x.a, splat(x.lo)), splat(x.lo), x.a);
      return b.CreateSelect(b.CreateFCmpOLT(splat(x.hi), lo), splat(x.hi), lo);
    }
    case EwOp::kSigmoid: {  // 1 / (1 + exp(-x))
      llvm::Value* ex = b.CreateUnaryIntrinsic(llvm::Intrinsic::exp, b.CreateFNeg(x.a));
      return b.CreateFDiv(splat(1.0f), b.CreateFAdd(splat(1.0f), ex));
    }
    case EwOp::kSqrt:
      return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x.a);
    case EwOp::kExp:
      return b.CreateUnaryIntrinsic(llvm::Intrinsic::exp, x.a);
    case EwOp::kTanh:
      return libm(b, m, "tanhf", x.a);
    case EwOp::kErf:
      return libm(b, m, "erff", x.a);
  }
  return x.a;
}

}  // namespace accelc::compiler::host
