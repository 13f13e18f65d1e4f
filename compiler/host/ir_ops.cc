// compiler/host/ir_ops.cc — elementwise operations as LLVM IR.
#include "compiler/host/ir_ops.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>

#include "compiler/host/ir_math.h"

namespace accelc::compiler::host {

namespace {

/// Whether every lane of `v` is one value: a shuffle of lane 0 alone (no undefined lane) or a constant splat.
bool splat(llvm::Value* v) {
  if (auto* sh = llvm::dyn_cast<llvm::ShuffleVectorInst>(v))
    return llvm::all_of(sh->getShuffleMask(), [](int i) { return i == 0; });
  auto* c = llvm::dyn_cast<llvm::Constant>(v);
  return c && c->getSplatValue() != nullptr;
}

/// Whether int32 vector type `t` can be read as half as many int64 lanes,
/// lane 2i in the low half of int64 lane i (an even lane count, little-endian).
bool pairedLanes(llvm::IRBuilder<>& b, llvm::Type* t) {
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return vt && vt->getNumElements() % 2 == 0 && b.GetInsertBlock()->getModule()->getDataLayout().isLittleEndian();
}

/// mulq's rounded high halves without widening the vector: the even lanes'
/// and the odd lanes' products each in int64 lanes of the same register
/// (x86's vpmuldq reads the low half of each), the even results shifted down
/// into the low halves, the odd ones up into the high halves, and the halves
/// merged. Widening instead costs cross-lane shuffles on every vector, which
/// compete with the loads' own shuffles in the int8 kernels. A splat y (a
/// per-channel multiplier) has the same value in its odd lanes as in its even
/// ones, so both products read its even halves: x86 then multiplies the odd
/// lanes with one vpmuldq too, where a hoisted odd half of y, whose sign bits
/// the instruction selector cannot see, costs a 64-bit product in three.
llvm::Value* mulqPaired(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y) {
  auto* vt = llvm::cast<llvm::FixedVectorType>(x->getType());
  auto* wt = llvm::FixedVectorType::get(b.getInt64Ty(), vt->getNumElements() / 2);
  auto k = [&](uint64_t v) { return llvm::ConstantInt::get(wt, v); };
  llvm::Value *xw = b.CreateBitCast(x, wt), *yw = b.CreateBitCast(y, wt);
  auto even = [&](llvm::Value* v) { return b.CreateAShr(b.CreateShl(v, k(32)), k(32)); };
  llvm::Value* nudge = k(uint64_t{1} << 30);
  llvm::Value* pe = b.CreateAdd(b.CreateMul(even(xw), even(yw)), nudge);
  llvm::Value* yOdd = splat(y) ? even(yw) : b.CreateAShr(yw, k(32));
  llvm::Value* po = b.CreateAdd(b.CreateMul(b.CreateAShr(xw, k(32)), yOdd), nudge);
  llvm::Value* merged = b.CreateOr(b.CreateAnd(b.CreateLShr(pe, k(31)), k(0xffffffffu)),
                                   b.CreateAnd(b.CreateShl(po, k(1)), k(0xffffffff00000000u)));
  return b.CreateBitCast(merged, vt);
}

/// isa::arith::mulq lane by lane: the high half of 2ab rounded (ties up).
/// (ab + nudge) / 2^31 truncated, with the nudge of either sign, is
/// (ab + 2^30) >> 31 for every ab: one 64-bit product and a shift, no
/// division. INT32_MIN squared saturates: its 2^31 is the only result that
/// wraps to INT32_MIN (every other ab gives -2^31 + 1 to 2^31 - 1), so
/// subtracting one where the result is INT32_MIN gives INT32_MAX, with no
/// look at either operand.
llvm::Value* mulq(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y) {
  llvm::Type* t = x->getType();
  llvm::Value* q = pairedLanes(b, t) ? mulqPaired(b, x, y) : nullptr;
  if (!q) {
    llvm::Type* w = t->getWithNewBitWidth(64);
    llvm::Value* ab = b.CreateMul(b.CreateSExt(x, w), b.CreateSExt(y, w));
    q = b.CreateTrunc(b.CreateAShr(b.CreateAdd(ab, llvm::ConstantInt::get(w, int64_t{1} << 30)), llvm::ConstantInt::get(w, 31)), t);
  }
  llvm::Value* minimum = llvm::ConstantInt::get(t, static_cast<uint64_t>(INT32_MIN), true);
  return b.CreateAdd(q, b.CreateSExt(b.CreateICmpEQ(q, minimum), t));
}

/// A shift amount `s` (int32 values or vectors) clamped to [0, 31], as shrr clamps it.
llvm::Value* clampedShift(llvm::IRBuilder<>& b, llvm::Value* s) {
  auto c = [&](int64_t v) { return llvm::ConstantInt::get(s->getType(), static_cast<uint64_t>(v), true); };
  llvm::Value* n = b.CreateSelect(b.CreateICmpSLT(s, c(0)), c(0), s);
  return b.CreateSelect(b.CreateICmpSGT(n, c(31)), c(31), n);
}

/// isa::arith::shrRoundAway lane by lane, in 32 bits: x shifted right by s
/// (clamped to [0, 31]) rounds to nearest, ties away from zero, which is the
/// floor plus one where the bits shifted out exceed half (or reach it, for x
/// >= 0): floor + (rem > (mask >> 1) + (x < 0)), mask = 2^s - 1.
llvm::Value* shrr(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* s) {
  llvm::Type* t = x->getType();
  auto c = [&](int64_t v) { return llvm::ConstantInt::get(t, static_cast<uint64_t>(v), true); };
  llvm::Value* n = clampedShift(b, s);
  llvm::Value* mask = b.CreateSub(b.CreateShl(c(1), n), c(1));
  llvm::Value* rem = b.CreateAnd(x, mask);
  llvm::Value* threshold = b.CreateAdd(b.CreateAShr(mask, c(1)), b.CreateZExt(b.CreateICmpSLT(x, c(0)), t));
  llvm::Value* floor = b.CreateAShr(x, n);
  return b.CreateSelect(b.CreateICmpSGT(rem, threshold), b.CreateAdd(floor, c(1)), floor);  // a masked add on x86
}

/// 2^e as a float of type `ft` from int32 exponents `e` (-126 to 127): the bits (e + 127) << 23.
llvm::Value* powerOfTwo(llvm::IRBuilder<>& b, llvm::Value* e, llvm::Type* ft) {
  llvm::Type* it = e->getType();
  auto c = [&](int64_t v) { return llvm::ConstantInt::get(it, static_cast<uint64_t>(v), true); };
  return b.CreateBitCast(b.CreateShl(b.CreateAdd(e, c(127)), c(23)), ft);
}

/// The 4-byte dot product lane by lane without x86's instruction: byte t of
/// `x` unsigned (`signedX`: signed) times byte t of `y` signed, summed (it cannot overflow).
llvm::Value* dot4(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, bool signedX) {
  llvm::Type* t = x->getType();
  auto k = [&](int64_t v) { return llvm::ConstantInt::get(t, static_cast<uint64_t>(v)); };
  llvm::Value* sum = nullptr;
  for (int i = 0; i < 4; ++i) {
    llvm::Value* u =
        signedX ? b.CreateAShr(b.CreateShl(x, k(24 - 8 * i)), k(24)) : b.CreateAnd(b.CreateLShr(x, k(8 * i)), k(0xff));
    llvm::Value* s = b.CreateAShr(b.CreateShl(y, k(24 - 8 * i)), k(24));
    llvm::Value* p = b.CreateMul(u, s);
    sum = sum ? b.CreateAdd(sum, p) : p;
  }
  return sum;
}

/// Σ_t s16(half t of x) · s16(half t of y), wrapping (vpmaddwd's lanes, lane by lane).
llvm::Value* dot2(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y) {
  llvm::Value* sixteen = llvm::ConstantInt::get(x->getType(), 16);
  auto low = [&](llvm::Value* v) { return b.CreateAShr(b.CreateShl(v, sixteen), sixteen); };
  return b.CreateAdd(b.CreateMul(low(x), low(y)), b.CreateMul(b.CreateAShr(x, sixteen), b.CreateAShr(y, sixteen)));
}

/// float -> int32 toward zero, saturating, NaN to 0 (llvm.fptosi.sat's
/// meaning, which LLVM 14 scalarizes on x86): the value is first brought
/// into range, then converted with the vector instruction.
llvm::Value* toInt(llvm::IRBuilder<>& b, llvm::Type* t, llvm::Value* x) {
  llvm::Type* ft = x->getType();
  auto f = [&](double v) { return llvm::ConstantFP::get(ft, v); };
  const double two31 = 2147483648.0;
  llvm::Value* high = b.CreateFCmpOGE(x, f(two31));
  llvm::Value* v = b.CreateSelect(b.CreateFCmpOLT(x, f(-two31)), f(-two31), x);
  v = b.CreateSelect(b.CreateOr(high, b.CreateFCmpUNO(x, x)), f(0.0), v);
  return b.CreateSelect(high, llvm::ConstantInt::get(t, INT32_MAX), b.CreateFPToSI(v, t));
}

/// An int32 operation (Add, Sub and Mul wrap), or null when `op` has no int32 form.
llvm::Value* intOp(llvm::IRBuilder<>& b, EwOp op, llvm::Type* t, const IrOperands& x) {
  auto k = [&](int64_t v) { return llvm::ConstantInt::get(t, static_cast<uint64_t>(v), true); };
  switch (op) {
    case EwOp::kConst:
      return k(x.ivalue);
    case EwOp::kAdd:
      return b.CreateAdd(x.a, x.b);
    case EwOp::kSub:
      return b.CreateSub(x.a, x.b);
    case EwOp::kMul:
      return b.CreateMul(x.a, x.b);
    case EwOp::kMin:
      return b.CreateSelect(b.CreateICmpSLT(x.b, x.a), x.b, x.a);
    case EwOp::kMax:
      return b.CreateSelect(b.CreateICmpSLT(x.a, x.b), x.b, x.a);
    case EwOp::kRelu:
      return b.CreateSelect(b.CreateICmpSGT(x.a, k(0)), x.a, k(0));
    case EwOp::kClip: {
      const int64_t lo = static_cast<int64_t>(x.lo), hi = static_cast<int64_t>(x.hi);
      llvm::Value* v = b.CreateSelect(b.CreateICmpSLT(x.a, k(lo)), k(lo), x.a);
      return b.CreateSelect(b.CreateICmpSLT(k(hi), v), k(hi), v);
    }
    case EwOp::kAddSat:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, x.a, x.b);
    case EwOp::kMulq:
      return mulq(b, x.a, x.b);
    case EwOp::kShrr:
      return shrr(b, x.a, x.b);
    case EwOp::kXor:
      return b.CreateXor(x.a, x.b);
    case EwOp::kDot4:
      return dot4(b, x.a, x.b, false);
    case EwOp::kAnd:
      return b.CreateAnd(x.a, x.b);
    case EwOp::kDot2:
      return dot2(b, x.a, x.b);
    case EwOp::kDot4S:
      return dot4(b, x.a, x.b, true);
    case EwOp::kToInt:
      return toInt(b, t, x.a);
    case EwOp::kInput:
    case EwOp::kDiv:
    case EwOp::kPow:
    case EwOp::kSigmoid:
    case EwOp::kTanh:
    case EwOp::kErf:
    case EwOp::kSqrt:
    case EwOp::kExp:
    case EwOp::kToFloat:
    case EwOp::kRound:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

llvm::Value* emitChoice(llvm::IRBuilder<>& b, llvm::Value* cond, const std::function<llvm::Value*()>& then,
                        const std::function<llvm::Value*()>& otherwise, llvm::MDNode* weights) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  auto* yes = llvm::BasicBlock::Create(ctx, "then", fn);
  auto* no = llvm::BasicBlock::Create(ctx, "otherwise", fn);
  auto* join = llvm::BasicBlock::Create(ctx, "joined", fn);
  b.CreateCondBr(cond, yes, no, weights);
  b.SetInsertPoint(yes);
  llvm::Value* kept = then();
  llvm::BasicBlock* yesEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(no);
  llvm::Value* other = otherwise();
  llvm::BasicBlock* noEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  llvm::PHINode* v = b.CreatePHI(kept->getType(), 2);
  v->addIncoming(kept, yesEnd);
  v->addIncoming(other, noEnd);
  return v;
}

// The scale is exact from m's float. The limit is 0.5 - 2^-(n+1) - 2^-20 (0.5 - 2^-20 for n = 0, where
// shrr does not round), rounded by at most 2^-25.
MulqShrrConstants mulqShrrConstants(llvm::IRBuilder<>& b, llvm::Value* m, llvm::Value* n, llvm::Type* fl) {
  auto c = [&](int64_t v) { return llvm::ConstantInt::get(n->getType(), static_cast<uint64_t>(v), true); };
  llvm::Value* nc = clampedShift(b, n);
  llvm::Value* scale = b.CreateFMul(b.CreateSIToFP(m, fl), powerOfTwo(b, b.CreateSub(c(-31), nc), fl));
  llvm::Value* second = b.CreateSelect(b.CreateICmpEQ(nc, c(0)), llvm::ConstantFP::get(fl, 0.0),
                                       powerOfTwo(b, b.CreateSub(c(-1), nc), fl));
  llvm::Value* half = b.CreateFSub(llvm::ConstantFP::get(fl, 0.5), second);
  return {scale, b.CreateFSub(half, llvm::ConstantFP::get(fl, 1.0 / (1 << 20)))};
}

// Why the estimate gives the exact bits: y = x·m·2^-(31+n) computed in binary32 is within |y|·2^-22
// of the exact value (three roundings of 2^-24 each: x, m and the product; the power of two is exact,
// and no value is subnormal: a nonzero |y| is at least 2^-62, so flushing subnormals to zero changes
// nothing). mulq rounds x·m/2^31 to an integer q once, so q/2^n lies within 2^-(n+1) of the exact y
// (for n = 0, q is that rounding itself; where INT32_MIN squared saturates, y is the integer 2^(31-n)
// and q/2^n lies 2^-n below it, and the test passes only from n = 13 on, where both give 2^(31-n)).
// Where the estimate's distance to the nearest half integer exceeds 2^-(n+1) + |y|·2^-20 + 2^-20 (for
// n = 0, |y|·2^-20 + 2^-20; the last term covers the test's own roundings), no half integer lies
// between the estimate and q/2^n, so shrr(q, n) is the estimate rounded to the nearest integer,
// whatever the ties rule. That integer is read from the bits of y + 1.5·2^23 (exact for |y| < 2^22;
// the test fails from |y| >= 2^19 on), and the distance |y - that integer| is exact (Sterbenz). A
// vector takes the exact arithmetic where any lane fails: with an int8 requantization's shifts (7 or
// more), about 16·2^-n of the vectors. The estimate and the test take about 12 vector operations, the
// exact arithmetic about 21.
llvm::Value* emitMulqShrr(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* m, llvm::Value* n,
                          const MulqShrrConstants* known) {
  llvm::Type* t = x->getType();
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
  llvm::Type* ft =
      vt ? static_cast<llvm::Type*>(llvm::FixedVectorType::get(b.getFloatTy(), vt->getNumElements())) : b.getFloatTy();
  auto f = [&](double v) { return llvm::ConstantFP::get(ft, v); };
  MulqShrrConstants k;
  if (known) {
    k = *known;
  } else if (vt && splat(m) && splat(n)) {  // per-channel parameters: their constants once, in scalars
    k = mulqShrrConstants(b, b.CreateExtractElement(m, uint64_t{0}), b.CreateExtractElement(n, uint64_t{0}),
                          b.getFloatTy());
    k.scale = b.CreateVectorSplat(vt->getNumElements(), k.scale);
    k.limit = b.CreateVectorSplat(vt->getNumElements(), k.limit);
  } else {
    k = mulqShrrConstants(b, m, n, ft);
  }
  llvm::Value *scale = k.scale, *limit = k.limit;
  llvm::Value* y = b.CreateFMul(b.CreateSIToFP(x, ft), scale);
  llvm::Value* shifted = b.CreateFAdd(y, f(12582912.0));  // 1.5·2^23: y rounded to an integer in the low bits
  llvm::Value* off =
      b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, b.CreateFSub(y, b.CreateFSub(shifted, f(12582912.0))));
  // |y|·2^-20 is exact, so the one rounding is the same fused or not: fmuladd fuses where the CPU has a
  // fused multiply-add, where llvm.fma would call fmaf per lane without one (ARMv7's Cortex-A9).
  llvm::Value* room = b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ft},
                                        {b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, y), f(-1.0 / (1 << 20)), limit});
  llvm::Value* ok = b.CreateFCmpOLT(off, room);
  llvm::Value* fast = b.CreateSub(b.CreateBitCast(shifted, t), llvm::ConstantInt::get(t, 0x4B400000));
  // The exact arithmetic where a lane fails: weighted as one vector in eight, an int8 requantization's rate.
  return emitChoice(
      b, vt ? b.CreateAndReduce(ok) : ok, [&] { return fast; }, [&] { return shrr(b, mulq(b, x, m), n); },
      llvm::MDBuilder(b.getContext()).createBranchWeights(7, 1));
}

