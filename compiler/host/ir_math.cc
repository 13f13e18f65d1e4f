// compiler/host/ir_math.cc — exp, erf and tanh of float lanes as polynomials.
//
// Every function is lane-wise arithmetic and selects, so a vector stays in
// registers. Ranges are clamped first (NaN to 0) so that no conversion to an
// integer sees a NaN or a huge value; a NaN input is put back at the end.
// Polynomials are evaluated with llvm.fmuladd, which fuses where the CPU has
// FMA and is a multiply and an add where it does not (x86-64-v2, ARMv7).
#include "compiler/host/ir_math.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <cmath>
#include <initializer_list>
#include <vector>

namespace accelc::compiler::host {

namespace {

/// Constants and the few operations the functions share, in x's type.
struct Lanes {
  llvm::IRBuilder<>& b;
  llvm::Type* t;   ///< float or a vector of floats
  llvm::Type* it;  ///< int32 in the same lanes

  Lanes(llvm::IRBuilder<>& builder, llvm::Value* x)
      : b(builder), t(x->getType()), it(llvm::Type::getInt32Ty(builder.getContext())) {
    if (auto* vt = llvm::dyn_cast<llvm::VectorType>(t)) it = llvm::VectorType::get(it, vt->getElementCount());
  }
  llvm::Value* c(double v) const { return llvm::ConstantFP::get(t, v); }
  llvm::Value* ci(int v) const {
    return llvm::ConstantInt::get(it, static_cast<uint64_t>(static_cast<int64_t>(v)), true);
  }
  llvm::Value* fma(llvm::Value* a, llvm::Value* m, llvm::Value* add) const {
    return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {t}, {a, m, add});
  }
  /// Σ coef[i] · s^i by Horner's rule.
  llvm::Value* poly(llvm::Value* s, const std::vector<double>& coef) const {
    llvm::Value* p = c(coef.back());
    for (size_t i = coef.size() - 1; i-- > 0;) p = fma(p, s, c(coef[i]));
    return p;
  }
  /// x clamped to [lo, hi], NaN to 0.
  llvm::Value* clamp(llvm::Value* x, double lo, double hi) const {
    llvm::Value* v = b.CreateSelect(b.CreateFCmpOGT(x, c(hi)), c(hi), x);
    v = b.CreateSelect(b.CreateFCmpOLT(v, c(lo)), c(lo), v);
    return b.CreateSelect(b.CreateFCmpUNO(x, x), c(0.0), v);
  }
  llvm::Value* abs(llvm::Value* x) const { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); }
  /// The result where x is a number, x itself where it is NaN.
  llvm::Value* keepNan(llvm::Value* x, llvm::Value* y) const { return b.CreateSelect(b.CreateFCmpUNO(x, x), x, y); }
};

/// The coefficients of erf(x) / x in powers of x²: 2/√π · (-1)^k / (k! (2k + 1)), to k = 8 (truncation below
/// 1e-9 relative for |x| < 0.75).
std::vector<double> erfSeries() {
  std::vector<double> c;
  double factorial = 1.0;
  for (int k = 0; k <= 8; ++k) {
    if (k > 0) factorial *= k;
    c.push_back(2.0 / std::sqrt(M_PI) * (k % 2 ? -1.0 : 1.0) / (factorial * (2 * k + 1)));
  }
  return c;
}

}  // namespace

