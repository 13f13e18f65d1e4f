// compiler/lower/random_layer.cc — see random_layer.h.
#include "compiler/lower/random_layer.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "compiler/lower/codegen.h"
#include "isa/builder.h"
#include "runtime/ops.h"

namespace accelc::compiler::lower {

using runtime::Tensor;
using support::DType;

namespace {

/// `s` with its channels and groups redrawn: depthwise, groups of a divisor of the block, or of whole blocks.
ConvShape groupedShape(ConvShape s, const hwspec::HwSpec& hw, uint64_t r) {
  const int64_t blocks = 1 + static_cast<int64_t>(r / 3 % 3);
  // Groups smaller than a block map onto square blocks only (GroupForm).
  switch (hw.blockIn == hw.blockOut ? r % 3 : 2) {
    case 0:  // depthwise, channels not a multiple of the block
      s.c = s.m = s.group = blocks * hw.blockIn - static_cast<int64_t>(r / 9 % 3);
      break;
    case 1:  // two channels per group (one per group on a block of odd width)
      s.c = s.m = blocks * hw.blockIn, s.group = hw.blockIn % 2 ? s.c : s.c / 2;
      break;
    case 2:  // two groups of whole blocks each
      s.c = 2 * blocks * hw.blockIn, s.m = 2 * hw.blockOut, s.group = 2;
      break;
  }
  s.c = std::max<int64_t>(s.c, 1), s.m = std::max<int64_t>(s.m, 1), s.group = std::max<int64_t>(s.group, 1);
  return s;
}

}  // namespace

ConvShape randomConvShape(const hwspec::HwSpec& hw, uint64_t seed) {
  std::mt19937_64 g(seed);
  auto in = [&](int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(g() % static_cast<uint64_t>(hi - lo + 1)); };
  ConvShape s;
  s.c = in(1, 3 * hw.blockIn + 3), s.m = in(1, 3 * hw.blockOut + 3);
  if (g() % 4 == 0) return s.w = in(1, 4), s;  // dense: 1×1 over a row of pixels
  const int64_t ks[] = {1, 2, 3, 5};
  s.k = ks[g() % 4], s.stride = in(1, 2), s.pad = in(0, s.k / 2);
  s.h = in(std::max<int64_t>(1, s.k - 2 * s.pad), 12), s.w = in(std::max<int64_t>(1, s.k - 2 * s.pad), 12);
  if (g() % 4 == 0) s = groupedShape(s, hw, g());
  return s;
}

ConvLayer randomConvLayer(const hwspec::HwSpec& hw, uint64_t seed, const ConvShape& s) {
  std::mt19937_64 g(seed);
  ConvLayer l;
  l.name = "conv" + std::to_string(seed);
  l.m = s.m, l.kh = l.kw = s.k, l.sh = l.sw = s.stride, l.pt = l.pl = s.pad;
  l.oh = (s.h + 2 * s.pad - s.k) / s.stride + 1, l.ow = (s.w + 2 * s.pad - s.k) / s.stride + 1;
  const int8_t zx = static_cast<int8_t>(static_cast<int>(g() % 21) - 10);
  const int64_t needB = std::max<int64_t>(0, (l.oh - 1) * s.stride + s.k - s.pad - s.h);
  const int64_t needR = std::max<int64_t>(0, (l.ow - 1) * s.stride + s.k - s.pad - s.w);
  l.x = {1, s.c, s.h, s.w, hw.blockIn, s.pad, s.pad, needB, needR, zx};
  l.y = {1, s.m, l.oh, l.ow, hw.blockOut, static_cast<int64_t>(g() % 2), 1, 0, static_cast<int64_t>(g() % 2), 0};
  l.group = s.group;
  l.weight = Tensor(DType::kInt8, {s.m, s.c / s.group, s.k, s.k});
  for (uint8_t& b : l.weight.bytes()) b = static_cast<uint8_t>(g());
  for (int64_t i = 0; i < s.m; ++i) {
    l.bias.push_back(static_cast<int32_t>(g() % 20001) - 10000);
    l.mult.push_back(static_cast<int32_t>((1u << 30) + g() % (1u << 30)));
    // About 40 output steps per standard deviation of the accumulator: outputs use the int8 range.
    const double spread = 5476.0 * std::sqrt(static_cast<double>(s.c / s.group * s.k * s.k)) * 0.75 / 40.0;
    l.shift.push_back(static_cast<int32_t>(std::max(0.0, std::round(std::log2(spread))) + g() % 2));
  }
  l.zeroPoint = static_cast<int64_t>(g() % 11) - 5;
  l.lo = g() % 2 ? l.zeroPoint : -128;
  l.hi = g() % 3 ? 127 : 100;
  if (!hw.hasAluOp("mulq")) {  // no rescaling: small weights and bias, outputs near the accumulator
    for (uint8_t& b : l.weight.bytes()) b = static_cast<uint8_t>(static_cast<int>(g() % 3) - 1);
    for (int64_t i = 0; i < s.m; ++i) l.bias[i] = static_cast<int32_t>(g() % 61) - 30, l.mult[i] = INT32_MAX;
  }
  if (!hw.hasAluOp("mulq") || !hw.hasAluOp("shrr")) std::fill(l.shift.begin(), l.shift.end(), 0);
  return l;
}

Tensor randomConvInput(const ConvLayer& l, const hwspec::HwSpec& hw, uint64_t seed) {
  std::mt19937_64 g(seed);
  Tensor x(DType::kInt8, {l.x.n, l.x.c, l.x.h, l.x.w});
  const bool small = !hw.hasAluOp("mulq");
  for (uint8_t& b : x.bytes()) b = static_cast<uint8_t>(small ? static_cast<int>(g() % 21) - 10 : static_cast<int>(g()));
  return x;
}

support::Expected<Tensor> referenceConv(const ConvLayer& l, const Tensor& x) {
  runtime::QConvAttrs a;
  a.strides = {l.sh, l.sw};
  const int64_t pb = (l.oh - 1) * l.sh + l.kh - l.pt - l.x.h, pr = (l.ow - 1) * l.sw + l.kw - l.pl - l.x.w;
  a.pads = {l.pt, l.pl, std::max<int64_t>(pb, 0), std::max<int64_t>(pr, 0)};
  a.padValue = l.x.fill, a.zeroPoint = l.zeroPoint, a.lo = l.lo, a.hi = l.hi, a.group = l.group;
  const Tensor b = Tensor::of<int32_t>({l.m}, l.bias), mu = Tensor::of<int32_t>({l.m}, l.mult),
               sh = Tensor::of<int32_t>({l.m}, l.shift);
  std::vector<Tensor> out(1);
  ACCELC_TRY(runtime::runOp(runtime::OpKind::kQConv, a, {&x, &l.weight, &b, &mu, &sh}, out,
                            support::Location::node("reference", l.name)));
  return out[0];
}

namespace {

/// A matrix product's right operand [..., K, N] in the weights form (runtime/layout.h).
std::vector<uint8_t> packRight(const Tensor& b, const hwspec::HwSpec& hw) {
  const runtime::Shape d = *runtime::blockedShape(b.shape(), runtime::BlockedForm::kWeights, hw.blockIn);
  const runtime::BlockedLayout l{d[0], d[1], d[2], d[3], hw.blockIn, 0, 0, 0, 0, 0};
  return runtime::packBlocked(runtime::toBlockedShape(b, b.shape(), runtime::BlockedForm::kWeights, hw.blockIn), l);
}

}  // namespace

support::Expected<LayerProgram> convProgram(const ConvLayer& l, const ConvSchedule& s, const isa::Target& t,
                                            const Tensor& x, bool serialize, const Tensor* right) {
  ACCELC_TRY(checkSchedule(l, s, t.spec));
  if (l.imageWeights != (right != nullptr))
    return support::error(support::Location::node("layer", l.name), "per-image weights need the right operand");
  const std::vector<uint8_t> wp = right ? packRight(*right, t.spec) : packConvWeights(l, t.spec);
  const std::vector<uint8_t> pp = packConvParams(l, t.spec);
  auto align = [](uint64_t v) { return (v + 4095) / 4096 * 4096; };
  ConvAddrs a;
  a.y = align(static_cast<uint64_t>(l.x.bytes()));
  a.weights = align(a.y + static_cast<uint64_t>(l.y.bytes()));
  a.params = align(a.weights + wp.size());
  const Kernel k = lowerConv(l, s, t.spec, a);
  CodegenPlacement at{align(a.params + pp.size()), 0};
  at.text = align(at.uops + k.uops.size() * static_cast<uint64_t>(t.uopBytes()));
  isa::ProgramBuilder b(t);
  b.symbol({"x", isa::SymbolRole::kInput, a.x, DType::kInt8, {l.x.bytes()}});
  b.symbol({"y", isa::SymbolRole::kOutput, a.y, DType::kInt8, {l.y.bytes()}});
  if (right)  // written at run time, as the host's pack step does
    b.symbol({"weights", isa::SymbolRole::kInput, a.weights, DType::kInt8, {static_cast<int64_t>(wp.size())}});
  else
    b.symbol({"weights", isa::SymbolRole::kConst, a.weights, DType::kInt8, {static_cast<int64_t>(wp.size())}}, wp);
  b.symbol({"params", isa::SymbolRole::kConst, a.params, DType::kInt8, {static_cast<int64_t>(pp.size())}}, pp);
  ACCELC_TRY(emitKernel(k, t, at, serialize, b));
  LayerProgram lp;
  ACCELC_ASSIGN_OR_RETURN(lp.program, b.finish(l.name + ".bin"));
  lp.out = a.y, lp.outBytes = static_cast<uint64_t>(l.y.bytes());
  lp.writes = {{a.x, runtime::packBlocked(x, l.x)}, {a.y, std::vector<uint8_t>(lp.outBytes, 0)}};
  if (right) lp.writes.push_back({a.weights, wp});
  return lp;
}

}  // namespace accelc::compiler::lower