// Why the estimate gives the exact bits. Let q = a/d and f the division's result, within |q|·2^-24 of q.
// Where r = 1/d rounded is normal (|r| >= 2^-126) it lies within |1/d|·2^-24 of 1/d, and e = a·r rounded
// lies within |a·r|·2^-24 of a·r unless that underflows (then within 2^-126, a flush to zero included): so
// |e - f| < |e|·2^-22 + 2^-125. Clipping moves neither farther from the other, and where it clips e alone,
// |e| exceeds the bound by at most a factor 1 + 2^-21: so |clip(e) - clip(f)| < |c|·2^-21 + 2^-125 for
// c = clip(e). Where c's distance to the nearest half integer exceeds that (its distance to the nearest
// integer, exact by Sterbenz, is below 0.5 - 2^-20 - |c|·2^-20 as computed, one rounding of at most 2^-25
// included), clip(f) rounds to the same integer, whatever the ties rule, which converts to int32 as it
// is (no NaN, within the clip's bounds). A lane fails where c is NaN. r must also be at most 2^124: then a
// subnormal a, zero where the vector unit flushes it (ARMv7's NEON), gives |q| and f below 0.5 either way.
// A zero, subnormal, huge or infinite r (d infinite, beyond 2^126, below 2^-124 or zero) takes the
// division, as does a vector with any lane that fails. Where every lane passes, the estimate's mul, clip,
// round and test take about 9 vector operations against a division's 10 to 16 cycles a vector.
llvm::Value* emitRoundDiv(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* d, float lo, float hi,
                          llvm::Type* intType) {
  llvm::Type* t = a->getType();
  auto f = [&](double v) { return llvm::ConstantFP::get(t, v); };
  auto clip = [&](llvm::Value* x) {
    IrOperands o;
    o.a = x, o.lo = lo, o.hi = hi;
    return emitEwOp(b, EwOp::kClip, t, o);
  };
  auto round = [&](llvm::Value* x) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::nearbyint, x); };
  llvm::Value* r = b.CreateFDiv(f(1.0), d);
  llvm::Value* c = clip(b.CreateFMul(a, r));
  llvm::Value* rounded = round(c);
  llvm::Value* off = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, b.CreateFSub(c, rounded));
  llvm::Value* room = b.CreateIntrinsic(
      llvm::Intrinsic::fmuladd, {t},
      {b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, c), f(-1.0 / (1 << 20)), f(0.5 - 1.0 / (1 << 20))});
  llvm::Value* size = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, r);
  llvm::Value* ok = b.CreateAnd(b.CreateFCmpOLT(off, room),
                                b.CreateAnd(b.CreateFCmpOGE(size, f(0x1p-126)), b.CreateFCmpOLE(size, f(0x1p124))));
  auto exact = [&]() -> llvm::Value* {
    llvm::Value* v = round(clip(b.CreateFDiv(a, d)));
    return intType ? toInt(b, intType, v) : v;
  };
  return emitChoice(
      b, t->isVectorTy() ? b.CreateAndReduce(ok) : ok,
      [&] { return intType ? b.CreateFPToSI(rounded, intType) : rounded; }, exact,
      llvm::MDBuilder(b.getContext()).createBranchWeights(127, 1));
}

