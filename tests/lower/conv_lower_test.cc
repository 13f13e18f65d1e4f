// tests/lower/conv_lower_test.cc — random convolutions, dense layers, pools
// and residual adds lowered to each preset, run on fsim and on the cycle model
// (identical outputs and counters) and on the verilated RTL (the cycle
// model's cycle count and DRAM), and compared bit for bit with the
// reference kernels; golden loop IR for one conv and one dense layer.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "compiler/lower/add.h"
#include "compiler/lower/codegen.h"
#include "compiler/lower/conv.h"
#include "compiler/lower/pool.h"
#include "compiler/lower/random_layer.h"
#include "runtime/ops.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/functional/fsim.h"
#include "tests/lower/levels_util.h"
#include "tests/test_util.h"

namespace accelc::compiler::lower {
namespace {

using runtime::Tensor;
using support::DType;

/// A random layer of the given shape (random_layer.h).
ConvLayer randomLayer(const hwspec::HwSpec& hw, uint64_t seed, int64_t c, int64_t m, int64_t h, int64_t w, int64_t k,
                      int64_t stride, int64_t pad) {
  return randomConvLayer(hw, seed, ConvShape{c, m, h, w, k, stride, pad});
}

/// QConv on the reference kernel.
Tensor reference(const ConvLayer& l, const Tensor& x) {
  auto r = referenceConv(l, x);
  EXPECT_TRUE(r.isOk()) << r.diag().str();
  return r ? *r : Tensor();
}

using Writes = DramWrites;

/// `p` on fsim, the cycle model and the RTL (levels_util.h): fsim's `n` bytes at `out`.
support::Expected<std::vector<uint8_t>> runOnBoth(const isa::Target& t, const isa::Program& p, const Writes& writes,
                                                  uint64_t out, uint64_t n) {
  return testing::runOnLevels(t, p, writes, out, n);
}

/// An ALU kernel's program: `params` (may be empty) at byte 98304, the
/// micro-op table and the text above it.
support::Expected<isa::Program> aluProgram(const isa::Target& t, const Kernel& k, const std::vector<uint8_t>& params,
                                           const std::string& name) {
  isa::ProgramBuilder b(t);
  if (!params.empty())
    b.symbol({"params", isa::SymbolRole::kConst, 98304, DType::kInt8, {static_cast<int64_t>(params.size())}}, params);
  ACCELC_TRY(emitKernel(k, t, {131072, 196608}, false, b));
  return b.finish(name);
}

/// The layer compiled for `t`, run on fsim on `x`.
support::Expected<Tensor> onFsim(const ConvLayer& l, const isa::Target& t, const Tensor& x, bool serialize = false,
                                 std::optional<ConvSchedule> forced = std::nullopt) {
  ConvSchedule s;
  if (forced) {
    s = *forced;
  } else {
    ACCELC_ASSIGN_OR_RETURN(s, chooseSchedule(l, t.spec));
  }
  ACCELC_ASSIGN_OR_RETURN(LayerProgram lp, convProgram(l, s, t, x, serialize));
  ACCELC_ASSIGN_OR_RETURN(std::vector<uint8_t> yp, runOnBoth(t, lp.program, lp.writes, lp.out, lp.outBytes));
  return runtime::unpackBlocked(yp.data(), l.y);
}

Tensor randomInput(const ConvLayer& l, const isa::Target& t, uint64_t seed) { return randomConvInput(l, t.spec, seed); }

class ConvLowerTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ConvLowerTest, RandomConvolutionsAreBitExactOnFsim) {
  isa::Target t = testing::presetTarget(GetParam());
  const int64_t bi = t.spec.blockIn;
  struct Shape {
    int64_t c, m, h, w, k, stride, pad;
  };
  const Shape shapes[] = {{bi, bi, 6, 6, 3, 1, 1},          {2 * bi, bi, 7, 5, 3, 2, 1},  {bi + 3, 2 * bi + 1, 5, 6, 1, 1, 0},
                          {3, bi - 1, 9, 9, 5, 2, 2},       {bi, bi, 8, 8, 7, 1, 3},      {3 * bi, bi, 4, 4, 3, 1, 0},
                          {bi / 2 + 1, 5, 11, 3, 3, 2, 0}};
  uint64_t seed = 1;
  for (const Shape& s : shapes) {
    ConvLayer l = randomLayer(t.spec, seed, s.c, s.m, s.h, s.w, s.k, s.stride, s.pad);
    Tensor x = randomInput(l, t, seed + 100);
    Tensor want = reference(l, x);
    std::set<uint8_t> distinct(want.bytes().begin(), want.bytes().end());
    EXPECT_GT(distinct.size(), 8u) << "a degenerate layer tests little";
    auto chosen = chooseSchedule(l, t.spec);
    ASSERT_TRUE(chosen.isOk()) << chosen.diag().str();
    for (bool loops : {false, true}) {  // the ALU passes per pixel, and in the ALU's loops
      ConvSchedule sched = *chosen;
      sched.aluLoops = loops;
      auto got = onFsim(l, t, x, false, sched);
      ASSERT_TRUE(got.isOk()) << got.diag().str();
      EXPECT_EQ(got->bytes(), want.bytes())
          << GetParam() << " layer " << seed << " c" << s.c << " m" << s.m << " " << s.h << "x" << s.w << " k" << s.k
          << " s" << s.stride << " p" << s.pad << (loops ? " (ALU loops)" : "");
    }
    ++seed;
  }
}

TEST_P(ConvLowerTest, DenseLayersAreBitExactOnFsim) {
  isa::Target t = testing::presetTarget(GetParam());
  // A dense layer y[n] = W x[n] is a 1×1 convolution over a row of n pixels.
  for (int64_t n : {1, 3}) {
    ConvLayer l = randomLayer(t.spec, 50 + n, 2 * t.spec.blockIn + 5, 10, 1, n, 1, 1, 0);
    Tensor x = randomInput(l, t, 77);
    auto got = onFsim(l, t, x);
    ASSERT_TRUE(got.isOk()) << got.diag().str();
    EXPECT_EQ(got->bytes(), reference(l, x).bytes()) << "batch " << n;
  }
}

TEST_P(ConvLowerTest, SerializedProgramsComputeTheSame) {
  isa::Target t = testing::presetTarget(GetParam());
  ConvLayer l = randomLayer(t.spec, 9, t.spec.blockIn, t.spec.blockOut, 6, 6, 3, 1, 1);
  Tensor x = randomInput(l, t, 9);
  auto a = onFsim(l, t, x, false), b = onFsim(l, t, x, true);
  ASSERT_TRUE(a.isOk() && b.isOk()) << (a ? b.diag().str() : a.diag().str());
  EXPECT_EQ(a->bytes(), b->bytes());
}

TEST_P(ConvLowerTest, SmallTilesAndChunksExerciseDoubleBuffering) {
  isa::Target t = testing::presetTarget(GetParam());
  ConvLayer l = randomLayer(t.spec, 21, 4 * t.spec.blockIn, 2 * t.spec.blockOut + 3, 7, 6, 3, 1, 1);
  Tensor x = randomInput(l, t, 21);
  const Tensor want = reference(l, x);
  int ran = 0;
  for (ConvSchedule s : {ConvSchedule{1, 1, 0, 0, ""}, ConvSchedule{2, 2, 0, 0, ""}, ConvSchedule{3, 1, 0, 0, ""},
                         ConvSchedule{2, 1, 4, 0, ""}, ConvSchedule{3, 4, 5, 0, ""}, ConvSchedule{7, 2, 1, 0, ""},
                         ConvSchedule{2, 1, 0, 0, "", 3}, ConvSchedule{1, 2, 4, 0, "", 3}}) {  // 3 output blocks per tile
    if (!checkSchedule(l, s, t.spec)) continue;  // too big for this preset's buffers
    for (bool loops : {false, true}) {
      s.aluLoops = loops;
      auto got = onFsim(l, t, x, false, s);
      ASSERT_TRUE(got.isOk()) << got.diag().str();
      EXPECT_EQ(got->bytes(), want.bytes())
          << s.tileRows << " rows, " << s.tileCols << " columns, " << s.chunkBlocks << " blocks per chunk, "
          << s.outBlocks << " output blocks" << (loops ? ", ALU loops" : "");
    }
    ++ran;
  }
  EXPECT_GE(ran, 4);
}

TEST_P(ConvLowerTest, GroupedAndDepthwiseConvolutionsAreBitExact) {
  isa::Target t = testing::presetTarget(GetParam());
  const int64_t b = t.spec.blockIn;
  // Depthwise with odd channel counts, groups that divide a block, groups of whole blocks, and groups that do
  // neither (run as dense convolutions with zero weights); strides 1 and 2, every padding up to the kernel's half.
  const ConvShape shapes[] = {{2 * b + 3, 2 * b + 3, 9, 8, 3, 1, 1, 2 * b + 3}, {b - 1, b - 1, 11, 7, 3, 2, 1, b - 1},
                              {3 * b, 3 * b, 8, 9, 5, 1, 2, 3 * b},            {2 * b, 2 * b, 7, 7, 3, 2, 0, b},
                              {4 * b, 2 * b, 6, 5, 3, 1, 1, 2},                 {2 * b, 4 * b, 5, 6, 1, 2, 0, 2},
                              {6, 9, 7, 7, 3, 1, 1, 3},                         {b, b, 8, 8, 3, 2, 1, b}};
  uint64_t seed = 300;
  for (const ConvShape& shape : shapes) {
    ConvLayer l = randomConvLayer(t.spec, seed, shape);
    const bool dense = !groupForm(l, t.spec);
    if (dense) l = denseOf(l);
    Tensor x = randomInput(l, t, seed + 1);
    ConvLayer grouped = randomConvLayer(t.spec, seed, shape);  // the reference runs the grouped form
    Tensor want = reference(grouped, x);
    auto got = onFsim(l, t, x);
    ASSERT_TRUE(got.isOk()) << got.diag().str();
    EXPECT_EQ(got->bytes(), want.bytes()) << GetParam() << " c" << shape.c << " m" << shape.m << " groups " << shape.group
                                          << " k" << shape.k << " s" << shape.stride << " p" << shape.pad
                                          << (dense ? " (as dense)" : "");
    EXPECT_EQ(convMacs(l), dense ? convMacs(grouped) * shape.group : convMacs(grouped));
    ++seed;
  }
}

TEST_P(ConvLowerTest, MatrixProductsOfTwoActivationsAreBitExact) {
  isa::Target t = testing::presetTarget(GetParam());
  const int64_t b = t.spec.blockIn;
  const bool rescales = t.spec.hasAluOp("mulq") && t.spec.hasAluOp("shrr");
  // Batches of 1 to 3 matrices; rows, inner and output sizes off the blocks and on them.
  struct Case {
    runtime::Shape a, b;
  };
  uint64_t seed = 500;
  for (const Case& c : {Case{{5, b + 3}, {b + 3, 2 * b + 1}}, Case{{3, 7, 2 * b}, {3, 2 * b, b - 1}},
                        Case{{2, 20, 20}, {2, 20, 20}}, Case{{1, 2, 17, 9}, {1, 2, 9, 33}}}) {
    std::mt19937_64 g(seed++);
    Tensor x(DType::kInt8, c.a), y(DType::kInt8, c.b);
    const int range = rescales ? 256 : 7;  // without a rescale the accumulators themselves must fit int8's range
    for (uint8_t& v : x.bytes()) v = static_cast<uint8_t>(static_cast<int>(g() % range) - range / 2);
    for (uint8_t& v : y.bytes()) v = static_cast<uint8_t>(static_cast<int>(g() % range) - range / 2);
    runtime::QMulAttrs q;
    q.mult = rescales ? (int64_t{1} << 30) + static_cast<int64_t>(g() % (1u << 30)) : INT32_MAX;
    // About 40 output steps per standard deviation of the accumulator.
    const double spread = 5476.0 * std::sqrt(static_cast<double>(c.a.back())) * 0.75 / 40.0;
    q.shift = rescales ? static_cast<int64_t>(std::round(std::log2(spread))) : 0;
    q.zeroPoint = static_cast<int64_t>(g() % 11) - 5, q.lo = g() % 2 ? q.zeroPoint : -128;
    ConvLayer l = matmulLayer("matmul", c.a, c.b, q, t.spec);
    std::vector<Tensor> want(1);
    ASSERT_TRUE(runtime::runOp(runtime::OpKind::kQMatMul, q, {&x, &y}, want, support::Location::node("ref", "matmul")));
    std::set<uint8_t> distinct(want[0].bytes().begin(), want[0].bytes().end());
    EXPECT_GT(distinct.size(), 8u) << "a degenerate product tests little";
    auto ranked = rankSchedules(l, t.spec);
    ASSERT_TRUE(ranked.isOk()) << ranked.diag().str();
    // The weights' loads take three forms (a chunk of one block; a tile of one output block; one DMA per
    // output block): the best-ranked schedule of each that is legal here.
    std::set<int> forms;
    for (const ConvSchedule& sched : *ranked) {
      const int form = sched.chunkBlocks == 1 ? 0 : sched.outBlocks == 1 ? 1 : 2;
      if (!forms.insert(form).second) continue;
      const Tensor rows = runtime::toBlockedShape(x, x.shape(), runtime::BlockedForm::kRows, b);
      auto lp = convProgram(l, sched, t, rows, false, &y);
      ASSERT_TRUE(lp.isOk()) << lp.diag().str();
      auto got = runOnBoth(t, lp->program, lp->writes, lp->out, lp->outBytes);
      ASSERT_TRUE(got.isOk()) << got.diag().str();
      runtime::Shape out = c.a;
      out.back() = c.b.back();
      EXPECT_EQ(runtime::fromBlockedShape(runtime::unpackBlocked(got->data(), l.y), runtime::BlockedForm::kRows, out)
                    .bytes(),
                want[0].bytes())
          << GetParam() << " " << support::shapeStr(c.a) << " x " << support::shapeStr(c.b) << " " << describe(sched);
    }
    if (c.b.back() > b && c.a.back() > b) {
      EXPECT_EQ(forms.size(), 3u) << "every form of the weights' loads";
    }
  }
}

TEST_P(ConvLowerTest, MaxPoolOnTheAluIsBitExact) {
  isa::Target t = testing::presetTarget(GetParam());
  struct Case {
    int64_t c, h, w, k, s, p;  ///< p: padding, read from a border of zeros (the input is >= 0 then)
    int64_t lo = -128;         ///< a clamp below on the maxima
  };
  for (const Case& cs :
       {Case{t.spec.blockIn + 2, 8, 8, 2, 2, 0}, Case{3, 9, 7, 3, 2, 0}, Case{2 * t.spec.blockIn, 5, 6, 3, 1, 0},
        Case{5, 8, 9, 3, 2, 1}, Case{3, 2, 3, 2, 2, 0},  // one output column: tiles shorter than the hazard distance
        Case{5, 8, 9, 3, 2, 0, 90}, Case{2 * t.spec.blockIn, 5, 6, 3, 1, 0, 70}}) {
    PoolLayer l;
    l.name = "pool";
    l.lo = cs.lo;
    l.kh = l.kw = cs.k, l.sh = l.sw = cs.s, l.pt = l.pl = cs.p;
    l.oh = (cs.h + 2 * cs.p - cs.k) / cs.s + 1, l.ow = (cs.w + 2 * cs.p - cs.k) / cs.s + 1;
    l.x = {2, cs.c, cs.h, cs.w, t.spec.blockIn, 1 + cs.p, cs.p, cs.p, 1 + cs.p, 0};
    l.y = {2, cs.c, l.oh, l.ow, t.spec.blockOut, 0, 1, 0, 0, 0};
    Tensor x(DType::kInt8, {2, cs.c, cs.h, cs.w});
    std::mt19937_64 g(static_cast<uint64_t>(cs.c * 100 + cs.h));
    for (uint8_t& b : x.bytes()) b = static_cast<uint8_t>(cs.p ? g() % 128 : g());
    auto rows = choosePoolRows(l, t.spec);
    ASSERT_TRUE(rows.isOk()) << rows.diag().str();
    Kernel k = lowerPool(l, std::max<int64_t>(1, *rows / 2), t.spec, 0, 65536);
    isa::ProgramBuilder b(t);
    ASSERT_TRUE(emitKernel(k, t, {131072, 139264}, false, b).isOk());
    auto p = b.finish("pool.bin");
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    const uint64_t n = static_cast<uint64_t>(l.y.bytes());
    auto yp = runOnBoth(t, *p, {{0, runtime::packBlocked(x, l.x)}, {65536, std::vector<uint8_t>(n, 0)}}, 65536, n);
    ASSERT_TRUE(yp.isOk()) << yp.diag().str();
    runtime::PoolAttrs pa;
    pa.kernelShape = {cs.k, cs.k}, pa.strides = {cs.s, cs.s}, pa.pads = {cs.p, cs.p, cs.p, cs.p};
    std::vector<Tensor> want(1);
    ASSERT_TRUE(runtime::runOp(runtime::OpKind::kMaxPool, pa, {&x}, want, {}).isOk());
    int64_t clamped = 0;
    for (uint8_t& v : want[0].bytes())
      if (static_cast<int8_t>(v) < cs.lo) v = static_cast<uint8_t>(cs.lo), ++clamped;
    if (cs.lo > -128) {
      EXPECT_GT(clamped, 0) << "the clamp below never acts";
    }
    EXPECT_EQ(runtime::unpackBlocked(yp->data(), l.y).bytes(), want[0].bytes()) << "c" << cs.c << " k" << cs.k;
  }
}

TEST_P(ConvLowerTest, AveragePoolOnTheAluIsBitExact) {
  isa::Target t = testing::presetTarget(GetParam());
  struct Case {
    int64_t c, h, w, k, s, zx, zp, lo;
  };
  for (const Case& cs : {Case{t.spec.blockIn + 2, 7, 7, 7, 1, 0, 0, 0}, Case{3, 9, 7, 3, 2, -5, 4, -128},
                         Case{2 * t.spec.blockIn, 6, 6, 2, 2, 17, -3, -10}}) {
    PoolLayer l;
    l.name = "avg";
    l.average = true;
    l.kh = l.kw = cs.k, l.sh = l.sw = cs.s;
    l.oh = (cs.h - cs.k) / cs.s + 1, l.ow = (cs.w - cs.k) / cs.s + 1;
    l.avg.kernelShape = {cs.k, cs.k}, l.avg.strides = {cs.s, cs.s};
    l.avg.zeroX = cs.zx, l.avg.zeroPoint = cs.zp, l.avg.lo = cs.lo, l.avg.hi = 100;
    l.avg.mult = 1518500250, l.avg.shift = 8 + (cs.k > 3);
    l.x = {1, cs.c, cs.h, cs.w, t.spec.blockIn, 0, 1, 1, 0, 0};
    l.y = {1, cs.c, l.oh, l.ow, t.spec.blockOut, 1, 0, 0, 2, 0};
    Tensor x(DType::kInt8, {1, cs.c, cs.h, cs.w});
    std::mt19937_64 g(static_cast<uint64_t>(cs.c * 10 + cs.k));
    for (uint8_t& b : x.bytes()) b = static_cast<uint8_t>(g());
    auto rows = choosePoolRows(l, t.spec);
    ASSERT_TRUE(rows.isOk()) << rows.diag().str();
    const std::vector<uint8_t> params = packPoolParams(l, t.spec);
    Kernel k = lowerPool(l, std::max<int64_t>(1, *rows / 2), t.spec, 0, 65536, 98304);
    auto p = aluProgram(t, k, params, "avg.bin");
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    const uint64_t n = static_cast<uint64_t>(l.y.bytes());
    auto yp = runOnBoth(t, *p, {{0, runtime::packBlocked(x, l.x)}, {65536, std::vector<uint8_t>(n, 0)}}, 65536, n);
    ASSERT_TRUE(yp.isOk()) << yp.diag().str();
    std::vector<Tensor> want(1);
    ASSERT_TRUE(runtime::runOp(runtime::OpKind::kQAveragePool, l.avg, {&x}, want, {}).isOk());
    std::set<uint8_t> distinct(want[0].bytes().begin(), want[0].bytes().end());
    EXPECT_GT(distinct.size(), 3u) << "c" << cs.c << " k" << cs.k;
    EXPECT_EQ(runtime::unpackBlocked(yp->data(), l.y).bytes(), want[0].bytes()) << "c" << cs.c << " k" << cs.k;
  }
}

TEST_P(ConvLowerTest, GlobalAveragePoolOfAnySizeIsBitExact) {
  isa::Target t = testing::presetTarget(GetParam());
  // Windows past the accumulator's halves: summed in chunks of rows into one row per channel block.
  const int64_t depth = std::min(t.spec.depth(hwspec::BufferKind::kAcc), t.spec.depth(hwspec::BufferKind::kOutput));
  const int64_t side = static_cast<int64_t>(std::sqrt(static_cast<double>(depth))) + 2;
  struct Case {
    int64_t h, w, zx;
  };
  for (const Case& cs : {Case{side, side, 0}, Case{depth / 16 + 3, 17, -7}}) {
    PoolLayer l;
    l.name = "gap";
    l.average = true;
    l.kh = cs.h, l.kw = cs.w, l.oh = l.ow = 1;
    const int64_t c = 2 * t.spec.blockIn + 1, k = cs.h * cs.w;
    l.avg.kernelShape = {cs.h, cs.w}, l.avg.zeroX = cs.zx, l.avg.zeroPoint = 3, l.avg.lo = -100, l.avg.hi = 120;
    l.avg.mult = 1518500250;
    l.avg.shift = static_cast<int64_t>(std::lround(std::log2(74.0 * std::sqrt(static_cast<double>(k)) * 256 * 0.7 / 40)));
    l.x = {2, c, cs.h, cs.w, t.spec.blockIn, 1, 0, 0, 2, 0};
    l.y = {2, c, 1, 1, t.spec.blockOut, 0, 0, 0, 0, 0};
    Tensor x(DType::kInt8, {2, c, cs.h, cs.w});
    std::mt19937_64 g(static_cast<uint64_t>(k));
    for (uint8_t& b : x.bytes()) b = static_cast<uint8_t>(g());
    ASSERT_GT(2 * (k + 2), depth) << "the window fits whole: not the chunked form";
    auto rows = choosePoolRows(l, t.spec);
    ASSERT_TRUE(rows.isOk()) << rows.diag().str();
    Kernel kern = lowerPool(l, *rows, t.spec, 0, 1 << 20, (1 << 20) + 65536);
    isa::ProgramBuilder b(t);
    const std::vector<uint8_t> params = packPoolParams(l, t.spec);
    b.symbol({"params", isa::SymbolRole::kConst, (1 << 20) + 65536, DType::kInt8, {static_cast<int64_t>(params.size())}},
             params);
    ASSERT_TRUE(emitKernel(kern, t, {(1 << 20) + 131072, (1 << 20) + 196608}, false, b).isOk());
    auto prog = b.finish("gap.bin");
    ASSERT_TRUE(prog.isOk()) << prog.diag().str();
    const uint64_t n = static_cast<uint64_t>(l.y.bytes());
    auto yp = runOnBoth(t, *prog, {{0, runtime::packBlocked(x, l.x)}, {1 << 20, std::vector<uint8_t>(n, 0)}}, 1 << 20, n);
    ASSERT_TRUE(yp.isOk()) << yp.diag().str();
    std::vector<Tensor> want(1);
    ASSERT_TRUE(runtime::runOp(runtime::OpKind::kQAveragePool, l.avg, {&x}, want, {}).isOk());
    std::set<uint8_t> distinct(want[0].bytes().begin(), want[0].bytes().end());
    EXPECT_GT(distinct.size(), 3u) << cs.h << "x" << cs.w;
    EXPECT_EQ(runtime::unpackBlocked(yp->data(), l.y).bytes(), want[0].bytes()) << cs.h << "x" << cs.w;
  }
}

TEST_P(ConvLowerTest, ResidualAddIsBitExactInBothForms) {
  // Multipliers of at least 2^30 take the ALU form; smaller ones the GEMM form
  // (compiler/lower/add.h), whose operands come through the input buffer and
  // whose passes may walk the pixels in the instructions' loops.
  isa::Target t = testing::presetTarget(GetParam());
  for (int form = 0; form < 3; ++form) {  // ALU form; GEMM form per pixel; GEMM form in loops
    const bool gemmForm = form > 0;
    SCOPED_TRACE(form == 0 ? "ALU form" : form == 1 ? "GEMM form" : "GEMM form in loops");
    AddLayer l;
    l.name = "add";
    l.loops = form == 2;
    const int64_t c = 2 * t.spec.blockIn + 1, h = 5, w = 6;
    l.a = {2, c, h, w, t.spec.blockIn, 1, 1, 1, 1, -3};
    l.b = {2, c, h, w, t.spec.blockIn, 0, 0, 0, 0, 5};
    l.y = {2, c, h, w, t.spec.blockOut, 0, 2, 1, 0, 0};
    // zero_a, mult_a, zero_b, mult_b, shift, zp, lo, hi
    l.attrs = gemmForm ? runtime::QAddAttrs{-3, 759250125, 5, 600000000, 7, 4, 4, 127}
                       : runtime::QAddAttrs{-3, 1518500250, 5, 1200000000, 8, 4, 4, 127};
    ASSERT_EQ(addOnGemm(l, t.spec), gemmForm);
    Tensor a(DType::kInt8, {2, c, h, w}), b(DType::kInt8, {2, c, h, w});
    std::mt19937_64 g(5);
    for (uint8_t& v : a.bytes()) v = static_cast<uint8_t>(g());
    for (uint8_t& v : b.bytes()) v = static_cast<uint8_t>(g());
    auto rows = chooseAddRows(l, t.spec);
    ASSERT_TRUE(rows.isOk()) << rows.diag().str();
    std::vector<uint8_t> params = packAddParams(l, t.spec);
    Kernel k = lowerAdd(l, std::max<int64_t>(1, *rows / 2), t.spec, 0, 32768, 65536, 98304);
    auto p = aluProgram(t, k, params, "add.bin");
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    const uint64_t n = static_cast<uint64_t>(l.y.bytes());
    auto yp = runOnBoth(
        t, *p,
        {{0, runtime::packBlocked(a, l.a)}, {32768, runtime::packBlocked(b, l.b)}, {65536, std::vector<uint8_t>(n, 0)}},
        65536, n);
    ASSERT_TRUE(yp.isOk()) << yp.diag().str();
    std::vector<Tensor> want(1);
    ASSERT_TRUE(runtime::runOp(runtime::OpKind::kQAdd, l.attrs, {&a, &b}, want, {}).isOk());
    std::set<uint8_t> distinct(want[0].bytes().begin(), want[0].bytes().end());
    EXPECT_GT(distinct.size(), 20u);
    EXPECT_EQ(runtime::unpackBlocked(yp->data(), l.y).bytes(), want[0].bytes());
  }
}

ACCELC_INSTANTIATE_FOR_PRESETS(ConvLowerTest);

TEST(ConvLowerIce40, ALayerThatDoesNotRescaleRunsWithoutMulq) {
  // ice40's ALU has no mulq and no shifts. A layer whose multipliers are all
  // 2^31 - 1 with no shift, and whose accumulators stay far below 2^30,
  // requantizes by its bias, zero point and clamps alone; without either (the
  // second layer) a clamp to 127 ends each tile. fsim would reject a mulq
  // here, and onFsim also holds the cycle model and the RTL to fsim.
  isa::Target t = testing::presetTarget("ice40");
  for (uint64_t seed : {31, 32}) {
    ConvLayer l = randomLayer(t.spec, seed, 2 * t.spec.blockIn, 2 * t.spec.blockOut + 1, 6, 5, 3, 1, 1);
    std::mt19937_64 g(seed);
    for (uint8_t& b : l.weight.bytes()) b = static_cast<uint8_t>(static_cast<int>(g() % 3) - 1);
    for (size_t i = 0; i < l.bias.size(); ++i) l.bias[i] = static_cast<int32_t>(g() % 61) - 30, l.mult[i] = INT32_MAX, l.shift[i] = 0;
    if (seed == 32) l.zeroPoint = 0, l.lo = -128, l.hi = 127;
    Tensor x(DType::kInt8, {1, l.x.c, l.x.h, l.x.w});
    for (uint8_t& b : x.bytes()) b = static_cast<uint8_t>(static_cast<int>(g() % 21) - 10);
    auto got = onFsim(l, t, x);
    ASSERT_TRUE(got.isOk()) << got.diag().str();
    const Tensor want = reference(l, x);
    std::set<uint8_t> distinct(want.bytes().begin(), want.bytes().end());
    EXPECT_GT(distinct.size(), 8u) << "a degenerate layer tests little";
    EXPECT_EQ(got->bytes(), want.bytes()) << "layer " << seed;
  }
}

TEST(ConvLowerGolden, LoopIrOfAConvAndADenseLayer) {
  isa::Target t = testing::presetTarget("vta-default");
  ConvLayer conv = randomLayer(t.spec, 5, 32, 16, 6, 6, 3, 1, 1);
  conv.name = "conv";
  ConvAddrs a{0, 8192, 16384, 65536};
  std::string text = printKernel(lowerConv(conv, ConvSchedule{4, 1, 0, 0, ""}, t.spec, a));
  ConvLayer dense = randomLayer(t.spec, 6, 256, 10, 1, 1, 1, 1, 0);
  dense.name = "dense";
  text += printKernel(lowerConv(dense, ConvSchedule{1, 16, 0, 0, ""}, t.spec, a));
  testing::expectGolden("lower/conv_and_dense.loop.txt", text);
}

TEST(ConvLowerErrors, ALayerThatFitsNoTilingNamesTheBuffer) {
  isa::Target t = testing::presetTarget("tiny");
  ConvLayer l = randomLayer(t.spec, 3, 4, 4, 16, 16, 13, 1, 6);  // one 13x13 window is 169 input entries
  l.name = "big";
  auto s = chooseSchedule(l, t.spec);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.diag().str(), "big:big: error: no legal tiling: the input buffer needs 338 entries for this layer "
                            "(double-buffered) but has 256");
}

