// tests/host/int_kernels_test.cc — the generated kernels of the integer ops,
// QuantizeLinear, DequantizeLinear and the copies against the runtime's
// reference kernels, bit for bit, over grids of shapes and attributes (odd
// sizes, sizes that do not divide the vector, 1-element dimensions, every
// attribute case); each with AVX-512 off, and on where this CPU has it, on
// one thread and on a pool of three. The integer arithmetic the kernels are
// built from (AddSat, Mulq, Shrr, the conversions) is checked on its own
// against isa/arith.h at the values where it saturates, wraps or rounds.
#include "compiler/host/int_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <tuple>

#include "compiler/host/compiled_kernel.h"
#include "compiler/host/nn_kernels.h"
#include "compiler/host/step_kernels.h"
#include "isa/arith.h"
#include "runtime/ops.h"
#include "tests/host/jit_util.h"

namespace accelc::compiler::host {
namespace {

using runtime::OpKind;
using runtime::Shape;
using runtime::Tensor;
using support::DType;

/// Random values of `t`: int8 and uint8 over their whole range, int32 in [lo, hi], float32 in [-4, 4).
Tensor randomTensor(DType t, const Shape& s, uint64_t seed, int64_t lo = -1000, int64_t hi = 1000) {
  Tensor x(t, s);
  std::mt19937_64 g(seed);
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (t == DType::kFloat32) x.data<float>()[i] = std::uniform_real_distribution<float>(-4.0f, 4.0f)(g);
    else if (t == DType::kInt32) x.data<int32_t>()[i] = static_cast<int32_t>(std::uniform_int_distribution<int64_t>(lo, hi)(g));
    else x.bytes()[static_cast<size_t>(i)] = static_cast<uint8_t>(g());
  }
  return x;
}

std::vector<Tensor> reference(OpKind k, const runtime::Attrs& attrs, const std::vector<const Tensor*>& in,
                              size_t outputs = 1) {
  std::vector<Tensor> out(outputs);
  support::Status st = runtime::runOp(k, attrs, in, out, support::Location());
  EXPECT_TRUE(st.isOk()) << st.str();
  return out;
}

/// Runs `plan` with the present inputs `in` into tensors like `want`.
std::vector<Tensor> generated(HostJit& jit, const KernelPlan& plan, const std::vector<const Tensor*>& in,
                              const std::vector<Tensor>& want, support::ThreadPool* pool) {
  auto k = CompiledKernel::compile(jit, plan.kernel, plan.schedule, "test");
  EXPECT_TRUE(k.isOk()) << k.status().str();
  std::vector<Tensor> out;
  for (const Tensor& w : want) out.emplace_back(w.dtype(), w.shape());
  if (!k) return out;
  std::vector<void*> io;
  for (const Tensor* t : in)
    if (t) io.push_back(const_cast<uint8_t*>(t->bytes().data()));
  for (Tensor& t : out) io.push_back(t.bytes().data());
  io.resize(k->buffers().size(), nullptr);
  k->run(io, pool);
  return out;
}

/// Counts the elements whose bits differ from the reference's; the first few are reported.
void expectSame(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.numel(), want.numel()) << what;
  const int eb = support::dtypeBytes(want.dtype());
  int bad = 0;
  for (int64_t i = 0; i < want.numel(); ++i)
    if (std::memcmp(&got.bytes()[static_cast<size_t>(i * eb)], &want.bytes()[static_cast<size_t>(i * eb)], static_cast<size_t>(eb)) &&
        bad++ < 3)
      ADD_FAILURE() << what << ": element " << i << " is " << got.at(i) << ", the reference " << want.at(i);
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << want.numel() << " elements differ";
}

/// Checks a plan against the reference on `in`, on every JIT, with and
/// without a pool; where the plan has `products`, in each of their forms the
/// JIT's CPU can run. A plan of `outputs` outputs is checked on each.
void check(OpKind op, const runtime::Attrs& attrs, const std::vector<Tensor>& in,
           const std::function<std::optional<KernelPlan>(const CpuShape&)>& plan, const std::string& what,
           size_t outputs = 1, bool products = true) {
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : in) ptrs.push_back(&t);
  const std::vector<Tensor> want = reference(op, attrs, ptrs, outputs);
  support::ThreadPool pool(3);
  for (auto& jit : testing::hostJits()) {
    // Each form of the products the JIT's CPU can run: on AMX tiles, over words with vpdpbusd, over words with
    // vpmaddwd in its place, and in int32 lanes.
    const CpuShape own = jitCpuShape(*jit);
    std::vector<CpuShape> shapes = {own};
    if (products && own.amx) shapes.push_back(CpuShape{own.vectorWidth, own.registers, true, own.pmaddwd, false});
    if (products && own.vnni) shapes.push_back(CpuShape{own.vectorWidth, own.registers, false, own.pmaddwd});
    if (products && own.pmaddwd) shapes.push_back(CpuShape{own.vectorWidth, own.registers, false, false});
    for (const CpuShape& cpu : shapes) {
      std::optional<KernelPlan> p = plan(cpu);
      ASSERT_TRUE(p.has_value()) << what << ": no kernel";
      const std::string tag = what + (jit->usesAvx512() ? " avx512" : " avx2") + (cpu.vnni ? " vnni" : "") +
                              (!cpu.vnni && cpu.pmaddwd ? " pmaddwd" : "") + (cpu.amx ? " amx" : "");
      const std::vector<Tensor> one = generated(*jit, *p, ptrs, want, nullptr), three = generated(*jit, *p, ptrs, want, &pool);
      for (size_t i = 0; i < want.size(); ++i) {
        const std::string part = want.size() > 1 ? " output " + std::to_string(i) : "";
        expectSame(one[i], want[i], tag + part);
        expectSame(three[i], want[i], tag + part + " 3 threads");
      }
    }
  }
}

/// One int32 stage y[i][j] over `rows` x `n` elements, vectorized along j, reading int32 inputs of the
/// given names and element counts: `value` builds its expression from their buffers.
KernelPlan int32Stage(const std::string& name, int64_t rows, int64_t n,
                      const std::vector<std::pair<std::string, int64_t>>& inputs,
                      const std::function<void(LoopExpr&, const std::vector<int>&)>& value, const CpuShape& cpu) {
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = name;
  std::vector<int> in;
  for (const auto& [buffer, elements] : inputs)
    in.push_back(k.addBuffer(buffer, elements, LoopBuffer::Role::kInput, DType::kInt32));
  const int y = k.addBuffer("y", rows * n, LoopBuffer::Role::kOutput, DType::kInt32);
  LoopStage s;
  s.name = name;
  s.axes = {{"i", rows}, {"j", n}};
  s.out = y, s.outAt.coef = {n, 1};
  value(s.value, in);
  k.stages.push_back(s);
  StageSchedule sc = StageSchedule::identity(s);
  sc.vector = sc.split(1, cpu.vectorWidth), sc.vectorWidth = cpu.vectorWidth;
  p.schedule.stages.push_back(sc);
  return p;
}

/// An index of the stage's (i, j): i·ci + j·cj.
Affine at(int64_t ci, int64_t cj) {
  Affine e;
  e.coef = {ci, cj};
  return e;
}

/// One int32 stage y[i][j] = f(a[j], b) over `rows` x `n` elements, for the arithmetic checks: b is b[j]
/// (`splatB` false, one row), or b[i], the same in every lane of a vector (a splat, as a per-channel
/// multiplier is).
KernelPlan arithKernel(EwOp op, int64_t rows, int64_t n, bool splatB, const CpuShape& cpu) {
  return int32Stage(
      "arith", rows, n, {{"a", n}, {"b", splatB ? rows : n}},
      [&](LoopExpr& e, const std::vector<int>& in) {
        e.op(op, e.load(in[0], at(0, 1)), e.load(in[1], splatB ? at(1, 0) : at(0, 1)));
      },
      cpu);
}