llvm::Value* emitExp(llvm::IRBuilder<>& b, llvm::Value* x) {
  const Lanes l(b, x);
  // Below -104 e^x rounds to 0, above 89 to infinity: the clamp keeps n = round(x / ln 2) in [-150, 128].
  llvm::Value* xc = l.clamp(x, -104.0, 89.0);
  // n by the 1.5·2^23 trick (round to nearest in the default mode): NEON on ARMv7 has no vector rounding.
  llvm::Value* n = b.CreateFSub(l.fma(xc, l.c(1.0 / M_LN2), l.c(12582912.0)), l.c(12582912.0));
  // r = x - n ln 2 with ln 2 split Cody-Waite style: n · 355/512 is exact (n has 8 bits, 355 has 9).
  llvm::Value* r = l.fma(n, l.c(-0.693359375), xc);
  r = l.fma(n, l.c(0.693359375 - M_LN2), r);
  // e^r for |r| <= ln 2 / 2 by its Taylor polynomial to r^7: the truncation is below 0.15 ULP.
  llvm::Value* p = l.poly(r, {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040});
  // p · 2^n as two normal powers of two, so that a subnormal result is rounded once, by the last product.
  llvm::Value* ni = b.CreateFPToSI(n, l.it);
  llvm::Value* n1 = b.CreateAShr(ni, l.ci(1));
  auto pow2 = [&](llvm::Value* k) { return b.CreateBitCast(b.CreateShl(b.CreateAdd(k, l.ci(127)), l.ci(23)), l.t); };
  llvm::Value* y = b.CreateFMul(b.CreateFMul(p, pow2(n1)), pow2(b.CreateSub(ni, n1)));
  return l.keepNan(x, y);
}

llvm::Value* emitErf(llvm::IRBuilder<>& b, llvm::Value* x) {
  const Lanes l(b, x);
  llvm::Value* a = l.abs(x);
  // Below 0.75: x times a series in x², relatively exact near 0.
  llvm::Value* small = b.CreateFMul(x, l.poly(b.CreateFMul(x, x), erfSeries()));
  // From 0.75: 1 - t·P(t)·e^(-x²), t = 1 / (1 + p|x|) (Abramowitz and Stegun 7.1.26, within 1.5e-7). From 4
  // on erf rounds to 1.
  llvm::Value* ac = l.clamp(a, 0.0, 4.0);
  llvm::Value* t = b.CreateFDiv(l.c(1.0), l.fma(ac, l.c(0.3275911), l.c(1.0)));
  llvm::Value* tail =
      b.CreateFMul(b.CreateFMul(t, l.poly(t, {0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429})),
                   emitExp(b, b.CreateFNeg(b.CreateFMul(ac, ac))));
  llvm::Value* big = b.CreateIntrinsic(llvm::Intrinsic::copysign, {l.t}, {b.CreateFSub(l.c(1.0), tail), x});
  return l.keepNan(x, b.CreateSelect(b.CreateFCmpOLT(a, l.c(0.75)), small, big));
}

llvm::Value* emitTanh(llvm::IRBuilder<>& b, llvm::Value* x) {
  const Lanes l(b, x);
  llvm::Value* a = l.abs(x);
  // Below 0.55: its Taylor series to x^19 (truncation below 1e-9 relative), where 1 - 2 / (e^2x + 1) would
  // cancel.
  llvm::Value* small =
      b.CreateFMul(x, l.poly(b.CreateFMul(x, x),
                             {1.0, -1.0 / 3, 2.0 / 15, -17.0 / 315, 62.0 / 2835, -1382.0 / 155925, 21844.0 / 6081075,
                              -929569.0 / 638512875, 6404582.0 / 10854718875, -443861162.0 / 1856156927625}));
  // From 0.55: 1 - 2 / (e^2|x| + 1); from 10 on tanh rounds to 1.
  llvm::Value* ac = l.clamp(a, 0.0, 10.0);
  llvm::Value* e2 = emitExp(b, b.CreateFAdd(ac, ac));
  llvm::Value* big = b.CreateFSub(l.c(1.0), b.CreateFDiv(l.c(2.0), b.CreateFAdd(e2, l.c(1.0))));
  big = b.CreateIntrinsic(llvm::Intrinsic::copysign, {l.t}, {big, x});
  return l.keepNan(x, b.CreateSelect(b.CreateFCmpOLT(a, l.c(0.55)), small, big));
}

}  // namespace accelc::compiler::host
