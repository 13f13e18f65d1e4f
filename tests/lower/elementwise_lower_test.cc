// tests/lower/elementwise_lower_test.cc — random QClip, QHardSigmoid,
// QHardSwish and QMul layers (b a per-channel constant, a gate, or of a's
// shape) lowered to each preset, run on fsim, the cycle model (identical
// outputs and counters) and the verilated RTL (the cycle model's cycles and
// DRAM), and compared bit for bit with the reference kernels; the refusals
// of eltwiseSupported.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "compiler/lower/codegen.h"
#include "compiler/lower/elementwise.h"
#include "runtime/ops.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/functional/fsim.h"
#include "tests/lower/levels_util.h"
#include "tests/test_util.h"

namespace accelc::compiler::lower {
namespace {

using runtime::BlockedLayout;
using runtime::OpKind;
using runtime::Tensor;
using support::DType;

// Byte addresses of the operands, the output, the parameters, the micro-ops and the text.
constexpr uint64_t kX = 0, kB = 65536, kY = 131072, kParams = 196608, kUops = 262144, kText = 327680;

/// A layer's outputs on fsim and its counters.
struct Ran {
  Tensor y;
  isa::Counters counters;
  uint64_t cycles = 0;
};

/// `l` lowered with `rows` rows per tile (0: chooseEltwiseRows') and run on every level on x (and b).
support::Expected<Ran> runLayer(const isa::Target& t, const EltwiseLayer& l, int64_t rows, const Tensor& x,
                                const Tensor* b) {
  ACCELC_ASSIGN_OR_RETURN(int64_t chosen, chooseEltwiseRows(l, t.spec));
  isa::ProgramBuilder pb(t);
  const std::vector<uint8_t> params = packEltwiseParams(l, t.spec);
  pb.symbol({"params", isa::SymbolRole::kConst, kParams, DType::kInt8, {static_cast<int64_t>(params.size())}}, params);
  ACCELC_TRY(
      emitKernel(lowerEltwise(l, rows ? rows : chosen, t.spec, kX, kB, kY, kParams), t, {kUops, kText}, false, pb));
  ACCELC_ASSIGN_OR_RETURN(isa::Program p, pb.finish(l.name + ".bin"));
  const uint64_t n = static_cast<uint64_t>(l.y.bytes());
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> writes = {{kX, runtime::packBlocked(x, l.x)},
                                                                   {kY, std::vector<uint8_t>(n, 0)}};
  if (b) writes.push_back({kB, runtime::packBlocked(*b, l.b)});
  testing::LevelRun levels;
  ACCELC_ASSIGN_OR_RETURN(std::vector<uint8_t> y, testing::runOnLevels(t, p, writes, kY, n, &levels));
  return Ran{runtime::unpackBlocked(y.data(), l.y), levels.counters, levels.cycles};
}

/// The reference kernel's output.
Tensor reference(OpKind op, const runtime::Attrs& attrs, const std::vector<const Tensor*>& in) {
  std::vector<Tensor> out(1);
  auto s = runtime::runOp(op, attrs, in, out, {});
  EXPECT_TRUE(s.isOk()) << s.diag().str();
  return out[0];
}

Tensor randomTensor(std::mt19937_64& g, const runtime::Shape& shape) {
  Tensor x(DType::kInt8, shape);
  for (uint8_t& v : x.bytes()) v = static_cast<uint8_t>(g());
  return x;
}

int64_t uniform(std::mt19937_64& g, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(g);
}
double uniformReal(std::mt19937_64& g, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(g);
}

/// A Q31 multiplier and shift with mulq(v, m) >> shift ≈ v·scale: a random
/// shift up to 20 among those that keep m below 2^31.
std::pair<int64_t, int64_t> multShift(std::mt19937_64& g, double scale) {
  int64_t most = 0;
  while (most < 20 && scale * std::ldexp(1.0, static_cast<int>(most) + 1) < 1) ++most;
  const int64_t s = uniform(g, 0, most);
  const double m = std::round(scale * std::ldexp(1.0, 31 + static_cast<int>(s)));
  return {std::min<int64_t>(static_cast<int64_t>(m), INT32_MAX), s};
}

/// Random bordered layouts of one shape; x sometimes a view of a wider tensor.
void randomLayouts(std::mt19937_64& g, const hwspec::HwSpec& hw, EltwiseLayer& l, int64_t c) {
  const int64_t n = uniform(g, 1, 2), h = uniform(g, 1, 9), w = uniform(g, 1, 9), bo = hw.blockOut;
  auto border = [&] { return uniform(g, 0, 1); };
  l.x = {n, c, h, w, bo, border(), border(), border(), border(), static_cast<int8_t>(uniform(g, -128, 127))};
  if (uniform(g, 0, 1)) l.x.pitch = l.x.blocks() + 1;
  l.y = {n, c, h, w, bo, border(), border(), border(), border(), 0};
  l.b = {n, c, h, w, bo, border(), border(), 0, border(), 3};
}

/// The output's clamp: none, or a window around the zero point.
void randomClamp(std::mt19937_64& g, int64_t zp, int64_t& lo, int64_t& hi) {
  if (uniform(g, 0, 2) == 0) return;
  lo = std::max<int64_t>(-128, zp - uniform(g, 0, 120));
  hi = std::min<int64_t>(127, zp + uniform(g, 10, 140));
}

class EltwiseLowerTest : public ::testing::TestWithParam<std::string> {};

/// Expects `got` to equal `want`; adds want's values to `seen` (a test whose
/// layers give few distinct values tests little).
void expectSame(const Tensor& got, const Tensor& want, std::set<uint8_t>& seen, const std::string& what) {
  seen.insert(want.bytes().begin(), want.bytes().end());
  EXPECT_EQ(got.bytes(), want.bytes()) << what;
}

TEST_P(EltwiseLowerTest, ClipAndHardSigmoidAreBitExact) {
  isa::Target t = testing::presetTarget(GetParam());
  std::mt19937_64 g(11);
  std::set<uint8_t> seen;
  for (int i = 0; i < 6; ++i) {
    EltwiseLayer l;
    l.name = "rescale";
    randomLayouts(g, t.spec, l, 2 * uniform(g, 0, 2 * t.spec.blockOut) + 1);
    const bool sigmoid = i % 2;
    runtime::QRescaleAttrs q;
    q.zeroX = uniform(g, -128, 127), q.zeroPoint = uniform(g, -100, 100);
    const double sx = uniformReal(g, 0.01, 0.1), sy = uniformReal(g, 0.005, 0.1);
    std::tie(q.mult, q.shift) = multShift(g, sx / (sigmoid ? 6 : 1) / sy / 256);
    if (sigmoid) {  // hardsigmoid: (x/6 + 1/2) in [0, 1]
      q.offset = std::llround(0.5 / sy * std::ldexp(1.0, static_cast<int>(q.shift)));
      q.zeroPoint = -128, q.lo = -128, q.hi = std::min<int64_t>(127, -128 + std::llround(1 / sy));
    } else {
      randomClamp(g, q.zeroPoint, q.lo, q.hi);
    }
    if (i == 5) q.offset = INT32_MAX - 5;  // the +sat saturates
    l.attrs = q;
    const Tensor x = randomTensor(g, {l.x.n, l.x.c, l.x.h, l.x.w});
    const Tensor want = reference(sigmoid ? OpKind::kQHardSigmoid : OpKind::kQClip, q, {&x});
    for (int64_t rows : {int64_t{0}, (l.x.h + 1) / 2}) {
      auto got = runLayer(t, l, rows, x, nullptr);
      ASSERT_TRUE(got.isOk()) << got.diag().str();
      expectSame(got->y, want, seen, "layer " + std::to_string(i) + " rows " + std::to_string(rows));
    }
  }
  EXPECT_GT(seen.size(), 40u) << "the layers give few distinct outputs";
}

TEST_P(EltwiseLowerTest, HardSwishIsBitExact) {
  isa::Target t = testing::presetTarget(GetParam());
  std::mt19937_64 g(22);
  std::set<uint8_t> seen;
  for (int i = 0; i < 5; ++i) {
    EltwiseLayer l;
    l.name = "hardswish";
    randomLayouts(g, t.spec, l, 2 * uniform(g, 0, 2 * t.spec.blockOut) + 1);
    runtime::QHardSwishAttrs q;
    q.zeroX = uniform(g, -128, 127), q.zeroPoint = uniform(g, -128, -60);
    q.oneH = int64_t{1} << uniform(g, 6, 16);
    if (i == 4) q.oneH = (int64_t{1} << 23) - 3;  // the largest d·h
    const double sx = uniformReal(g, 0.02, 0.1), sy = sx * uniformReal(g, 0.5, 1.5);
    std::tie(q.multH, q.shiftH) = multShift(g, std::min(0.99, sx / 6 * static_cast<double>(q.oneH) / 256));
    q.offsetH = std::llround(0.5 * static_cast<double>(q.oneH) * std::ldexp(1.0, static_cast<int>(q.shiftH)));
    std::tie(q.mult, q.shift) = multShift(g, sx / sy / static_cast<double>(q.oneH));
    randomClamp(g, q.zeroPoint, q.lo, q.hi);
    l.attrs = q;
    const Tensor x = randomTensor(g, {l.x.n, l.x.c, l.x.h, l.x.w});
    const Tensor want = reference(OpKind::kQHardSwish, q, {&x});
    for (int64_t rows : {int64_t{0}, (l.x.h + 1) / 2}) {
      auto got = runLayer(t, l, rows, x, nullptr);
      ASSERT_TRUE(got.isOk()) << got.diag().str();
      expectSame(got->y, want, seen, "layer " + std::to_string(i) + " rows " + std::to_string(rows));
    }
  }
  EXPECT_GT(seen.size(), 40u) << "the layers give few distinct outputs";
}

/// Random QMul attributes for products of two int8 values.
runtime::QMulAttrs randomMul(std::mt19937_64& g) {
  runtime::QMulAttrs q;
  q.zeroA = uniform(g, -128, 127), q.zeroB = uniform(g, -128, 127), q.zeroPoint = uniform(g, -100, 100);
  std::tie(q.mult, q.shift) = multShift(g, uniformReal(g, 1.0 / 600, 1.0 / 60));
  randomClamp(g, q.zeroPoint, q.lo, q.hi);
  return q;
}

/// One QMul of each operand kind per call: the channel constant shaped [1, C, 1, 1] or [C, 1, 1].
void checkMul(const isa::Target& t, MulOperand kind, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::set<uint8_t> seen;
  for (int i = 0; i < 5; ++i) {
    EltwiseLayer l;
    l.name = "mul";
    l.operand = kind;
    randomLayouts(g, t.spec, l, 2 * uniform(g, 0, 2 * t.spec.blockOut) + 1);
    const runtime::QMulAttrs q = randomMul(g);
    l.attrs = q;
    const Tensor a = randomTensor(g, {l.x.n, l.x.c, l.x.h, l.x.w});
    Tensor b;
    if (kind == MulOperand::kConstant) {
      b = i % 2 ? randomTensor(g, {l.x.c, 1, 1}) : randomTensor(g, {1, l.x.c, 1, 1});
      for (uint8_t v : b.bytes()) l.constant.push_back(static_cast<int8_t>(v));
    } else if (kind == MulOperand::kGate) {
      l.b.h = l.b.w = 1;
      b = randomTensor(g, {l.x.n, l.x.c, 1, 1});
    } else {
      b = randomTensor(g, {l.x.n, l.x.c, l.x.h, l.x.w});
    }
    const Tensor want = reference(OpKind::kQMul, q, {&a, &b});
    for (int64_t rows : {int64_t{0}, (l.x.h + 1) / 2}) {
      auto got = runLayer(t, l, rows, a, kind == MulOperand::kConstant ? nullptr : &b);
      ASSERT_TRUE(got.isOk()) << got.diag().str();
      expectSame(got->y, want, seen, "layer " + std::to_string(i) + " rows " + std::to_string(rows));
    }
  }
  EXPECT_GT(seen.size(), 40u) << "the layers give few distinct outputs";
}

TEST_P(EltwiseLowerTest, MulByAChannelConstantIsBitExact) {
  checkMul(testing::presetTarget(GetParam()), MulOperand::kConstant, 33);
}
TEST_P(EltwiseLowerTest, MulByAGateIsBitExact) { checkMul(testing::presetTarget(GetParam()), MulOperand::kGate, 44); }
TEST_P(EltwiseLowerTest, MulOfTwoActivationsIsBitExact) {
  checkMul(testing::presetTarget(GetParam()), MulOperand::kSame, 55);
}

TEST_P(EltwiseLowerTest, EmptyTensorsLowerToNoTiles) {
  isa::Target t = testing::presetTarget(GetParam());
  for (int64_t which : {0, 1}) {  // no rows; no images
    EltwiseLayer l;
    l.name = "empty";
    l.x = l.y = {which ? 0 : 1, 3, which ? 4 : 0, 4, t.spec.blockOut, 0, 0, 0, 0, 0};
    runtime::QRescaleAttrs q;
    q.mult = 1 << 30, q.zeroX = 4, q.lo = -3;
    l.attrs = q;
    const Tensor x(DType::kInt8, {l.x.n, l.x.c, l.x.h, l.x.w});
    auto got = runLayer(t, l, 0, x, nullptr);
    ASSERT_TRUE(got.isOk()) << got.diag().str();
    EXPECT_EQ(got->y.numel(), 0);
    EXPECT_EQ(got->counters.aluUops, 0u);
  }
}

ACCELC_INSTANTIATE_FOR_PRESETS(EltwiseLowerTest);

/// A valid layer of each form for `hw`.
std::vector<EltwiseLayer> oneOfEach(const hwspec::HwSpec& hw) {
  std::vector<EltwiseLayer> out;
  EltwiseLayer l;
  l.name = "e";
  l.x = l.y = l.b = {1, 5, 3, 3, hw.blockOut, 0, 0, 0, 0, 0};
  runtime::QRescaleAttrs r;
  r.mult = 1 << 30;
  l.attrs = r, out.push_back(l);
  runtime::QHardSwishAttrs s;
  s.multH = s.mult = 1 << 30, s.oneH = 64;
  l.attrs = s, out.push_back(l);
  runtime::QMulAttrs m;
  m.mult = 1 << 30;
  l.attrs = m, out.push_back(l);
  return out;
}

TEST(EltwiseLowerErrors, Ice40WithoutMulOrMulqRefusesEveryForm) {
  const hwspec::HwSpec hw = testing::presetTarget("ice40").spec;
  for (const EltwiseLayer& l : oneOfEach(hw)) {
    const support::Status s = eltwiseSupported(l, hw);
    ASSERT_FALSE(s.isOk());
    EXPECT_NE(s.diag().str().find("e:e: error: the ALU has no '"), std::string::npos) << s.diag().str();
    EXPECT_FALSE(chooseEltwiseRows(l, hw).isOk());
  }
}

TEST(EltwiseLowerErrors, ACoreWithoutMulRefusesOnlyTheProducts) {
  std::string text = hwspec::presetText("vta-default");
  text.replace(text.find(", mul]"), 6, "]");
  auto hw = hwspec::parseHwSpec(text, "no-mul.yaml");
  ASSERT_TRUE(hw.isOk()) << hw.diag().str();
  const std::vector<EltwiseLayer> ls = oneOfEach(*hw);
  EXPECT_TRUE(eltwiseSupported(ls[0], *hw).isOk());
  for (size_t i : {size_t{1}, size_t{2}}) {
    const support::Status s = eltwiseSupported(ls[i], *hw);
    ASSERT_FALSE(s.isOk());
    EXPECT_NE(s.diag().str().find("the ALU has no 'mul'"), std::string::npos) << s.diag().str();
  }
}

TEST(EltwiseLowerErrors, AnUnsupportedShapeOfBIsNamed) {
  const hwspec::HwSpec hw = testing::presetTarget("tiny").spec;
  EltwiseLayer l = oneOfEach(hw)[2];
  l.name = "se";
  l.operand = MulOperand::kGate;
  l.b.h = 2, l.b.w = 1;
  EXPECT_EQ(eltwiseSupported(l, hw).diag().str(),
            "se:se: error: b has shape [1, 5, 2, 1]; a gate must be [N, C, 1, 1] with a's N and C");
  l.operand = MulOperand::kConstant;
  l.constant = {1, 2};
  EXPECT_EQ(eltwiseSupported(l, hw).diag().str(),
            "se:se: error: the constant b has 2 values; expected one per channel (5)");
}

TEST(EltwiseLowerCycles, AluPassesPerPixelBlockOnVtaDefault) {
  // Every pass walks each pixel block once: alu_ii cycles each. Rescale: -zero_x, x2^8, mulq, +offset, shrr,
  // +zp, max, min (8); hard-swish 14; QMul of two activations 8; with a gate or constant, 7 per pixel block
  // plus the gate's -zero_b once per tile.
  isa::Target t = testing::presetTarget("vta-default");
  std::vector<EltwiseLayer> ls = oneOfEach(t.spec);
  auto full = [](int64_t& zx, int64_t& zp, int64_t& shift, int64_t& lo, int64_t& hi) {
    zx = 3, zp = -2, shift = 4, lo = -100, hi = 100;
  };
  auto& r = std::get<runtime::QRescaleAttrs>(ls[0].attrs);
  full(r.zeroX, r.zeroPoint, r.shift, r.lo, r.hi), r.offset = 7;
  auto& s = std::get<runtime::QHardSwishAttrs>(ls[1].attrs);
  full(s.zeroX, s.zeroPoint, s.shift, s.lo, s.hi), s.offsetH = 9, s.shiftH = 2;
  auto& m = std::get<runtime::QMulAttrs>(ls[2].attrs);
  full(m.zeroA, m.zeroPoint, m.shift, m.lo, m.hi), m.zeroB = -4;
  ls.push_back(ls[2]), ls.back().operand = MulOperand::kGate, ls.back().b.h = ls.back().b.w = 1;
  const uint64_t expectPasses[] = {8, 14, 8, 7};
  std::mt19937_64 g(1);
  for (size_t i = 0; i < ls.size(); ++i) {
    const EltwiseLayer& l = ls[i];
    const Tensor x = randomTensor(g, {1, 5, 3, 3}), b = randomTensor(g, {1, 5, i == 3 ? 1 : 3, i == 3 ? 1 : 3});
    auto ran = runLayer(t, l, 0, x, i >= 2 ? &b : nullptr);
    ASSERT_TRUE(ran.isOk()) << ran.diag().str();
    const uint64_t pixelBlocks = 9, perTile = i == 3 ? 1 : 0;
    EXPECT_EQ(ran->counters.aluUops, expectPasses[i] * pixelBlocks + perTile) << "form " << i;
    std::cout << "form " << i << ": " << expectPasses[i] << " ALU passes x alu_ii " << t.spec.timing.aluIi << " = "
              << expectPasses[i] * t.spec.timing.aluIi << " cycles per pixel block; " << ran->cycles
              << " cycles for 9 pixel blocks\n";
  }
}

}  // namespace
}  // namespace accelc::compiler::lower