TEST(IntKernels, TheIntegerArithmeticIsIsaArithsAtItsEdges) {
  const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  const std::vector<int32_t> values = {0, 1, -1, 2, -2, 3, 127, -128, 255, 1 << 30, -(1 << 30), (1 << 30) + 1,
                                       hi, lo, hi - 1, lo + 1, 12345678, -12345678, 5, -5, 31, 32, 33, -31};
  std::vector<int32_t> as, bs;
  for (int32_t a : values)
    for (int32_t b : values) as.push_back(a), bs.push_back(b);
  const int64_t n = static_cast<int64_t>(as.size());
  const Tensor ta = Tensor::of<int32_t>({n}, as), tb = Tensor::of<int32_t>({n}, bs);
  const std::pair<EwOp, int32_t (*)(int32_t, int32_t)> ops[] = {
      {EwOp::kAddSat, isa::arith::addSat},
      {EwOp::kMulq, isa::arith::mulq},
      {EwOp::kShrr, [](int32_t a, int32_t b) { return isa::arith::shrRoundAway(a, b); }},
      {EwOp::kAdd, isa::arith::gemmAccumulate},
      {EwOp::kMul, isa::arith::mulWrap},
      {EwOp::kXor, [](int32_t a, int32_t b) { return a ^ b; }},
      {EwOp::kDot4,
       [](int32_t a, int32_t b) {  // vpdpbusd's 4-byte dot product: unsigned bytes of a, signed of b
         int32_t sum = 0;
         for (int t = 0; t < 4; ++t)
           sum += static_cast<int32_t>((static_cast<uint32_t>(a) >> (8 * t)) & 0xff) *
                  static_cast<int8_t>(static_cast<uint32_t>(b) >> (8 * t));
         return sum;
       }},
      {EwOp::kAnd, [](int32_t a, int32_t b) { return a & b; }},
      {EwOp::kDot2,
       [](int32_t a, int32_t b) {  // vpmaddwd's pair product: signed halves, the sum wrapping
         int64_t sum = 0;
         for (int t = 0; t < 2; ++t)
           sum += int64_t{static_cast<int16_t>(static_cast<uint32_t>(a) >> (16 * t))} *
                  static_cast<int16_t>(static_cast<uint32_t>(b) >> (16 * t));
         return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
       }},
      {EwOp::kDot4S, [](int32_t a, int32_t b) {  // tdpbssd's 4-byte dot product: signed bytes of both
         int32_t sum = 0;
         for (int t = 0; t < 4; ++t)
           sum += static_cast<int8_t>(static_cast<uint32_t>(a) >> (8 * t)) *
                  static_cast<int8_t>(static_cast<uint32_t>(b) >> (8 * t));
         return sum;
       }}};
  for (const auto& [op, f] : ops) {
    std::vector<int32_t> want;
    for (int64_t i = 0; i < n; ++i) want.push_back(f(as[static_cast<size_t>(i)], bs[static_cast<size_t>(i)]));
    for (auto& jit : testing::hostJits()) {
      const Tensor got = generated(*jit, arithKernel(op, 1, n, false, jitCpuShape(*jit)), {&ta, &tb},
                                   {Tensor::of<int32_t>({n}, want)}, nullptr)[0];
      expectSame(got, Tensor::of<int32_t>({n}, want), std::string(ewOpName(op)) + (jit->usesAvx512() ? " avx512" : ""));
    }
  }
  // mulq of a splat (its own odd-lane form) against every value, INT32_MIN squared among them.
  const int64_t nv = static_cast<int64_t>(values.size());
  const Tensor tv = Tensor::of<int32_t>({nv}, values);
  std::vector<int32_t> want;
  for (int32_t b : values)
    for (int32_t a : values) want.push_back(isa::arith::mulq(a, b));
  for (auto& jit : testing::hostJits()) {
    const Tensor wantT = Tensor::of<int32_t>({nv * nv}, want);
    const Tensor got =
        generated(*jit, arithKernel(EwOp::kMulq, nv, nv, true, jitCpuShape(*jit)), {&tv, &tv}, {wantT}, nullptr)[0];
    expectSame(got, wantT, std::string("Mulq of a splat") + (jit->usesAvx512() ? " avx512" : ""));
  }
}

/// y[i][j] = Shrr(Mulq(x[i][j], m), n), a requantization's two steps: m and n are m[i] and n[i], splat
/// across a vector as per-channel parameters are (`splat`), or m[i][j] and n[i][j].
KernelPlan requantizationKernel(int64_t rows, int64_t n, bool splat, const CpuShape& cpu) {
  const int64_t params = splat ? rows : rows * n;
  return int32Stage(
      "requantization", rows, n, {{"x", rows * n}, {"m", params}, {"n", params}},
      [&](LoopExpr& e, const std::vector<int>& in) {
        const Affine per = splat ? at(1, 0) : at(n, 1);
        e.op(EwOp::kShrr, e.op(EwOp::kMulq, e.load(in[0], at(n, 1)), e.load(in[1], per)), e.load(in[2], per));
      },
      cpu);
}

// The generated code computes shrr(mulq(x, m), n) from a float estimate where that decides the
// rounding (compiler/host/ir_ops.cc): it must give isa/arith.h's bits on exact ties of either rounding,
// next to them, at every shift (clamped ones too), and for multipliers of every size and sign.
TEST(IntKernels, ARequantizationsFloatEstimateKeepsIsaArithsBits) {
  std::mt19937 g(7);
  const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  const int64_t width = 16;
  std::vector<int32_t> xs, ms, ns;
  auto row = [&](int32_t m, int32_t n, const std::function<int32_t(int64_t)>& x) {
    for (int64_t j = 0; j < width; ++j) xs.push_back(x(j)), ms.push_back(m), ns.push_back(n);
  };
  std::uniform_int_distribution<int32_t> any(lo, hi), q31(1 << 30, hi);
  for (int32_t n = -2; n <= 33; ++n) {
    // m = 2^30 makes mulq(x, m) = floor((x + 1)/2): x = 2q - 1 and 2q give q, and q = (2k + 1)·2^(n-1)
    // is a tie of shrr; one below and above it are not.
    const int32_t sh = std::clamp(n, 0, 31);
    for (int32_t k = -4; k < 4; ++k) {
      const int64_t tie = sh ? (2 * int64_t{k} + 1) * (int64_t{1} << (sh - 1)) : k;
      for (int32_t sign : {1, -1})  // m = -2^30 gives -q from -x
        row(sign * (1 << 30), n, [&](int64_t j) {
          const int64_t q = tie + (j % 4) - 1;
          return static_cast<int32_t>(std::clamp<int64_t>(sign * (2 * q - (j / 4) % 2), lo, hi));
        });
    }
    for (int r = 0; r < 8; ++r) {  // requantization-sized sums, and any int32
      const int32_t m = q31(g);
      std::uniform_int_distribution<int32_t> sums(-(1 << (10 + 2 * r)), 1 << (10 + 2 * r));
      row(m, n, [&](int64_t) { return r < 7 ? sums(g) : any(g); });
    }
    for (int32_t m : {lo, hi, -(1 << 30), 1, -1, 0, 12345, q31(g) / 4}) row(m, n, [&](int64_t) { return any(g); });
    row(lo, n, [&](int64_t j) { return j % 2 ? lo : hi; });  // INT32_MIN squared saturates
  }
  const int64_t rows = static_cast<int64_t>(xs.size()) / width, all = rows * width;
  // Per lane, the same triples in another order: element i takes triple (i·7) mod all (7 does not divide
  // all), so that each vector mixes multipliers and shifts (a shift of 0 beside one of 10).
  ASSERT_NE(all % 7, 0);
  std::vector<int32_t> lx, lm, ln;
  for (int64_t i = 0; i < all; ++i) {
    const size_t from = static_cast<size_t>(i * 7 % all);
    lx.push_back(xs[from]), lm.push_back(ms[from]), ln.push_back(ns[from]);
  }
  auto expected = [](const std::vector<int32_t>& x, const std::vector<int32_t>& m, const std::vector<int32_t>& n) {
    std::vector<int32_t> y;
    for (size_t i = 0; i < x.size(); ++i) y.push_back(isa::arith::shrRoundAway(isa::arith::mulq(x[i], m[i]), n[i]));
    return Tensor::of<int32_t>({static_cast<int64_t>(x.size())}, y);
  };
  std::vector<int32_t> perRowM, perRowN;
  for (int64_t i = 0; i < rows; ++i)
    perRowM.push_back(ms[static_cast<size_t>(i * width)]), perRowN.push_back(ns[static_cast<size_t>(i * width)]);
  const Tensor tx = Tensor::of<int32_t>({all}, xs), rowM = Tensor::of<int32_t>({rows}, perRowM),
               rowN = Tensor::of<int32_t>({rows}, perRowN), wantRows = expected(xs, ms, ns);
  const Tensor lanesX = Tensor::of<int32_t>({all}, lx), lanesM = Tensor::of<int32_t>({all}, lm),
               lanesN = Tensor::of<int32_t>({all}, ln), wantLanes = expected(lx, lm, ln);
  for (auto& jit : testing::hostJits()) {
    const std::string tag = jit->usesAvx512() ? " avx512" : " avx2";
    const CpuShape cpu = jitCpuShape(*jit);
    expectSame(
        generated(*jit, requantizationKernel(rows, width, true, cpu), {&tx, &rowM, &rowN}, {wantRows}, nullptr)[0],
        wantRows, "per-row multipliers" + tag);
    expectSame(generated(*jit, requantizationKernel(rows, width, false, cpu), {&lanesX, &lanesM, &lanesN}, {wantLanes},
                         nullptr)[0],
               wantLanes, "per-lane multipliers" + tag);
  }
}

