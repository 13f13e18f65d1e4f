// tests/host/nn_kernels_test.cc — the generated convolution, matrix-product
// and pool kernels against the runtime's reference kernels, over grids of
// shapes with odd sizes, sizes that do not divide the register tile or the
// vector, 1-element dimensions and every attribute case; each with AVX-512
// off, and on where this CPU has it, on one thread and on a pool of three.
//
// The kernels sum in another order than the reference (and with fma), so a
// float output passes when |a - b| <= 1e-5 · Σ|terms| + 4 ULP · |b|, where
// Σ|terms| is the reference kernel run on the inputs' absolute values.
#include "compiler/host/nn_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "compiler/host/compiled_kernel.h"
#include "compiler/host/fusion.h"
#include "compiler/host/step_kernels.h"
#include "runtime/ops.h"
#include "tests/host/host_rule.h"
#include "tests/host/jit_util.h"

namespace accelc::compiler::host {
namespace {

using runtime::OpKind;
using runtime::Shape;
using runtime::Tensor;
using testing::expectClose;

Tensor randomTensor(const Shape& s, uint64_t seed) {
  Tensor t(support::DType::kFloat32, s);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(g);
  return t;
}

Tensor absOf(const Tensor& t) {
  Tensor a = t;
  for (int64_t i = 0; i < a.numel(); ++i) a.data<float>()[i] = std::fabs(a.data<float>()[i]);
  return a;
}

Tensor reference(OpKind k, const runtime::Attrs& attrs, const std::vector<const Tensor*>& in) {
  std::vector<Tensor> out(1);
  support::Status st = runtime::runOp(k, attrs, in, out, support::Location());
  EXPECT_TRUE(st.isOk()) << st.str();
  return out[0];
}

/// Runs `plan` `runs` times on `in` (inputs in buffer order; null for an omitted one) into `out`'s shape: a
/// second run reads what the first prepared from constants.
Tensor generated(HostJit& jit, const KernelPlan& plan, const std::vector<const Tensor*>& in, const Shape& outShape,
                 support::ThreadPool* pool, int runs = 1) {
  auto k = CompiledKernel::compile(jit, plan.kernel, plan.schedule, "test");
  EXPECT_TRUE(k.isOk()) << k.status().str();
  Tensor out(support::DType::kFloat32, outShape);
  if (!k) return out;
  std::vector<void*> io;
  for (const Tensor* t : in)
    if (t) io.push_back(const_cast<float*>(t->data<float>()));
  io.push_back(out.data<float>());
  io.resize(k->buffers().size(), nullptr);
  for (int r = 0; r < runs; ++r) {
    std::fill(out.data<float>(), out.data<float>() + out.numel(), 0.0f);
    k->run(io, pool);
  }
  return out;
}

/// Checks a plan against the reference on random inputs, on every JIT, with
/// and without a pool; Σ|terms| comes from `termsAttrs` (the attributes with
/// absolute coefficients) on the inputs' absolute values.
void check(OpKind op, const runtime::Attrs& attrs, const std::vector<Shape>& shapes,
           const std::function<std::optional<KernelPlan>(const CpuShape&)>& plan, const std::string& what,
           const runtime::Attrs* termsAttrs = nullptr, int runs = 1) {
  std::vector<Tensor> in, abs;
  for (size_t i = 0; i < shapes.size(); ++i) in.push_back(randomTensor(shapes[i], 11 + i));
  for (const Tensor& t : in) abs.push_back(absOf(t));
  std::vector<const Tensor*> ptrs, absPtrs;
  for (size_t i = 0; i < in.size(); ++i) ptrs.push_back(&in[i]), absPtrs.push_back(&abs[i]);
  const Tensor want = reference(op, attrs, ptrs), terms = reference(op, termsAttrs ? *termsAttrs : attrs, absPtrs);
  support::ThreadPool pool(3);
  for (auto& jit : testing::hostJits()) {
    std::optional<KernelPlan> p = plan(jitCpuShape(*jit));
    ASSERT_TRUE(p.has_value()) << what << ": no kernel";
    const std::string tag = what + (jit->usesAvx512() ? " avx512" : " avx2");
    expectClose(generated(*jit, *p, ptrs, want.shape(), nullptr, runs), want, terms, tag);
    expectClose(generated(*jit, *p, ptrs, want.shape(), &pool, runs), want, terms, tag + " 3 threads");
  }
}

/// Whether `p`'s product reads B from panels packed once (`once`: a constant B), or at every run.
bool packsPanels(const KernelPlan& p, bool once = true) {
  return std::any_of(p.kernel.stages.begin(), p.kernel.stages.end(),
                     [&](const LoopStage& s) { return s.name == "pack_panels" && s.constant == once; });
}

struct ConvCase {
  Shape x, w;
  runtime::Ints strides, pads, dilations;
  int64_t group = 1;
  bool bias = true;
  runtime::AutoPad autoPad = runtime::AutoPad::kNotSet;
};

TEST(NnKernels, ConvolutionsMatchTheReference) {
  using runtime::AutoPad;
  const ConvCase cases[] = {
      // x, w, strides, pads, dilations, group, bias, auto_pad
      {{1, 3, 9, 11}, {5, 3, 3, 3}, {}, {1, 1, 1, 1}, {}, 1, true, AutoPad::kNotSet},        // dense, padded, odd sizes
      {{2, 8, 14, 14}, {16, 8, 3, 3}, {2, 2}, {1, 1, 1, 1}, {}, 1, true, AutoPad::kNotSet},  // stride 2 (gathers),
                                                                                             // batch 2
      {{1, 16, 7, 7}, {20, 16, 3, 3}, {}, {1, 1, 1, 1}, {}, 1, false, AutoPad::kNotSet},     // 7 columns, no bias
      {{1, 32, 5, 5}, {13, 32, 1, 1}, {}, {}, {}, 1, true, AutoPad::kNotSet},                // 1x1 read in place
      {{1, 6, 10, 10}, {8, 3, 3, 3}, {}, {0, 1, 2, 0}, {}, 2, true, AutoPad::kNotSet},       // grouped, uneven pads
      {{1, 8, 12, 12}, {8, 1, 3, 3}, {}, {1, 1, 1, 1}, {}, 8, true, AutoPad::kNotSet},       // depthwise
      {{1, 8, 15, 15}, {8, 1, 5, 5}, {2, 2}, {2, 2, 2, 2}, {}, 8, true, AutoPad::kNotSet},   // depthwise 5x5 stride 2
      {{1, 4, 9, 9}, {8, 1, 3, 3}, {}, {1, 1, 1, 1}, {}, 4, false, AutoPad::kNotSet},        // two outputs per channel
      // Depthwise at column strides of 2 to 4 (column planes, zero taps), and strided loads where dilated.
      {{2, 6, 13, 11}, {12, 1, 3, 3}, {2, 2}, {0, 1, 2, 0}, {}, 6, true, AutoPad::kNotSet},     // uneven pads, 2 per
      {{1, 5, 17, 19}, {5, 1, 3, 3}, {3, 3}, {1, 1, 1, 1}, {}, 5, true, AutoPad::kNotSet},      // stride 3
      {{1, 3, 20, 23}, {3, 1, 5, 5}, {1, 4}, {2, 2, 2, 2}, {}, 3, false, AutoPad::kNotSet},     // stride (1, 4)
      {{1, 4, 15, 15}, {4, 1, 3, 3}, {2, 2}, {2, 2, 2, 2}, {2, 2}, 4, true, AutoPad::kNotSet},  // dilated
      {{1, 4, 13, 13}, {6, 4, 3, 3}, {}, {2, 2, 2, 2}, {2, 2}, 1, true, AutoPad::kNotSet},      // dilation 2
      {{1, 3, 8, 9}, {4, 3, 4, 3}, {3, 1}, {}, {}, 1, true, AutoPad::kSameUpper},               // auto_pad
      {{1, 5, 17}, {7, 5, 3}, {}, {1, 1}, {}, 1, true, AutoPad::kNotSet},                       // 1-D
      {{1, 1, 1, 1}, {1, 1, 1, 1}, {}, {}, {}, 1, true, AutoPad::kNotSet},                      // one element
      {{1, 64, 56, 56}, {64, 64, 3, 3}, {}, {1, 1, 1, 1}, {}, 1, true, AutoPad::kNotSet},       // a ResNet layer
      // read in place from a padded image at stride 1 and 28x28: two images, dilated rows, uneven pads, no bias
      {{2, 3, 30, 29}, {7, 3, 3, 5}, {}, {0, 1, 2, 2}, {2, 1}, 1, false, AutoPad::kNotSet},
      {{1, 12, 10, 11}, {32, 12, 3, 3}, {}, {0, 1, 2, 0}, {2, 1}, 1, true, AutoPad::kNotSet},  // rows: dilated, uneven
      {{2, 40, 6, 6}, {24, 40, 1, 1}, {}, {}, {}, 1, false, AutoPad::kNotSet},                 // rows: 1x1
      // rows whose depth goes in slices of panel over several row blocks (of 7 pixels on AVX-512; AVX2's 6 and
      // 4 do not divide 49): 49 and 48 pixels
      {{1, 48, 7, 7}, {128, 48, 3, 3}, {}, {1, 1, 1, 1}, {}, 1, true, AutoPad::kNotSet},
      {{1, 64, 6, 8}, {128, 64, 3, 3}, {}, {1, 1, 1, 1}, {}, 1, true, AutoPad::kNotSet},
  };
  for (const ConvCase& c : cases) {
    runtime::ConvAttrs a;
    a.strides = c.strides, a.pads = c.pads, a.dilations = c.dilations, a.group = c.group, a.autoPad = c.autoPad;
    std::vector<Shape> shapes = {c.x, c.w};
    if (c.bias) shapes.push_back({c.w[0]});
    // Constant weights too (a model's): packed once, run twice; a small image's pixels then go in rows.
    for (const bool constW : {false, true})
      check(
          OpKind::kConv, a, shapes, [&](const CpuShape& cpu) { return convPlan(a, c.x, c.w, c.bias, cpu, constW); },
          "conv x" + support::shapeStr(c.x) + " w" + support::shapeStr(c.w) + " group " + std::to_string(c.group) +
              (constW ? " constant weights" : ""),
          nullptr, constW ? 2 : 1);
  }
  // Pixels in rows below 28x28 where a panel of whole vectors divides the output channels, else in lanes.
  runtime::ConvAttrs a;
  a.pads = {1, 1, 1, 1};
  auto rows = [&](const Shape& x, const Shape& w, bool constW) {
    std::optional<KernelPlan> p = convPlan(a, x, w, true, CpuShape{8, 16}, constW);
    return p && std::any_of(p->kernel.stages.begin(), p->kernel.stages.end(),
                            [](const LoopStage& s) { return s.name == "to_planes"; });
  };
  EXPECT_TRUE(rows({1, 512, 7, 7}, {512, 512, 3, 3}, true));
  EXPECT_TRUE(rows({1, 256, 14, 14}, {256, 256, 3, 3}, true));
  EXPECT_FALSE(rows({1, 256, 14, 14}, {256, 256, 3, 3}, false));
  EXPECT_FALSE(rows({1, 64, 56, 56}, {64, 64, 3, 3}, true));
  EXPECT_FALSE(rows({1, 16, 7, 7}, {20, 16, 3, 3}, true));
}

/// The schedule of `p`'s stage named `name`.
const StageSchedule& scheduleOf(const KernelPlan& p, const std::string& name) {
  for (size_t i = 0; i < p.kernel.stages.size(); ++i)
    if (p.kernel.stages[i].name == name) return p.schedule.stages[i];
  ADD_FAILURE() << "no stage " << name;
  return p.schedule.stages.front();
}

TEST(NnKernels, PanelsPrefetchWhatTheyReadNextAlsoThroughAFusedEpilogue) {
  runtime::ConvAttrs a;
  a.pads = {1, 1, 1, 1};
  const Shape xs = {1, 48, 7, 7}, ws = {128, 48, 3, 3};
  std::optional<KernelPlan> p = convPlan(a, xs, ws, true, CpuShape{16, 32}, true);
  ASSERT_TRUE(p.has_value());
  auto prefetched = [&] {
    const StageSchedule& sc = scheduleOf(*p, "product");
    EXPECT_EQ(sc.prefetch.size(), 1u);
    return sc.prefetch.empty() ? std::string() : p->kernel.buffers[static_cast<size_t>(sc.prefetch[0].buffer)].name;
  };
  EXPECT_EQ(prefetched(), "panels");
  // 7 row blocks of 7 pixels over 4 panels of 2 vectors (loops m, panel, j, k, then the splits j, m and k):
  // the depth (432 floats) in two slices of 216, and at each step of one, a line 5 floats on in the next
  // slice (6912 floats on), so that the 7 row blocks' passes cover it.
  const StageSchedule& sc = scheduleOf(*p, "product");
  ASSERT_EQ(sc.loops.size(), 7u);
  EXPECT_EQ(sc.loops.back().axis, 3);
  EXPECT_EQ(sc.loops.back().range, 216);
  ASSERT_EQ(sc.prefetch.size(), 1u);
  EXPECT_EQ(sc.prefetch[0].c, 6912);
  EXPECT_EQ(sc.prefetch[0].coef, (std::vector<int64_t>{1080, 432 * 32, 0, 6912, 0, 0, 5}));
  // y + r, then Relu, fused: a buffer for r goes before y, and the prefetch still names the panels.
  EwKernel chain;
  chain.numInputs = 5;
  chain.unary(EwOp::kRelu, chain.binary(EwOp::kAdd, chain.input(4), chain.input(3)));
  ASSERT_TRUE(fuseEpilogue(*p, chain, {48 * 49, 128 * 48 * 9, 128, 128 * 49}, 3));
  EXPECT_EQ(prefetched(), "panels");
  // A prefetch of a buffer the stage does not load is refused.
  const LoopStage& product = p->kernel.stages[3];
  StageSchedule bad = scheduleOf(*p, "product");
  bad.prefetch[0].buffer = 0;
  EXPECT_EQ(bad.validate(product, "m.onnx").str(),
            "m.onnx:product: error: a prefetch of buffer 0, which the stage does not load");
  // One that moves with a loop of the register tile (the split of m) is refused too.
  bad = scheduleOf(*p, "product");
  bad.prefetch[0].coef[5] = 1;
  EXPECT_EQ(bad.validate(product, "m.onnx").str(),
            "m.onnx:product: error: a prefetch moves with loop 5, inside the register tile");
}

TEST(NnKernels, AStridedDepthwisesZeroTapsKeepAnInfinityInItsOwnOutputs) {
  // 12 columns at stride 2, 3 taps, no padding: 5 outputs. Column 11 is in no window, but the last output's
  // zero tap (kernel column 3) lies on it; column 3 is in output 1's window alone, and output 0's zero tap
  // lies on it.
  runtime::ConvAttrs a;
  a.strides = {2, 2}, a.group = 2;
  const Shape xs = {1, 2, 5, 12}, ws = {2, 1, 3, 3};
  Tensor x = randomTensor(xs, 7), w = randomTensor(ws, 8);
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t r = 0; r < 5; ++r) {
      x.data<float>()[(c * 5 + r) * 12 + 11] = std::numeric_limits<float>::infinity();
      x.data<float>()[(c * 5 + r) * 12 + 3] = std::numeric_limits<float>::quiet_NaN();
    }
  const Tensor want = reference(OpKind::kConv, a, {&x, &w});
  for (auto& jit : testing::hostJits()) {
    std::optional<KernelPlan> p = convPlan(a, xs, ws, false, jitCpuShape(*jit), true);
    ASSERT_TRUE(p.has_value());
    const Tensor got = generated(*jit, *p, {&x, &w}, want.shape(), nullptr, 2);
    for (int64_t i = 0; i < want.numel(); ++i) {
      const float g = got.data<float>()[i], r = want.data<float>()[i];
      EXPECT_EQ(std::isnan(g), std::isnan(r)) << "output " << i << ": " << g << ", the reference " << r;
      if (!std::isnan(r)) {
        EXPECT_NEAR(g, r, 1e-4f) << "output " << i;
      }
    }
  }
}

TEST(NnKernels, MatrixProductsMatchTheReference) {
  struct GemmCase {
    Shape a, b;
    bool ta, tb;
    float alpha, beta;
    std::optional<Shape> c;
  };
  const GemmCase gemms[] = {
      {{1, 512}, {1000, 512}, false, true, 1.0f, 1.0f, Shape{1000}},  // a classifier
      // its weights transposed at compile time: 992 columns in panels, the last 8 a tail product (AVX-512)
      {{1, 256}, {256, 1000}, false, false, 1.0f, 1.0f, Shape{1000}},
      {{5, 7}, {5, 33}, true, false, 1.0f, 1.0f, Shape{33}},  // A transposed, a tail of one column
      {{7, 5}, {5, 33}, false, false, 0.5f, 2.0f, Shape{7, 1}},
      {{9, 13}, {17, 9}, true, true, 1.0f, 1.0f, Shape{1, 17}},
      {{1, 1}, {1, 1}, false, false, 1.0f, 0.0f, std::nullopt},
      {{40, 3}, {3, 70}, false, false, 1.0f, -1.0f, Shape{40, 70}},
      {{2, 24}, {24, 40}, false, false, 1.0f, 1.0f, Shape{40}},       // panels of 5 vectors for 2 rows
      {{24, 6}, {96, 24}, true, true, 0.5f, 1.0f, Shape{6, 96}},      // panels of B's rows, C full size
      {{16, 600}, {600, 128}, false, false, 1.0f, 1.0f, Shape{128}},  // the depth in slices (AVX-512)
  };
  for (const GemmCase& g : gemms) {
    runtime::GemmAttrs a;
    a.transA = g.ta, a.transB = g.tb, a.alpha = g.alpha, a.beta = g.beta;
    std::vector<Shape> shapes = {g.a, g.b};
    if (g.c) shapes.push_back(*g.c);
    const Shape y = {g.ta ? g.a[1] : g.a[0], g.tb ? g.b[0] : g.b[1]};
    runtime::GemmAttrs absolute = a;
    absolute.alpha = std::fabs(a.alpha), absolute.beta = std::fabs(a.beta);
    const runtime::Attrs terms = absolute;
    // B a constant too: packed once into panels where whole vectors divide its columns, and run twice.
    for (const bool constB : {false, true})
      check(
          OpKind::kGemm, a, shapes,
          [&](const CpuShape& cpu) { return gemmPlan(a, g.a, g.b, g.c ? &*g.c : nullptr, y, cpu, constB); },
          "gemm " + support::shapeStr(g.a) + " " + support::shapeStr(g.b) + (constB ? " constant B" : ""), &terms,
          constB ? 2 : 1);
  }
  // Panels on x86 (8 or 16 floats) where a whole number of vectors divides n; none with NEON's vectors of 4.
  runtime::GemmAttrs plain;
  for (const CpuShape cpu : {CpuShape{8, 16}, CpuShape{16, 32}, CpuShape{4, 32}}) {
    const bool x86 = cpu.vectorWidth >= 8;
    EXPECT_EQ(packsPanels(*gemmPlan(plain, {1, 64}, {64, 1024}, nullptr, {1, 1024}, cpu, true)), x86);
    EXPECT_EQ(packsPanels(*gemmPlan(plain, {6, 64}, {64, 96}, nullptr, {6, 96}, cpu, true)), x86);
    // 70 columns: panels over the first 64 (whole vectors) and the last 6 a tail product reading B's rows.
    const KernelPlan tail = *gemmPlan(plain, {6, 64}, {64, 70}, nullptr, {6, 70}, cpu, true);
    EXPECT_EQ(packsPanels(tail), x86);
    EXPECT_EQ(std::count_if(tail.kernel.stages.begin(), tail.kernel.stages.end(),
                            [](const LoopStage& s) { return s.name == "tail_columns"; }),
              x86 ? 1 : 0);
    EXPECT_FALSE(packsPanels(*gemmPlan(plain, {1, 64}, {64, 1024}, nullptr, {1, 1024}, cpu, false)));
  }
  struct MatMulCase {
    Shape a, b, y;
  };
  const MatMulCase mms[] = {
      {{2, 4, 10, 16}, {2, 4, 16, 10}, {2, 4, 10, 10}},  // attention scores, per head
      {{3, 1, 5, 7}, {1, 4, 7, 9}, {3, 4, 5, 9}},        // both operands broadcast
      {{10, 64}, {64, 96}, {10, 96}},
      {{7}, {7, 3}, {3}},                       // a vector on the left
      {{2, 5, 6}, {6}, {2, 5}},                 // and on the right
      {{32, 1, 128}, {128, 48}, {32, 1, 48}},   // one B for every batch: one product of 32 rows
      {{2, 70, 33}, {2, 33, 24}, {2, 70, 24}},  // 70 rows: B packed at each batch point
  };
  for (const MatMulCase& m : mms)
    for (const bool constB : {false, true})
      check(
          OpKind::kMatMul, runtime::NoAttrs{}, {m.a, m.b},
          [&](const CpuShape& cpu) { return matmulPlan(m.a, m.b, m.y, cpu, constB); },
          "matmul " + support::shapeStr(m.a) + " " + support::shapeStr(m.b) + (constB ? " constant B" : ""), nullptr,
          constB ? 2 : 1);
  EXPECT_TRUE(packsPanels(*matmulPlan({32, 1, 128}, {128, 48}, {32, 1, 48}, CpuShape{8, 16}, true)));
  EXPECT_TRUE(packsPanels(*matmulPlan({2, 70, 33}, {2, 33, 24}, {2, 70, 24}, CpuShape{8, 16}, false), false));
  EXPECT_FALSE(packsPanels(*matmulPlan({2, 30, 33}, {2, 33, 24}, {2, 30, 24}, CpuShape{8, 16}, false), false));
  EXPECT_FALSE(packsPanels(*matmulPlan({2, 4, 10, 16}, {2, 4, 16, 10}, {2, 4, 10, 10}, CpuShape{8, 16}, true)));
}

TEST(NnKernels, PoolsMatchTheReference) {
  struct PoolCase {
    OpKind op;
    Shape x;
    runtime::Ints kernel, strides, pads, dilations;
    int64_t ceil = 0, includePad = 0;
  };
  const PoolCase cases[] = {
      // op, x, kernel, strides, pads, dilations, ceil_mode, count_include_pad
      {OpKind::kMaxPool, {1, 8, 112, 112}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, 0, 0},  // ResNet's stem
      {OpKind::kMaxPool, {2, 3, 9, 10}, {2, 3}, {2, 1}, {}, {}, 1, 0},               // ceil mode
      {OpKind::kMaxPool, {1, 2, 11, 11}, {3, 3}, {1, 1}, {2, 2, 2, 2}, {2, 2}, 0, 0},
      {OpKind::kAveragePool, {1, 4, 9, 9}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, 0, 0},
      {OpKind::kAveragePool, {1, 4, 9, 9}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, 1, 1},
      {OpKind::kAveragePool, {1, 3, 20}, {4}, {3}, {1, 2}, {}, 0, 0},  // 1-D
      {OpKind::kGlobalAveragePool, {2, 512, 7, 7}, {}, {}, {}, {}, 0, 0},
      {OpKind::kGlobalAveragePool, {1, 3, 1, 1}, {}, {}, {}, {}, 0, 0},
      {OpKind::kGlobalAveragePool, {1, 5, 56, 56}, {}, {}, {}, {}, 0, 0},  // whole vectors of a plane
      {OpKind::kGlobalAveragePool, {3, 7, 13}, {}, {}, {}, {}, 0, 0},      // 1-D, a plane's last vector partial
  };
  for (const PoolCase& c : cases) {
    runtime::PoolAttrs a;
    a.kernelShape = c.kernel, a.strides = c.strides, a.pads = c.pads, a.dilations = c.dilations;
    a.ceilMode = c.ceil, a.countIncludePad = c.includePad;
    const runtime::Attrs attrs = c.op == OpKind::kGlobalAveragePool ? runtime::Attrs(runtime::NoAttrs{}) : runtime::Attrs(a);
    check(c.op, attrs, {c.x}, [&](const CpuShape& cpu) { return poolPlan(c.op, a, c.x, cpu); },
          std::string(runtime::opInfo(c.op).name) + " " + support::shapeStr(c.x));
  }
}

TEST(NnKernels, NormalizationsMatchTheReference) {
  // Softmax: each output within 1e-5 of itself plus 4 ULP (Σ|terms| is the output: every term is positive).
  struct SoftmaxCase {
    Shape x;
    int64_t axis, legacy;
  };
  for (const SoftmaxCase& c : {SoftmaxCase{{2, 4, 32, 32}, -1, 0}, SoftmaxCase{{3, 7, 5}, 1, 0},
                               SoftmaxCase{{2, 3, 9}, 1, 1}, SoftmaxCase{{1, 1}, 0, 0}, SoftmaxCase{{5, 1000}, 1, 0}}) {
    runtime::SoftmaxAttrs a;
    a.axis = c.axis, a.legacy = c.legacy;
    const Tensor x = randomTensor(c.x, 3);
    const Tensor want = reference(OpKind::kSoftmax, a, {&x});
    for (auto& jit : testing::hostJits()) {
      auto p = softmaxPlan(a, c.x, jitCpuShape(*jit));
      ASSERT_TRUE(p.has_value());
      expectClose(generated(*jit, *p, {&x}, want.shape(), nullptr), want, want,
                  "softmax " + support::shapeStr(c.x) + " axis " + std::to_string(c.axis));
    }
  }
  // LayerNormalization: Σ|terms| = |scale| (|x| + |mean|) inv + |bias|, the statistics in double.
  for (const Shape& shape : {Shape{2, 32, 128}, Shape{3, 7}, Shape{1, 1, 5}}) {
    runtime::NormAttrs a;
    a.axis = -1;
    const int64_t inner = shape.back(), outer = support::shapeElements(shape) / inner;
    const Tensor x = randomTensor(shape, 4), scale = randomTensor({inner}, 5), bias = randomTensor({inner}, 6);
    const Tensor want = reference(OpKind::kLayerNormalization, a, {&x, &scale, &bias});
    Tensor terms(support::DType::kFloat32, shape);
    for (int64_t o = 0; o < outer; ++o) {
      double mean = 0, var = 0;
      for (int64_t j = 0; j < inner; ++j) mean += x.data<float>()[o * inner + j];
      mean /= static_cast<double>(inner);
      for (int64_t j = 0; j < inner; ++j) var += std::pow(x.data<float>()[o * inner + j] - mean, 2);
      const double inv = 1.0 / std::sqrt(var / static_cast<double>(inner) + a.epsilon);
      for (int64_t j = 0; j < inner; ++j)
        terms.data<float>()[o * inner + j] = static_cast<float>(
            std::fabs(scale.data<float>()[j]) * (std::fabs(x.data<float>()[o * inner + j]) + std::fabs(mean)) * inv +
            std::fabs(bias.data<float>()[j]));
    }
    for (auto& jit : testing::hostJits()) {
      auto p = layerNormPlan(a, shape, true, jitCpuShape(*jit));
      ASSERT_TRUE(p.has_value());
      expectClose(generated(*jit, *p, {&x, &scale, &bias}, want.shape(), nullptr), want, terms,
                  "layernorm " + support::shapeStr(shape));
    }
  }
  // ReduceMean: Σ|terms| is the mean of |x|.
  struct MeanCase {
    Shape x;
    runtime::Ints axes;
    int64_t keepdims;
  };
  for (const MeanCase& c : {MeanCase{{2, 16, 7, 7}, {2, 3}, 1}, MeanCase{{4, 9, 33}, {-1}, 0}, MeanCase{{3, 5, 6}, {0, 2}, 1},
                            MeanCase{{6, 10}, {}, 0}}) {
    runtime::ReduceAttrs a;
    a.axes = c.axes, a.keepdims = c.keepdims;
    check(OpKind::kReduceMean, a, {c.x}, [&](const CpuShape& cpu) { return reduceMeanPlan(a, c.x, cpu); },
          "reducemean " + support::shapeStr(c.x));
  }
}

}  // namespace
}  // namespace accelc::compiler::host