TEST(ConvLowerNarrowIsa, AMicroOpTableLongerThanALoadIsLoadedInPieces) {
  // Found by the differential campaign: small.isa.yaml's x_size holds 255, and
  // a legal schedule's table of 290 micro-ops did not encode.
  auto hw = hwspec::parseHwSpec(
      "schema: 1\nname: narrow\nclock_mhz: 100\ngemm: {batch: 1, block_in: 8, block_out: 2}\n"
      "dtypes: {input: int8, weight: int8, acc: int32, output: int8}\n"
      "buffers: {uop: 2048, input: 64, weight: 512, acc: 4096, output: 512}\n"
      "dram: {bytes_per_cycle: 2, latency_cycles: 29, addr_bits: 27, window: 4194304}\n"
      "queues: {command_depth: 11, token_depth: 5}\nalu: {ops: [min, max, add, mov, mulq, shr, shrr, clip]}\n"
      "timing: {gemm_ii: 2, alu_ii: 2, pipeline_depth: 1, acc_hazard: 5, max_burst: 64, outstanding: 8}\n"
      "isa: {file: small.isa.yaml, insn_bits: 128, uop_bits: 32}\n",
      "narrow.yaml");
  ASSERT_TRUE(hw.isOk()) << hw.diag().str();
  auto t = isa::loadTarget(*hw);
  ASSERT_TRUE(t.isOk()) << t.diag().str();
  const ConvLayer l = randomLayer(*hw, 88, 11, 9, 9, 9, 1, 2, 0);
  const Tensor x = randomInput(l, *t, 89);
  auto lp = convProgram(l, ConvSchedule{1, 1, 2, 0, "", 5}, *t, x, false);
  ASSERT_TRUE(lp.isOk()) << lp.diag().str();
  auto insns = isa::decodeText(lp->program, *t, "narrow.bin");
  ASSERT_TRUE(insns.isOk()) << insns.diag().str();
  int64_t uopLoads = 0, uops = 0;
  for (const isa::Instruction& i : *insns)
    if (i.opcode == isa::Opcode::kLoad && isa::Buffer(i.mem().buffer) == isa::Buffer::kUop)
      ++uopLoads, uops += i.mem().xSize;
  EXPECT_EQ(uopLoads, 2);
  EXPECT_GT(uops, 255);
  simulator::FunctionalSim sim(*t);
  ASSERT_TRUE(sim.loadProgram(lp->program).isOk());
  for (const auto& [addr, bytes] : lp->writes) ASSERT_TRUE(sim.write(addr, bytes.data(), bytes.size()).isOk());
  auto ran = sim.run(lp->program, "narrow.bin");
  ASSERT_TRUE(ran.isOk()) << ran.diag().str();
  std::vector<uint8_t> y(lp->outBytes);
  ASSERT_TRUE(sim.read(lp->out, y.data(), y.size()).isOk());
  EXPECT_EQ(runtime::unpackBlocked(y.data(), l.y).bytes(), reference(l, x).bytes());
}

TEST(ConvLowerErrors, ACoreOfSeveralRowsIsRefusedNotMiscompiled) {
  // Found by the differential campaign: on a random hwspec with gemm.batch = 2
  // every layer ran on every engine alike and differed from the reference.
  std::string text = hwspec::presetText("tiny");
  text.replace(text.find("batch: 1"), 8, "batch: 2");
  auto hw = hwspec::parseHwSpec(text, "two-rows.yaml");
  ASSERT_TRUE(hw.isOk()) << hw.diag().str();
  ConvLayer l = randomLayer(*hw, 3, 4, 4, 6, 6, 3, 1, 1);
  l.name = "c";
  auto s = chooseSchedule(l, *hw);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.diag().str(), "c:c: error: the convolution lowering needs gemm.batch = 1 (one pixel per buffer entry); "
                            "this core has 2");
}

}  // namespace
}  // namespace accelc::compiler::lower