TEST(IntKernels, QConvAndQGemmAreTheReferenceBitForBit) {
  struct Case {
    Shape x, w;
    runtime::Ints strides, pads;
    int64_t group, padValue, zeroPoint, lo, hi;
    int64_t biasLo, biasHi;  ///< the bias range: the widest makes the accumulation wrap
  };
  const int64_t big = std::numeric_limits<int32_t>::max();
  const Case cases[] = {
      {{1, 3, 9, 11}, {5, 3, 3, 3}, {}, {1, 1, 1, 1}, 1, -3, 4, -128, 127, -5000, 5000},      // dense, padded, odd
      {{2, 8, 14, 14}, {16, 8, 3, 3}, {2, 2}, {1, 1, 1, 1}, 1, 0, -7, -7, 127, -5000, 5000},  // stride 2, ReLU clamp
      {{1, 32, 5, 5}, {13, 32, 1, 1}, {}, {}, 1, 0, 0, -128, 127, -big, big},                 // 1x1 in place, wrapping
      {{1, 6, 10, 10}, {8, 3, 3, 3}, {}, {0, 1, 2, 0}, 2, 9, 1, -100, 100, -5000, 5000},      // grouped, uneven pads
      {{1, 8, 12, 12}, {8, 1, 3, 3}, {}, {1, 1, 1, 1}, 8, -128, 3, -128, 127, -5000, 5000},   // depthwise
      {{1, 8, 15, 15}, {8, 1, 5, 5}, {2, 2}, {2, 2, 2, 2}, 8, 5, 0, 0, 6, -5000, 5000},  // depthwise 5x5 s2, ReLU6-like
      {{1, 1, 1, 1}, {1, 1, 1, 1}, {}, {}, 1, 0, 0, -128, 127, -5000, 5000},             // one element
      {{1, 64, 14, 14}, {64, 64, 3, 3}, {}, {1, 1, 1, 1}, 1, 0, -2, -128, 127, -50000, 50000},  // a ResNet layer
      {{2, 10, 11, 7}, {16, 10, 1, 1}, {}, {}, 1, 0, 3, -128, 127, -5000, 5000},                // 1x1, pixels in rows
      {{1, 6, 9, 13}, {24, 6, 3, 2}, {2, 1}, {0, 1, 2, 0}, 1, 4, -1, -128, 127, -5000, 5000},   // rows: stride, uneven
      // groups of 4 channels (words packed from the windows with VNNI), uneven pads filled with pad_value
      {{2, 8, 9, 9}, {6, 4, 3, 3}, {1, 2}, {2, 0, 1, 1}, 2, -9, 5, -128, 127, -5000, 5000},
      // depthwise over words with VNNI: lanes 1 (a channel multiplier of 2, rows of 37), 2 and 3 bytes apart
      // (strides 2 and 3, uneven pads), 5 apart (gathered), 7x7 kernels (two words a row) with a wrapping bias,
      // rows of 6 (masked lanes) and of 3 (too narrow for vpdpbusd)
      {{1, 4, 9, 37}, {8, 1, 3, 3}, {}, {1, 1, 1, 1}, 4, 2, -3, -128, 127, -5000, 5000},
      {{2, 5, 20, 40}, {5, 1, 3, 3}, {2, 2}, {0, 1, 1, 0}, 5, -1, 0, -128, 127, -5000, 5000},
      {{1, 2, 9, 60}, {2, 1, 3, 3}, {1, 3}, {1, 1, 1, 1}, 2, 7, 2, -20, 127, -5000, 5000},
      {{1, 3, 16, 90}, {3, 1, 3, 3}, {1, 5}, {1, 1, 1, 1}, 3, 0, 0, -128, 127, -5000, 5000},
      {{1, 6, 12, 20}, {6, 1, 7, 7}, {}, {3, 3, 3, 3}, 6, -5, 1, -128, 127, -big, big},
      {{1, 3, 6, 6}, {3, 1, 3, 3}, {}, {1, 1, 1, 1}, 3, 4, 0, -128, 127, -5000, 5000},
      {{1, 3, 5, 3}, {3, 1, 3, 3}, {}, {1, 1, 1, 1}, 3, 4, 0, -128, 127, -5000, 5000},
      // depthwise over pairs of taps without VNNI (stride 1 along the rows, an image that stays in cache): 5 wide
      // by 3 high, whose last word's high half lies past the padding, with a wrapping bias; stride 2 down the
      // columns only; and 64 channels at 44x44, whose 529 KiB of pairs take the words of four bytes instead
      {{2, 3, 8, 9}, {6, 1, 3, 5}, {}, {1, 2, 1, 2}, 3, 3, -4, -128, 127, -big, big},
      {{1, 5, 11, 9}, {5, 1, 3, 3}, {2, 1}, {1, 1, 1, 1}, 5, -6, 2, -128, 127, -5000, 5000},
      {{1, 64, 44, 44}, {64, 1, 3, 3}, {}, {1, 1, 1, 1}, 64, 1, -1, -128, 127, -5000, 5000},
      // windows that stop short of the image's last row and column: only the rows they reach are copied
      {{1, 4, 10, 9}, {4, 1, 3, 3}, {2, 1}, {0, 1, 0, 0}, 4, 3, 1, -128, 127, -5000, 5000},
      // 28x28 and more at stride 1, read in place from padded images of channel pairs (x86 without VNNI):
      // uneven pads, two images; a 5x5 kernel, whose last windows reach past the last image
      {{2, 6, 29, 30}, {7, 6, 3, 3}, {}, {0, 1, 2, 0}, 1, -9, 3, -128, 127, -5000, 5000},
      {{1, 4, 30, 28}, {5, 4, 5, 5}, {}, {2, 2, 2, 2}, 1, 6, -2, -128, 127, -big, big},
      // 16 output channels and pixels or more, on AMX tiles where the CPU has them: two groups of 20 channels
      // from words of x's windows over 9x9 (81 pixels, padded to 96); 3 input channels (27 bytes of k, one
      // tile of depth); 1x1 in place with 33 channels and a wrapping bias
      {{1, 32, 9, 9}, {40, 16, 3, 3}, {}, {1, 1, 1, 1}, 2, -2, 1, -128, 127, -5000, 5000},
      {{2, 3, 12, 10}, {17, 3, 3, 3}, {2, 1}, {1, 0, 1, 2}, 1, 5, -3, -128, 127, -5000, 5000},
      {{1, 33, 6, 6}, {48, 33, 1, 1}, {}, {}, 1, 0, 2, -128, 127, -big, big},
      // stride 1 over blocks of 64 channels, read in place from an image of words: two images with uneven
      // pads and 20 output channels (a tile and a part); 1x1 over two blocks; 5x5 reaching past the image
      {{2, 64, 7, 9}, {20, 64, 3, 3}, {}, {0, 1, 2, 1}, 1, -5, 2, -128, 127, -5000, 5000},
      {{1, 128, 5, 5}, {48, 128, 1, 1}, {}, {}, 1, 0, -1, -128, 127, -big, big},
      {{1, 64, 6, 5}, {32, 64, 5, 5}, {}, {2, 2, 2, 2}, 1, 7, 0, -128, 127, -5000, 5000},
      // whole tiles of output channels, the epilogue on the tiles: over an 8x8 image from words of x's windows,
      // writing y itself (64 columns, no padding); two images of two groups of 16; two images read in place
      {{1, 16, 8, 8}, {32, 16, 3, 3}, {}, {1, 1, 1, 1}, 1, -1, 4, -128, 127, -big, big},
      {{2, 32, 9, 9}, {32, 16, 3, 3}, {}, {1, 1, 1, 1}, 2, 3, -2, -128, 127, -5000, 5000},
      {{2, 64, 7, 9}, {32, 64, 3, 3}, {}, {0, 1, 2, 1}, 1, -4, 1, -128, 127, -big, big},
      // two depth blocks: blocks of 2 x 2 tiles, the columns (6 rows of 9 over the padded width 9) padded to 64;
      // rows wider than a tile (20 over the padded width 20, 18 kept)
      {{1, 128, 6, 7}, {32, 128, 3, 3}, {}, {1, 1, 1, 1}, 1, 2, -1, -128, 127, -5000, 5000},
      {{1, 64, 20, 18}, {32, 64, 3, 3}, {}, {1, 1, 1, 1}, 1, -3, 2, -128, 127, -5000, 5000},
      // depthwise over 14 rows (7 unrolled) of 13 columns
      {{1, 16, 14, 13}, {16, 1, 3, 3}, {}, {1, 1, 1, 1}, 16, 2, -1, -128, 127, -5000, 5000},
  };
  uint64_t seed = 1;
  for (const Case& c : cases) {
    runtime::QConvAttrs a;
    a.strides = c.strides, a.pads = c.pads, a.group = c.group, a.padValue = c.padValue, a.zeroPoint = c.zeroPoint;
    a.lo = c.lo, a.hi = c.hi;
    const int64_t m = c.w[0];
    std::vector<Tensor> in = {randomTensor(DType::kInt8, c.x, seed++), randomTensor(DType::kInt8, c.w, seed++),
                              randomTensor(DType::kInt32, {m}, seed++, c.biasLo, c.biasHi),
                              randomTensor(DType::kInt32, {m}, seed++, 1 << 29, big),  // Q31 multipliers
                              randomTensor(DType::kInt32, {m}, seed++, -2, 40)};       // shifts, clamped to [0, 31]
    const std::string what = "QConv x" + support::shapeStr(c.x) + " w" + support::shapeStr(c.w);
    // Dense ones with constant weights too (a small image's pixels then go in rows where the words are pairs).
    for (const bool constW : {false, true})
      if (!constW || c.group == 1)
        check(OpKind::kQConv, a, in,
            [&](const CpuShape& cpu) { return qconvPlan(OpKind::kQConv, a, c.x, c.w, cpu, constW); },
            what + (constW ? " constant weights" : ""));
  }
  for (const auto& [n, m, k] : {std::tuple<int64_t, int64_t, int64_t>{1, 1000, 512},
                                {3, 17, 33},
                                {5, 1, 1},
                                {8, 64, 300},
                                {20, 33, 70},
                                {48, 32, 256},
                                {64, 32, 100}}) {
    runtime::QConvAttrs a;
    a.zeroPoint = -1;
    std::vector<Tensor> in = {randomTensor(DType::kInt8, {n, k}, seed++), randomTensor(DType::kInt8, {m, k}, seed++),
                              randomTensor(DType::kInt32, {m}, seed++), randomTensor(DType::kInt32, {m}, seed++, 1 << 29, big),
                              randomTensor(DType::kInt32, {m}, seed++, 0, 31)};
    const std::string what = "QGemm " + std::to_string(n) + "x" + std::to_string(m) + "x" + std::to_string(k);
    check(OpKind::kQGemm, a, in, [&](const CpuShape& cpu) { return qconvPlan(OpKind::kQGemm, a, {n, k}, {m, k}, cpu); }, what);
  }
  // A ResNet layer at 14x14 with constant weights: pixels in rows over words of four with VNNI at 16 lanes and
  // without AMX (its offset summed once), pixels in lanes at 8 lanes and with AMX's tiles.
  auto rows = [](const CpuShape& cpu) {
    const std::optional<KernelPlan> p =
        qconvPlan(OpKind::kQConv, runtime::QConvAttrs{}, {1, 64, 14, 14}, {64, 64, 3, 3}, cpu, true);
    return p && std::any_of(p->kernel.stages.begin(), p->kernel.stages.end(),
                            [](const LoopStage& s) { return s.name == "window_rows"; });
  };
  EXPECT_TRUE(rows(CpuShape{16, 32, true, true, false}));
  EXPECT_FALSE(rows(CpuShape{8, 16, true, true, false}));
  EXPECT_FALSE(rows(CpuShape{16, 32, true, true, true}));
}