llvm::Value* emitEwOp(llvm::IRBuilder<>& b, EwOp op, llvm::Type* t, const IrOperands& x) {
  if (t->isIntOrIntVectorTy())
    if (llvm::Value* v = intOp(b, op, t, x)) return v;
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
    case EwOp::kSigmoid:  // 1 / (1 + exp(-x))
      return b.CreateFDiv(splat(1.0f), b.CreateFAdd(splat(1.0f), emitExp(b, b.CreateFNeg(x.a))));
    case EwOp::kSqrt:
      return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x.a);
    case EwOp::kExp:
      return emitExp(b, x.a);
    case EwOp::kTanh:
      return emitTanh(b, x.a);
    case EwOp::kErf:
      return emitErf(b, x.a);
    case EwOp::kToFloat:
      return b.CreateSIToFP(x.a, t);
    case EwOp::kRound:
      return b.CreateUnaryIntrinsic(llvm::Intrinsic::nearbyint, x.a);
    case EwOp::kAddSat:
    case EwOp::kMulq:
    case EwOp::kShrr:
    case EwOp::kToInt:
    case EwOp::kXor:
    case EwOp::kDot4:
    case EwOp::kAnd:
    case EwOp::kDot2:
    case EwOp::kDot4S:
      return x.a;  // int32 results: intOp made them
  }
  return x.a;
}

}  // namespace accelc::compiler::host