TEST(IntKernels, AnEpilogueOnAmxTilesLoadsPerRowOrAlongTheColumns) {
  // QGemm 64x32x100 on tiles: whole tiles of rows and of output channels, so the epilogue runs on the tiles
  // and writes y itself; its per-channel loads move along the columns.
  const CpuShape amx{16, 32, true, false, true};
  std::optional<KernelPlan> p = qconvPlan(OpKind::kQGemm, runtime::QConvAttrs{}, {64, 100}, {32, 100}, amx, true);
  ASSERT_TRUE(p.has_value());
  const auto at = std::find_if(p->schedule.stages.begin(), p->schedule.stages.end(),
                               [](const StageSchedule& sc) { return sc.amx; });
  ASSERT_NE(at, p->schedule.stages.end());
  const size_t i = static_cast<size_t>(at - p->schedule.stages.begin());
  EXPECT_EQ(i + 1, p->kernel.stages.size());
  LoopStage s = p->kernel.stages[i];
  auto t = tileProduct(p->kernel, s, *at, "m.onnx");
  ASSERT_TRUE(t.isOk()) << t.status().str();
  EXPECT_TRUE(t->epilogue);
  EXPECT_EQ(p->kernel.buffers[static_cast<size_t>(s.out)].name, "y");
  // A load of the epilogue that moved along the depth is refused.
  for (LoopNode& n : s.epilogue.nodes)
    if (n.kind == LoopNode::Kind::kLoad) {
      n.at.coef.resize(3, 0);
      n.at.coef[2] = 1;
      break;
    }
  auto bad = tileProduct(p->kernel, s, *at, "m.onnx");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().str(),
            "m.onnx:product: error: AMX tiles cannot compute this stage: its epilogue's loads must move with the "
            "rows, or along the columns one value a column");
  // A convolution's tiles: rows of output channels, whose per-channel loads move with the rows.
  runtime::QConvAttrs c;
  c.pads = {1, 1, 1, 1};
  std::optional<KernelPlan> conv = qconvPlan(OpKind::kQConv, c, {1, 64, 7, 9}, {32, 64, 3, 3}, amx, true);
  ASSERT_TRUE(conv.has_value());
  for (size_t j = 0; j < conv->kernel.stages.size(); ++j) {
    if (!conv->schedule.stages[j].amx) continue;
    auto ct = tileProduct(conv->kernel, conv->kernel.stages[j], conv->schedule.stages[j], "m.onnx");
    ASSERT_TRUE(ct.isOk()) << ct.status().str();
    EXPECT_TRUE(ct->epilogue);
    for (const LoopNode& n : conv->kernel.stages[j].epilogue.nodes)
      if (n.kind == LoopNode::Kind::kLoad) {
        EXPECT_EQ(n.at.coefOf(static_cast<size_t>(ct->i)), 1);
        EXPECT_EQ(n.at.coefOf(static_cast<size_t>(ct->j)), 0);
      }
    // It writes y itself, its columns (7 rows over the padded width 11) wrapping at 11, 9 of each kept.
    LoopStage& ps = conv->kernel.stages[j];
    EXPECT_EQ(conv->kernel.buffers[static_cast<size_t>(ps.out)].name, "y");
    EXPECT_EQ(ct->wrap.axis, ct->j);
    EXPECT_EQ(ct->wrap.wrap, 11);
    EXPECT_EQ(ct->wrap.keep, 9);
    EXPECT_EQ(ct->wrap.rows, 7);
    EXPECT_TRUE(conv->kernel.validate("m.onnx").isOk());
    ps.outWrap.rows = 8;  // a row more than y holds
    support::Status st = conv->kernel.validate("m.onnx");
    ASSERT_FALSE(st.isOk());
    EXPECT_NE(st.str().find("writes elements 0 to 2018 of 'y', which holds 2016"), std::string::npos) << st.str();
    ps.outWrap.rows = 7;
    StageSchedule plain = conv->schedule.stages[j];
    plain.amx = false;
    st = plain.validate(ps, "m.onnx");
    ASSERT_FALSE(st.isOk());
    EXPECT_NE(st.str().find("only AMX tiles write an output that wraps"), std::string::npos) << st.str();
  }
}

TEST(IntKernels, ConstantWeightsArePreparedOnTheFirstRunAndKeptForTheNext) {
  // Two runs of one compiled kernel with the same weights and new activations: the
  // second skips the stages of the weights alone and must still give the reference's bits.
  uint64_t seed = 50;
  struct Case {
    OpKind op;
    Shape x, w;
  };
  for (const Case& c :
       {Case{OpKind::kQConv, {2, 16, 9, 9}, {24, 16, 3, 3}}, Case{OpKind::kQConv, {1, 8, 7, 7}, {8, 1, 3, 3}},
        Case{OpKind::kQGemm, {3, 70}, {33, 70}}, Case{OpKind::kQGemm, {20, 70}, {33, 70}}}) {
    runtime::QConvAttrs a;
    if (c.op == OpKind::kQConv) a.pads = {1, 1, 1, 1}, a.group = c.w[1] == 1 ? c.x[1] : 1;
    const int64_t m = c.w[0];
    const Tensor w = randomTensor(DType::kInt8, c.w, seed++), bias = randomTensor(DType::kInt32, {m}, seed++);
    const Tensor mult = randomTensor(DType::kInt32, {m}, seed++, 1 << 29, 1 << 30), shift = randomTensor(DType::kInt32, {m}, seed++, 5, 12);
    for (auto& jit : testing::hostJits()) {
      std::optional<KernelPlan> p = qconvPlan(c.op, a, c.x, c.w, jitCpuShape(*jit), true);
      ASSERT_TRUE(p.has_value());
      // Every form prepares its weights (packed into words, converted, or transposed) but the dense
      // convolution in int32 lanes, which reads them as they are.
      const bool dense = c.op == OpKind::kQConv && a.group == 1;
      if (jitCpuShape(*jit).wordProducts() || !dense) {
        // A constant stage that reads w (buffer 1, after x): a depthwise image's padding is constant too.
        auto weightsOnce = [](const LoopStage& s) {
          return s.constant && std::any_of(s.value.nodes.begin(), s.value.nodes.end(), [](const LoopNode& n) {
                   return n.kind == LoopNode::Kind::kLoad && n.buffer == 1;
                 });
        };
        ASSERT_TRUE(std::any_of(p->kernel.stages.begin(), p->kernel.stages.end(), weightsOnce))
            << "no stage of the weights alone in " << p->kernel.name;
      }
      auto k = CompiledKernel::compile(*jit, p->kernel, p->schedule, "test");
      ASSERT_TRUE(k.isOk()) << k.status().str();
      for (int run = 0; run < 2; ++run) {
        const Tensor x = randomTensor(DType::kInt8, c.x, seed++);
        const Tensor want = reference(c.op, a, {&x, &w, &bias, &mult, &shift})[0];
        Tensor got(DType::kInt8, want.shape());
        std::vector<void*> io;
        for (const Tensor* t : {&x, &w, &bias, &mult, &shift}) io.push_back(const_cast<uint8_t*>(t->bytes().data()));
        io.push_back(got.bytes().data());
        io.resize(k->buffers().size(), nullptr);
        k->run(io, nullptr);
        expectSame(got, want, p->kernel.name + " run " + std::to_string(run + 1));
      }
    }
  }
}

TEST(IntKernels, QAddAndQAveragePoolAreTheReferenceBitForBit) {
  uint64_t seed = 100;
  for (const Shape& s : {Shape{1, 64, 56, 56}, Shape{1, 3, 7, 9}, Shape{1}, Shape{2, 17}}) {
    for (const int64_t shift : {int64_t{0}, int64_t{9}, int64_t{20}, int64_t{40}}) {
      runtime::QAddAttrs a;
      a.zeroA = -3, a.multA = 1518500250, a.zeroB = 7, a.multB = 2147483647, a.shift = shift, a.zeroPoint = 2;
      a.lo = shift == 9 ? 2 : -128;  // a fused ReLU
      const std::vector<Tensor> in = {randomTensor(DType::kInt8, s, seed++), randomTensor(DType::kInt8, s, seed++)};
      check(OpKind::kQAdd, a, in, [&](const CpuShape& cpu) { return qaddPlan(a, s, cpu); },
            "QAdd " + support::shapeStr(s) + " shift " + std::to_string(shift));
    }
  }
  struct Pool {
    Shape x;
    runtime::Ints k, strides;
  };
  for (const Pool& p : {Pool{{1, 512, 7, 7}, {7, 7}, {}}, Pool{{1, 5, 9, 11}, {2, 2}, {2, 2}}, Pool{{2, 3, 10, 10}, {3, 3}, {1, 1}},
                        Pool{{1, 1, 1, 1}, {1, 1}, {}}, Pool{{1, 4, 8, 13}, {3, 2}, {3, 1}}}) {
    runtime::QPoolAttrs a;
    a.kernelShape = p.k, a.strides = p.strides, a.zeroX = -5, a.mult = 1717986918, a.shift = 14, a.zeroPoint = 3;
    const std::vector<Tensor> in = {randomTensor(DType::kInt8, p.x, seed++)};
    check(OpKind::kQAveragePool, a, in, [&](const CpuShape& cpu) { return qavgpoolPlan(a, p.x, cpu); },
          "QAveragePool " + support::shapeStr(p.x));
  }
}

// The integer ops beyond convolutions (runtime/kernels/qelementwise.cc): every int8 value through QClip,
// QHardSigmoid and QHardSwish at ordinary and saturating attributes; QMul under broadcasts (a squeeze-and-
// excitation gate, a row, a scalar, both sides); QConcat rescaling each input (one copied unchanged).
TEST(IntKernels, TheElementwiseIntegerOpsAreTheReferenceBitForBit) {
  uint64_t seed = 700;
  std::vector<int8_t> every;
  for (int v = -128; v < 128; ++v) every.push_back(static_cast<int8_t>(v));
  const std::vector<Tensor> xs = {Tensor::of<int8_t>({256}, every), randomTensor(DType::kInt8, {1, 3, 11, 13}, seed++)};
  struct Rescale {
    OpKind op;
    runtime::QRescaleAttrs a;
  };
  for (const Rescale& r : {Rescale{OpKind::kQClip, {-5, 2147483647, 8, 0, 3, -20, 100}},
                           Rescale{OpKind::kQHardSigmoid, {7, 1518500250, 15, 1 << 20, -128, -128, 127}},
                           Rescale{OpKind::kQHardSigmoid, {0, 2147483647, 31, 2147483647, 127, -128, 127}},
                           Rescale{OpKind::kQClip, {-128, 0, 0, -2147483647 - 1, -7, -128, 127}}})
    for (const Tensor& x : xs)
      check(r.op, r.a, {x}, [&](const CpuShape& cpu) { return qrescalePlan(r.a, x.shape(), cpu); },
            std::string(runtime::opInfo(r.op).name) + " " + support::shapeStr(x.shape()) + " shift " + std::to_string(r.a.shift));
  for (const runtime::QHardSwishAttrs& a : {runtime::QHardSwishAttrs{-3, 1431655765, 3 << 20, 10, 1 << 12, 1073741824, 12, -10, -128, 127},
                                            runtime::QHardSwishAttrs{127, 2147483647, 2147483647, 0, 1 << 23, 2147483647, 31, 127, 0, 127}})
    for (const Tensor& x : xs)
      check(OpKind::kQHardSwish, a, {x}, [&](const CpuShape& cpu) { return qhardswishPlan(a, x.shape(), cpu); },
            "QHardSwish " + support::shapeStr(x.shape()) + " shift " + std::to_string(a.shift));
  struct Mul {
    Shape a, b, out;
  };
  for (const Mul& m : {Mul{{1, 8, 5, 7}, {1, 8, 1, 1}, {1, 8, 5, 7}}, Mul{{2, 3}, {3}, {2, 3}}, Mul{{37}, {1}, {37}},
                       Mul{{1, 1, 5}, {3, 1, 5}, {3, 1, 5}}}) {
    runtime::QMulAttrs a{-3, 5, 1518500250, 7, 1, 1, 127};  // clamped at its zero point, as a fused ReLU
    const std::vector<Tensor> in = {randomTensor(DType::kInt8, m.a, seed++), randomTensor(DType::kInt8, m.b, seed++)};
    check(OpKind::kQMul, a, in, [&](const CpuShape& cpu) { return qmulPlan(a, m.a, m.b, m.out, cpu); },
          "QMul " + support::shapeStr(m.a) + " by " + support::shapeStr(m.b));
  }
  for (const auto& [shapes, axis] : {std::pair<std::vector<Shape>, int64_t>{{{1, 3, 4, 4}, {1, 5, 4, 4}, {1, 1, 4, 4}}, 1},
                                     {{{2, 3}, {2, 1}}, -1}}) {
    runtime::QConcatAttrs a;
    a.axis = axis, a.shift = 7, a.zeroPoint = 2;
    a.zeros = {2, -3, 5}, a.mults = {int64_t{1} << 30, 1518500250, 2147483647};  // the first copied unchanged
    a.zeros.resize(shapes.size()), a.mults.resize(shapes.size());
    std::vector<Tensor> in;
    for (const Shape& sh : shapes) in.push_back(randomTensor(DType::kInt8, sh, seed++));
    check(OpKind::kQConcat, a, in, [&](const CpuShape& cpu) { return qconcatPlan(a, shapes, cpu); },
          "QConcat axis " + std::to_string(axis));
  }
  // QMatMul: Q·Kᵀ's and attention·V's shapes (heads as a batch), a batch broadcast, odd sizes.
  for (const auto& [sa, sb] : {std::pair<Shape, Shape>{{4, 32, 32}, {4, 32, 32}}, {{1, 2, 20, 20}, {1, 2, 20, 20}},
                               {{3, 5, 7}, {7, 9}}, {{2, 1, 3, 17}, {1, 4, 17, 5}}, {{1, 1}, {1, 1}}}) {
    runtime::QMulAttrs a{-3, 5, 1518500250, 11, 1, -128, 127};
    const std::vector<Tensor> in = {randomTensor(DType::kInt8, sa, seed++), randomTensor(DType::kInt8, sb, seed++)};
    check(OpKind::kQMatMul, a, in, [&](const CpuShape& cpu) { return qmatmulPlan(a, sa, sb, cpu); },
          "QMatMul " + support::shapeStr(sa) + " by " + support::shapeStr(sb));
  }
  runtime::QRescaleAttrs bad{0, 1 << 20, 32, 0, 0, -128, 127};  // shift 32: the reference refuses it, naming it
  EXPECT_FALSE(qrescalePlan(bad, {4}, CpuShape{16, 32, false}));
}

TEST(IntKernels, Int8MaxPoolsAreTheReferenceBitForBit) {
  uint64_t seed = 150;
  struct Case {
    Shape x;
    runtime::Ints k, strides, pads;
  };
  for (const DType t : {DType::kInt8, DType::kUint8})
    for (const Case& c : {Case{{1, 64, 112, 112}, {3, 3}, {2, 2}, {1, 1, 1, 1}}, Case{{2, 3, 9, 11}, {2, 2}, {2, 2}, {}},
                          Case{{1, 5, 7, 7}, {3, 2}, {1, 3}, {2, 0, 2, 1}}, Case{{1, 1, 1, 1}, {1, 1}, {}, {}}}) {
      runtime::PoolAttrs a;
      a.kernelShape = c.k, a.strides = c.strides, a.pads = c.pads;
      check(OpKind::kMaxPool, a, {randomTensor(t, c.x, seed++)},
            [&](const CpuShape& cpu) { return poolPlan(OpKind::kMaxPool, a, c.x, cpu, t); },
            std::string("MaxPool ") + support::dtypeName(t) + " " + support::shapeStr(c.x));
    }
}

TEST(IntKernels, Im2colIsTheReferenceBitForBit) {
  struct Case {
    Shape x;
    runtime::Ints k, strides, pads;
    int64_t pad;
  };
  uint64_t seed = 200;
  for (const Case& c :
       {Case{{1, 3, 224, 224}, {7, 7}, {2, 2}, {3, 3, 3, 3}, -128}, Case{{2, 5, 9, 11}, {3, 3}, {}, {1, 1, 1, 1}, 7},
        Case{{1, 2, 8, 8}, {2, 3}, {3, 2}, {0, 1, 2, 0}, 0}, Case{{1, 1, 1, 1}, {1, 1}, {}, {}, 0},
        // Rows of 40 and 24 bytes: vectors of 32 and 16 lanes on AVX2, the last one shifted inwards.
        Case{{1, 2, 20, 40}, {3, 3}, {}, {1, 1, 1, 1}, 5}, Case{{1, 3, 30, 70}, {3, 3}, {3, 3}, {0, 2, 1, 0}, -3},
        // No padding (no bounds), strides that leave rows and columns of the image unread.
        Case{{1, 2, 10, 9}, {3, 2}, {2, 3}, {}, 0},
        // Column strides of 2 to 4 read the padded copy's column planes, whose taps differ in number when the
        // stride does not divide KW; a KW below the stride keeps one plane.
        Case{{1, 2, 13, 17}, {3, 5}, {1, 3}, {1, 2, 0, 1}, 9}, Case{{2, 3, 11, 15}, {2, 4}, {2, 4}, {0, 3, 1, 2}, -5},
        Case{{1, 1, 6, 7}, {1, 2}, {3, 2}, {1, 1, 1, 1}, 3}, Case{{1, 4, 9, 9}, {3, 1}, {2, 2}, {1, 0, 1, 0}, 1},
        Case{{1, 3, 23, 37}, {5, 7}, {2, 2}, {2, 3, 2, 1}, -1}}) {
    runtime::Im2colAttrs a;
    a.kernelShape = c.k, a.strides = c.strides, a.pads = c.pads, a.padValue = c.pad;
    check(OpKind::kIm2col, a, {randomTensor(DType::kInt8, c.x, seed++)},
          [&](const CpuShape& cpu) { return im2colPlan(a, c.x, cpu); }, "Im2col " + support::shapeStr(c.x));
  }
}

/// Float inputs with the values where quantization rounds or saturates: ties, ±0, NaN, ±inf, huge values.
Tensor quantizeInput(const Shape& s, uint64_t seed) {
  Tensor x = randomTensor(DType::kFloat32, s, seed);
  const float edges[] = {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), 1e30f, -1e30f,
                         127.5f, -128.5f, 255.5f, 3.0e-39f};
  for (size_t i = 0; i < std::size(edges) && static_cast<int64_t>(i) < x.numel(); ++i)
    x.data<float>()[i * 3 % static_cast<size_t>(x.numel())] = edges[i];
  return x;
}

TEST(IntKernels, ARowOfBytesMovesWholeRegistersOfBytes) {
  // On x86, ResNet's first Im2col: output rows of 112 bytes take vectors of 4 registers' lanes, a row of 20
  // 16 lanes. NEON's vectors of 4 keep one register's lanes.
  for (const CpuShape cpu : {CpuShape{8, 16}, CpuShape{16, 32}, CpuShape{4, 32}}) {
    const bool x86 = cpu.vectorWidth >= 8;
    runtime::Im2colAttrs a;
    a.kernelShape = {7, 7}, a.strides = {2, 2}, a.pads = {3, 3, 3, 3};
    std::optional<KernelPlan> p = im2colPlan(a, {1, 3, 224, 224}, cpu);
    ASSERT_TRUE(p.has_value());
    ASSERT_EQ(p->schedule.stages.size(), 3u);  // the padded copy, then one stage per column plane
    const StageSchedule& sc = p->schedule.stages[1];
    EXPECT_EQ(sc.vectorWidth, x86 ? 4 * cpu.vectorWidth : 4) << cpu.vectorWidth;
    EXPECT_EQ(sc.registerLanes, x86 ? cpu.vectorWidth : 0);
    a.kernelShape = {3, 3}, a.strides = {1, 1}, a.pads = {1, 1, 1, 1};
    p = im2colPlan(a, {1, 3, 9, 20}, cpu);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->schedule.stages[0].vectorWidth, x86 ? 16 : 4) << cpu.vectorWidth;
  }
  // A float copy keeps one register's lanes.
  runtime::PermAttrs t;
  t.perm = {0, 2, 1};
  std::optional<KernelPlan> f = transposePlan(t, {2, 112, 112}, DType::kFloat32, CpuShape{8, 16});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->schedule.stages[0].vectorWidth, 8);
  EXPECT_EQ(f->schedule.stages[0].registerLanes, 0);
}

TEST(IntKernels, QuantizeAndDequantizeAreTheReferenceBitForBit) {
  uint64_t seed = 300;
  struct Case {
    Shape x;
    int64_t axis;
    bool perAxis;
  };
  for (const Case& c : {Case{{1, 3, 224, 224}, 1, false}, Case{{2, 5, 3, 7}, 1, true}, Case{{4, 9}, -1, true},
                        Case{{1}, 0, false}, Case{{3, 1, 5}, 0, true}}) {
    runtime::AxisAttrs a;
    a.axis = c.axis;
    const int64_t r = static_cast<int64_t>(c.x.size());
    const Shape ps = c.perAxis ? Shape{c.x[static_cast<size_t>(c.axis < 0 ? c.axis + r : c.axis)]} : Shape{};
    Tensor scale(DType::kFloat32, ps);
    for (int64_t i = 0; i < scale.numel(); ++i) scale.data<float>()[i] = 0.013f * static_cast<float>(i + 1) + 0.0071f;
    for (const std::optional<DType> zt : {std::optional<DType>(DType::kInt8), std::optional<DType>(DType::kUint8),
                                          std::optional<DType>()}) {
      const std::string what = support::shapeStr(c.x) + (c.perAxis ? " per axis" : " per tensor") +
                               (zt ? std::string(" ") + support::dtypeName(*zt) : std::string(" no zero point"));
      std::vector<Tensor> in = {quantizeInput(c.x, seed++), scale};
      if (zt) in.push_back(randomTensor(*zt, ps, seed++));
      check(OpKind::kQuantizeLinear, a, in, [&](const CpuShape& cpu) { return quantizePlan(a, c.x, ps, zt, cpu); },
            "QuantizeLinear " + what);
      const DType xt = zt.value_or(DType::kInt8);
      std::vector<Tensor> dq = {randomTensor(xt, c.x, seed++), scale};
      if (zt) dq.push_back(in[2]);
      check(OpKind::kDequantizeLinear, a, dq,
            [&](const CpuShape& cpu) { return dequantizePlan(a, c.x, xt, ps, zt.has_value(), cpu); }, "DequantizeLinear " + what);
    }
  }
}

TEST(IntKernels, QuantizeRoundsTheQuotientAsTheDivisionDoes) {
  // The generated QuantizeLinear estimates x / scale as x·(1/scale) and divides only where that could round
  // otherwise: quotients a few ulps from a half integer (whose rounding the division decides), and scales
  // whose reciprocal is 0, subnormal, infinite or huge. Each lane of a vector that needs the division takes
  // it. Most quotients lie anywhere, so that most vectors keep the estimate; one in 8 lies just outside the
  // estimate's margin (2^-17 of its size from a half integer), which the estimate must round itself.
  std::mt19937 g(7);
  const float scales[] = {0.0201f, 1.0f / 3.0f, 0.1f, 7.0f, 1e-38f, 0x1p-140f, 0.0f, 3e38f, 2e38f};
  for (const float s : scales) {
    Tensor x(DType::kFloat32, {1, 4, 33, 65});
    float* v = x.data<float>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      const float k = static_cast<float>(static_cast<int>(g() % 281) - 140);
      if (i % 8 == 1) {  // just outside the margin, either side of k + 1/2
        const float half = k + 0.5f, off = (std::fabs(half) + 1.0f) * 0x1p-17f;
        v[i] = (g() % 2 ? half + off : half - off) * s;
      } else if (i % 64 == 3) {  // (k + 1/2)·s moved by up to 3 ulps either way
        float y = (k + 0.5f) * s;
        for (int u = static_cast<int>(g() % 7) - 3; u != 0; u += u > 0 ? -1 : 1)
          y = std::nextafter(y, u > 0 ? INFINITY : -INFINITY);
        v[i] = y;
      } else {
        v[i] = (k + static_cast<float>(g() % 1000) / 1000.0f) * s;
      }
    }
    v[0] = 0x1p-149f, v[1] = -0x1p-130f, v[2] = NAN, v[5] = 3e38f;  // subnormal inputs, NaN, a huge one
    Tensor scale(DType::kFloat32, {});
    scale.data<float>()[0] = s;
    Tensor zero(DType::kUint8, {});
    zero.data<uint8_t>()[0] = 3;
    runtime::AxisAttrs a;
    a.axis = 1;
    check(
        OpKind::kQuantizeLinear, a, {x, scale, zero},
        [&](const CpuShape& cpu) { return quantizePlan(a, x.shape(), {}, DType::kUint8, cpu); },
        "QuantizeLinear at scale " + std::to_string(s), 1, false);
  }
}

TEST(IntKernels, CopiesAreTheReferenceBitForBit) {
  uint64_t seed = 400;
  for (const DType t : {DType::kFloat32, DType::kInt8, DType::kUint8, DType::kInt32}) {
    const std::string type = support::dtypeName(t);
    for (const auto& [x, perm] : {std::pair<Shape, runtime::Ints>{{2, 3, 4, 5}, {0, 2, 3, 1}},
                                  {{7, 9}, {}},
                                  {{1, 16, 2, 3}, {3, 1, 0, 2}},
                                  {{5}, {0}},
                                  {{4, 6, 3}, {1, 0, 2}},
                                  {{3, 50, 37}, {0, 2, 1}},
                                  {{2, 70, 3}, {2, 0, 1}}}) {
      runtime::PermAttrs a;
      a.perm = perm;
      check(OpKind::kTranspose, a, {randomTensor(t, x, seed++)}, [&](const CpuShape& cpu) { return transposePlan(a, x, t, cpu); },
            "Transpose " + type + " " + support::shapeStr(x), 1, false);
    }
    for (const auto& [shapes, axis] :
         {std::pair<std::vector<Shape>, int64_t>{{{1, 3, 5, 5}, {1, 7, 5, 5}, {1, 1, 5, 5}}, 1},
          {{{2, 3}, {4, 3}}, 0},
          {{{3, 2}, {3, 1}, {3, 5}}, -1},
          {{{1, 16, 1, 1}}, 1},
          {{{1, 2, 3, 70}, {1, 1, 3, 70}}, 1}}) {
      runtime::AxisAttrs a;
      a.axis = axis;
      std::vector<Tensor> in;
      for (const Shape& s : shapes) in.push_back(randomTensor(t, s, seed++));
      check(OpKind::kConcat, a, in, [&](const CpuShape& cpu) { return concatPlan(a, shapes, t, cpu); },
            "Concat " + type + " axis " + std::to_string(axis), 1, false);
    }
    struct SliceCase {
      Shape x;
      runtime::Ints starts, ends, axes, steps;
    };
    for (const SliceCase& c :
         {SliceCase{{2, 6, 5}, {0, 1}, {1, 5}, {0, 1}, {}}, SliceCase{{4, 9}, {-1, 8}, {-100, 0}, {1, -1}, {-1, -2}},
          SliceCase{{3, 7, 8}, {2}, {1000}, {-1}, {3}}, SliceCase{{10}, {1}, {9}, {}, {2}},
          SliceCase{{1, 12, 4, 4}, {4}, {8}, {1}, {1}}, SliceCase{{3, 100}, {1}, {99}, {1}, {2}}}) {
      std::vector<Tensor> in = {randomTensor(t, c.x, seed++), Tensor::of<int64_t>({static_cast<int64_t>(c.starts.size())}, c.starts),
                                Tensor::of<int64_t>({static_cast<int64_t>(c.ends.size())}, c.ends)};
      std::vector<int64_t> unread = {static_cast<int64_t>(c.starts.size()), static_cast<int64_t>(c.ends.size())};
      if (!c.axes.empty() || !c.steps.empty()) {
        const runtime::Ints axes = c.axes.empty() ? runtime::Ints{0} : c.axes;  // the reference needs axes to take steps
        in.push_back(Tensor::of<int64_t>({static_cast<int64_t>(axes.size())}, axes));
        unread.push_back(static_cast<int64_t>(axes.size()));
        if (!c.steps.empty()) {
          in.push_back(Tensor::of<int64_t>({static_cast<int64_t>(c.steps.size())}, c.steps));
          unread.push_back(static_cast<int64_t>(c.steps.size()));
        }
      }
      runtime::SliceGeometry g;
      ASSERT_EQ(runtime::sliceGeometry(c.x, c.starts, c.ends, c.axes.empty() && !c.steps.empty() ? runtime::Ints{0} : c.axes, c.steps, g), "");
      check(OpKind::kSlice, runtime::NoAttrs{}, in, [&](const CpuShape& cpu) { return slicePlan(g, c.x, t, unread, cpu); },
            "Slice " + type + " " + support::shapeStr(c.x) + " to " + support::shapeStr(g.out), 1, false);
    }
    for (const auto& [x, parts, axis] : {std::tuple<Shape, runtime::Ints, int64_t>{{1, 12, 5, 5}, {4, 8}, 1},
                                         {{7, 9}, {2, 0, 5}, 0}, {{2, 3, 10}, {1, 9}, -1}, {{1, 16, 1, 1}, {16}, 1}}) {
      runtime::SplitAttrs a;
      a.axis = axis, a.split = parts;
      std::vector<Shape> outs;
      for (int64_t n : parts) {
        outs.push_back(x);
        outs.back()[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(x.size()) : axis)] = n;
      }
      check(OpKind::kSplit, a, {randomTensor(t, x, seed++)}, [&](const CpuShape& cpu) { return splitPlan(axis, x, outs, t, {}, cpu); },
            "Split " + type + " " + support::shapeStr(x), parts.size(), false);
    }
    // Gather at constant indices: runs in progression (rising, falling, repeated), negative indices, a scalar index.
    for (const auto& [x, idx, idxShape, axis] :
         {std::tuple<Shape, runtime::Ints, Shape, int64_t>{{2, 10, 3}, {0, 1, 2, 7, 5, 3, 3, 3, -1, 9}, {2, 5}, 1},
          {{6, 5}, {-6, 5, 0}, {3}, 0}, {{1, 32, 128}, {0}, {}, 1}, {{4, 7}, {6, 0, 1, 2, 3}, {5}, -1}}) {
      runtime::AxisAttrs a;
      a.axis = axis;
      for (const DType it : {DType::kInt64, DType::kInt32}) {
        if (it == DType::kInt32 && t != DType::kFloat32) continue;  // the index type matters to the compiler only
        Tensor ti = it == DType::kInt64 ? Tensor::of<int64_t>(idxShape, idx)
                                        : Tensor::of<int32_t>(idxShape, std::vector<int32_t>(idx.begin(), idx.end()));
        check(OpKind::kGather, a, {randomTensor(t, x, seed++), ti},
              [&](const CpuShape& cpu) { return gatherPlan(axis, x, idx, static_cast<int64_t>(idx.size()), it, t, cpu); },
              "Gather " + type + " " + support::shapeStr(x) + " indices " + support::dtypeName(it), 1, false);
      }
    }
    runtime::ReshapeAttrs reshape;
    const Shape rx{2, 3, 5, 7};
    check(OpKind::kReshape, reshape, {randomTensor(t, rx, seed++), Tensor::of<int64_t>({2}, {6, 35})},
          [&](const CpuShape& cpu) { return copyPlan(support::shapeElements(rx), t, cpu, {2}); }, "Reshape " + type, 1,
          false);
    runtime::AxisAttrs flat;
    flat.axis = 1;
    const Shape fx{2, 3, 5, 7};
    check(OpKind::kFlatten, flat, {randomTensor(t, fx, seed++)},
          [&](const CpuShape& cpu) { return copyPlan(support::shapeElements(fx), t, cpu); }, "Flatten " + type, 1, false);
  }
}

TEST(IntKernels, SplitsAndGathersTheyCannotCopyAreLeftToTheReference) {
  const CpuShape cpu{16, 32, false};
  EXPECT_FALSE(gatherPlan(1, {2, 10}, {3, 10}, 2, DType::kInt64, DType::kInt8, cpu)) << "index 10 of 10";
  EXPECT_FALSE(gatherPlan(1, {2, 10}, {-11}, 1, DType::kInt64, DType::kInt8, cpu)) << "index -11 of 10";
  EXPECT_FALSE(gatherPlan(2, {2, 10}, {0}, 1, DType::kInt64, DType::kInt8, cpu)) << "axis 2 of rank 2";
  runtime::Ints scattered;  // no three in progression: 65 runs of at most two
  for (int64_t i = 0; i < 130; ++i) scattered.push_back((i * i * 7) % 1000);
  EXPECT_FALSE(gatherPlan(0, {1000}, scattered, 130, DType::kInt64, DType::kFloat32, cpu));
  EXPECT_TRUE(gatherPlan(0, {1000}, runtime::Ints(scattered.begin(), scattered.begin() + 100), 100, DType::kInt64,
                         DType::kFloat32, cpu));
  EXPECT_FALSE(splitPlan(1, {1, 12}, {{1, 4}, {1, 7}}, DType::kInt8, {}, cpu)) << "parts that do not cover the axis";
  EXPECT_FALSE(splitPlan(1, {1, 12}, {{1, 4}, {2, 8}}, DType::kInt8, {}, cpu)) << "a part of another shape";
}

TEST(IntKernels, ALoopKernelMixingTypesIsALocatedError) {
  LoopKernel k;
  k.name = "mixed";
  const int a = k.addBuffer("a", 4, LoopBuffer::Role::kInput, DType::kInt8);
  const int y = k.addBuffer("y", 4, LoopBuffer::Role::kOutput);
  LoopStage s;
  s.name = "bad";
  s.axes = {{"i", 4}};
  s.out = y, s.outAt.coef = {1};
  Affine at;
  at.coef = {1};
  s.value.load(a, at);  // an int32 value stored into a float32 buffer
  k.stages.push_back(s);
  support::Status st = k.validate("model.onnx");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.str().find("stage 'bad' stores int32 values into float32 buffer 'y'"), std::string::npos) << st.str();
  k.stages[0].value.nodes.clear();
  const int l = k.stages[0].value.load(a, at);
  k.stages[0].value.op(EwOp::kToFloat, k.stages[0].value.op(EwOp::kSqrt, l));
  st = k.validate("model.onnx");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.str().find("node 1 (Sqrt) takes float operands"), std::string::npos) << st.str();
}

TEST(IntKernels, AWordLoadReadsWholeWordsOfAByteBuffer) {
  LoopKernel k;
  k.name = "words";
  const int a = k.addBuffer("a", 8, LoopBuffer::Role::kInput, DType::kInt8);
  const int b = k.addBuffer("b", 8, LoopBuffer::Role::kInput, DType::kInt32);
  const int y = k.addBuffer("y", 4, LoopBuffer::Role::kOutput, DType::kInt32);
  LoopStage s;
  s.name = "w";
  s.axes = {{"i", 4}};
  s.out = y, s.outAt.coef = {1};
  Affine at;
  at.coef = {1};
  s.value.loadWord(a, at);  // bytes 0..6 of 8
  k.stages.push_back(s);
  EXPECT_TRUE(k.validate("model.onnx").isOk());
  k.stages[0].value.nodes[0].at.c = 2;  // the last word would end at byte 8
  support::Status st = k.validate("model.onnx");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.str().find("reads elements 2 to 8 of 'a', which holds 8"), std::string::npos) << st.str();
  k.stages[0].value.nodes[0].at.c = 0, k.stages[0].value.nodes[0].buffer = b;
  st = k.validate("model.onnx");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.str().find("loads words of 'b': a word load reads an 8-bit buffer"), std::string::npos) << st.str();
}

}  // namespace
}  // namespace accelc::compiler::host
