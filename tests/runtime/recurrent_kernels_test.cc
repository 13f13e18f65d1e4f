// tests/runtime/recurrent_kernels_test.cc — RNN, GRU and LSTM: directions, sequence_lens,
// layout 1, the gate attributes (clip, linear_before_reset, input_forget, peepholes) and shape errors.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/ops.h"
#include "tests/runtime/kernel_test_util.h"

namespace accelc::runtime {
namespace {

using support::DType;
using Result = std::variant<std::vector<Tensor>, std::string>;

/// One layer's inputs; an empty optional is an omitted input.
struct Layer {
  Layer() = default;
  Layer(Tensor x0, Tensor w0, Tensor r0) : x(std::move(x0)), w(std::move(w0)), r(std::move(r0)) {}
  Tensor x, w, r;
  std::optional<Tensor> b, lens, h0, c0, p;
};

Result runLayer(OpKind k, const RnnAttrs& a, const Layer& l, int outputs = 2) {
  std::vector<const Tensor*> in = {&l.x, &l.w, &l.r};
  for (const std::optional<Tensor>* o : {&l.b, &l.lens, &l.h0, &l.c0, &l.p}) in.push_back(*o ? &**o : nullptr);
  while (in.back() == nullptr) in.pop_back();
  std::vector<Tensor> out(outputs);
  support::Status s = runOp(k, a, in, out, support::Location::node("m.onnx", "n"));
  if (!s) return s.str();
  return out;
}

std::vector<Tensor> outputsOf(const Result& r) {
  if (r.index() == 1) ADD_FAILURE() << std::get<1>(r);
  return r.index() == 0 ? std::get<0>(r) : std::vector<Tensor>(3);
}

std::string errorOf(const Result& r) {
  if (r.index() == 0) ADD_FAILURE() << "expected an error";
  return r.index() == 1 ? std::get<1>(r) : "";
}

/// A tensor of smooth, distinct values in [-0.6, 0.6].
Tensor filled(Shape s, float seed) {
  Tensor t(DType::kFloat32, std::move(s));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = 0.6f * std::sin(seed + 0.77f * static_cast<float>(i));
  return t;
}

int64_t gates(OpKind k) { return k == OpKind::kRNN ? 1 : k == OpKind::kGRU ? 3 : 4; }
/// The node's outputs: Y, Y_h (LSTM: Y_c too).
int outs(OpKind k) { return k == OpKind::kLSTM ? 3 : 2; }

/// A layer of `dirs` directions over X [seq, batch, input] with every optional input set.
Layer makeLayer(OpKind k, int64_t dirs, int64_t seq, int64_t batch, int64_t input, int64_t hidden, float seed) {
  const int64_t gh = gates(k) * hidden;
  Layer l{filled({seq, batch, input}, seed), filled({dirs, gh, input}, seed + 1), filled({dirs, gh, hidden}, seed + 2)};
  l.b = filled({dirs, 2 * gh}, seed + 3);
  l.h0 = filled({dirs, batch, hidden}, seed + 4);
  if (k == OpKind::kLSTM) l.c0 = filled({dirs, batch, hidden}, seed + 5), l.p = filled({dirs, 3 * hidden}, seed + 6);
  return l;
}

/// Elements [d * n, (d + 1) * n) of each of the `outer` blocks of t (t holds outer * dirs * n).
std::vector<float> part(const Tensor& t, int64_t outer, int64_t dirs, int64_t d) {
  const int64_t n = t.numel() / (outer * dirs);
  std::vector<float> v;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < n; ++i) v.push_back(t.data<float>()[(o * dirs + d) * n + i]);
  return v;
}

std::vector<float> all(const Tensor& t) { return part(t, 1, 1, 0); }

void expectClose(const std::vector<float>& a, const std::vector<float>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5) << "element " << i;
}

/// X [seq, batch, input] with its steps in reverse order.
Tensor reversedSteps(const Tensor& x) {
  Tensor r = x;
  const int64_t seq = x.dim(0), step = x.numel() / seq;
  for (int64_t t = 0; t < seq; ++t)
    for (int64_t i = 0; i < step; ++i) r.data<float>()[t * step + i] = x.data<float>()[(seq - 1 - t) * step + i];
  return r;
}

/// Swaps the two outer axes of a tensor of rank >= 2.
Tensor swapOuter(const Tensor& x) {
  Shape s = x.shape();
  std::swap(s[0], s[1]);
  Tensor r(DType::kFloat32, s);
  const int64_t inner = x.numel() / (x.dim(0) * x.dim(1));
  for (int64_t i = 0; i < x.dim(0); ++i)
    for (int64_t j = 0; j < x.dim(1); ++j)
      for (int64_t k = 0; k < inner; ++k)
        r.data<float>()[(j * x.dim(0) + i) * inner + k] = x.data<float>()[(i * x.dim(1) + j) * inner + k];
  return r;
}

RnnAttrs attrs(RnnDirection d, int64_t layout = 0) {
  RnnAttrs a;
  a.direction = d, a.layout = layout;
  return a;
}

const OpKind kKinds[] = {OpKind::kRNN, OpKind::kGRU, OpKind::kLSTM};

TEST(RecurrentKernelsTest, RnnStepIsTanhOfBothProductsAndBiases) {
  Layer l{Tensor::of<float>({1, 1, 1}, {0.5f}), Tensor::of<float>({1, 1, 1}, {2}), Tensor::of<float>({1, 1, 1}, {0.5f})};
  l.b = Tensor::of<float>({1, 2}, {0.1f, 0.2f});
  l.h0 = Tensor::of<float>({1, 1, 1}, {1});
  std::vector<Tensor> out = outputsOf(runLayer(OpKind::kRNN, RnnAttrs{}, l));
  expectClose(all(out[0]), {std::tanh(1.8f)});
  expectClose(all(out[1]), {std::tanh(1.8f)});
}

TEST(RecurrentKernelsTest, ReverseRunEqualsForwardRunOverReversedSequence) {
  for (OpKind k : kKinds) {
    Layer rev = makeLayer(k, 1, 4, 2, 3, 2, 0.3f), fwd = rev;
    fwd.x = reversedSteps(rev.x);
    std::vector<Tensor> r = outputsOf(runLayer(k, attrs(RnnDirection::kReverse), rev, outs(k)));
    std::vector<Tensor> f = outputsOf(runLayer(k, attrs(RnnDirection::kForward), fwd, outs(k)));
    expectClose(all(r[0]), all(reversedSteps(f[0])));
    for (int i = 1; i < outs(k); ++i) expectClose(all(r[i]), all(f[i]));
  }
}

TEST(RecurrentKernelsTest, BidirectionalStacksTheForwardAndReverseRuns) {
  for (OpKind k : kKinds) {
    Layer both = makeLayer(k, 2, 3, 2, 3, 2, 1.1f);
    Layer dir[2];
    for (int64_t d = 0; d < 2; ++d) {  // direction d's slice of every weight and state
      auto slice = [&](const Tensor& t) {
        Shape s = t.shape();
        s[0] = 1;
        return Tensor::of<float>(s, part(t, 1, 2, d));
      };
      dir[d] = Layer{both.x, slice(both.w), slice(both.r)};
      dir[d].b = slice(*both.b), dir[d].h0 = slice(*both.h0);
      if (k == OpKind::kLSTM) dir[d].c0 = slice(*both.c0), dir[d].p = slice(*both.p);
    }
    std::vector<Tensor> y = outputsOf(runLayer(k, attrs(RnnDirection::kBidirectional), both, outs(k)));
    std::vector<Tensor> f = outputsOf(runLayer(k, attrs(RnnDirection::kForward), dir[0], outs(k)));
    std::vector<Tensor> r = outputsOf(runLayer(k, attrs(RnnDirection::kReverse), dir[1], outs(k)));
    EXPECT_EQ(y[0].shape(), (Shape{3, 2, 2, 2}));
    expectClose(part(y[0], 3, 2, 0), all(f[0]));
    expectClose(part(y[0], 3, 2, 1), all(r[0]));
    for (int i = 1; i < outs(k); ++i) expectClose(part(y[i], 1, 2, 0), all(f[i])), expectClose(part(y[i], 1, 2, 1), all(r[i]));
  }
}

TEST(RecurrentKernelsTest, SequenceLensZeroPadYAndKeepTheLastValidState) {
  for (OpKind k : kKinds)
    for (RnnDirection dir : {RnnDirection::kForward, RnnDirection::kReverse}) {
      Layer l = makeLayer(k, 1, 4, 1, 2, 3, 2.0f), shortRun = l;
      l.lens = Tensor::of<int32_t>({1}, {2});
      shortRun.x = Tensor::of<float>({2, 1, 2}, std::vector<float>(l.x.data<float>(), l.x.data<float>() + 4));
      std::vector<Tensor> y = outputsOf(runLayer(k, attrs(dir), l, outs(k)));
      std::vector<Tensor> s = outputsOf(runLayer(k, attrs(dir), shortRun, outs(k)));
      std::vector<float> padded = all(s[0]);
      padded.resize(12, 0.0f);  // steps 2 and 3 are past the length: zeros
      expectClose(all(y[0]), padded);
      for (int i = 1; i < outs(k); ++i) expectClose(all(y[i]), all(s[i]));
    }
}

TEST(RecurrentKernelsTest, SequenceLensApplyPerBatchEntry) {
  Layer l = makeLayer(OpKind::kGRU, 1, 3, 2, 2, 2, 0.5f), full = l;
  l.lens = Tensor::of<int32_t>({2}, {3, 0});
  std::vector<Tensor> y = outputsOf(runLayer(OpKind::kGRU, attrs(RnnDirection::kForward), l));
  std::vector<Tensor> f = outputsOf(runLayer(OpKind::kGRU, attrs(RnnDirection::kForward), full));
  expectClose(part(y[0], 3, 2, 0), part(f[0], 3, 2, 0));  // entry 0 runs all 3 steps
  expectClose(part(y[0], 3, 2, 1), std::vector<float>(6, 0.0f));
  expectClose(part(y[1], 1, 2, 1), part(*l.h0, 1, 2, 1));  // a length of 0 keeps initial_h
}

/// Y [seq, dirs, batch, hidden] in layout 1: [batch, seq, dirs, hidden].
Tensor batchMajorY(const Tensor& y) {
  const int64_t s = y.dim(0), d = y.dim(1), b = y.dim(2), h = y.dim(3);
  Tensor r(DType::kFloat32, {b, s, d, h});
  for (int64_t t = 0; t < s; ++t)
    for (int64_t i = 0; i < d; ++i)
      for (int64_t n = 0; n < b; ++n)
        for (int64_t j = 0; j < h; ++j)
          r.data<float>()[((n * s + t) * d + i) * h + j] = y.data<float>()[((t * d + i) * b + n) * h + j];
  return r;
}

TEST(RecurrentKernelsTest, LayoutOneSwapsBatchAndSequenceAxes) {
  for (OpKind k : kKinds) {
    Layer seqMajor = makeLayer(k, 2, 3, 2, 2, 2, 0.9f), batchMajor = seqMajor;
    seqMajor.lens = batchMajor.lens = Tensor::of<int32_t>({2}, {3, 2});
    batchMajor.x = swapOuter(seqMajor.x), batchMajor.h0 = swapOuter(*seqMajor.h0);
    if (k == OpKind::kLSTM) batchMajor.c0 = swapOuter(*seqMajor.c0);
    std::vector<Tensor> a = outputsOf(runLayer(k, attrs(RnnDirection::kBidirectional), seqMajor, outs(k)));
    std::vector<Tensor> b = outputsOf(runLayer(k, attrs(RnnDirection::kBidirectional, 1), batchMajor, outs(k)));
    EXPECT_EQ(b[0].shape(), (Shape{2, 3, 2, 2}));
    EXPECT_EQ(b[1].shape(), (Shape{2, 2, 2}));  // Y_h [batch, dirs, hidden]
    expectClose(all(b[0]), all(batchMajorY(a[0])));
    expectClose(all(b[1]), all(swapOuter(a[1])));
    if (k == OpKind::kLSTM) expectClose(all(b[2]), all(swapOuter(a[2])));
  }
}

TEST(RecurrentKernelsTest, ClipBoundsEveryPreActivation) {
  Layer l{Tensor::of<float>({1, 1, 1}, {3}), Tensor::of<float>({1, 1, 1}, {2}), Tensor::of<float>({1, 1, 1}, {0})};
  RnnAttrs a;
  a.clip = 0.5f;
  expectClose(all(outputsOf(runLayer(OpKind::kRNN, a, l))[1]), {std::tanh(0.5f)});
  l.x = Tensor::of<float>({1, 1, 1}, {-3});
  expectClose(all(outputsOf(runLayer(OpKind::kRNN, a, l))[1]), {std::tanh(-0.5f)});
}

double sig(double v) { return 1 / (1 + std::exp(-v)); }

TEST(RecurrentKernelsTest, GruLinearBeforeResetMovesTheResetGate) {
  // One unit: W = (wz, wr, wh), R = (rz, rr, rh), recurrent bias Rbh = 0.4, x = 1, h0 = 0.5.
  Layer l{Tensor::of<float>({1, 1, 1}, {1}), Tensor::of<float>({1, 3, 1}, {0.2f, 0.3f, 0.4f}),
          Tensor::of<float>({1, 3, 1}, {0.5f, -0.6f, 0.7f})};
  l.b = Tensor::of<float>({1, 6}, {0, 0, 0, 0, 0, 0.4f});
  l.h0 = Tensor::of<float>({1, 1, 1}, {0.5f});
  const double z = sig(0.2 + 0.25), r = sig(0.3 - 0.3);
  const double plain = std::tanh(0.4 + r * 0.5 * 0.7 + 0.4), linear = std::tanh(0.4 + r * (0.5 * 0.7 + 0.4));
  RnnAttrs a;
  expectClose(all(outputsOf(runLayer(OpKind::kGRU, a, l))[1]), {static_cast<float>((1 - z) * plain + z * 0.5)});
  a.linearBeforeReset = 1;
  expectClose(all(outputsOf(runLayer(OpKind::kGRU, a, l))[1]), {static_cast<float>((1 - z) * linear + z * 0.5)});
}

TEST(RecurrentKernelsTest, LstmPeepholesAndInputForget) {
  // One unit, gates i, o, f, c; x = 1, h0 = 0, c0 = 0.5, peepholes (i, o, f) = (0.1, 0.2, 0.3).
  Layer l{Tensor::of<float>({1, 1, 1}, {1}), Tensor::of<float>({1, 4, 1}, {0.2f, 0.3f, 0.4f, 0.5f}),
          Tensor::of<float>({1, 4, 1}, {0, 0, 0, 0})};
  l.h0 = Tensor::of<float>({1, 1, 1}, {0});
  l.c0 = Tensor::of<float>({1, 1, 1}, {0.5f});
  l.p = Tensor::of<float>({1, 3}, {0.1f, 0.2f, 0.3f});
  const double i = sig(0.2 + 0.05), cand = std::tanh(0.5);
  for (bool coupled : {false, true}) {
    const double f = coupled ? 1 - i : sig(0.4 + 0.15), c = f * 0.5 + i * cand, o = sig(0.3 + 0.2 * c);
    RnnAttrs a;
    a.inputForget = coupled;
    std::vector<Tensor> y = outputsOf(runLayer(OpKind::kLSTM, a, l, 3));
    expectClose(all(y[1]), {static_cast<float>(o * std::tanh(c))});
    expectClose(all(y[2]), {static_cast<float>(c)});
  }
}

TEST(RecurrentKernelsTest, EmptyBatchAndEmptySequenceWork) {
  Layer l = makeLayer(OpKind::kLSTM, 1, 3, 0, 2, 2, 0.1f);
  std::vector<Tensor> y = outputsOf(runLayer(OpKind::kLSTM, RnnAttrs{}, l, 3));
  EXPECT_EQ(y[0].shape(), (Shape{3, 1, 0, 2}));
  EXPECT_EQ(y[2].shape(), (Shape{1, 0, 2}));
  l = makeLayer(OpKind::kRNN, 2, 0, 2, 2, 2, 0.1f);
  y = outputsOf(runLayer(OpKind::kRNN, attrs(RnnDirection::kBidirectional), l));
  EXPECT_EQ(y[0].shape(), (Shape{0, 2, 2, 2}));
  expectClose(all(y[1]), all(*l.h0));  // no step: Y_h is initial_h
}

TEST(RecurrentKernelsTest, EveryOutputOfTheNodeIsFilled) {
  Layer l = makeLayer(OpKind::kLSTM, 1, 2, 1, 2, 3, 0.2f);
  std::vector<Tensor> y = outputsOf(runLayer(OpKind::kLSTM, RnnAttrs{}, l, 3));
  EXPECT_EQ(y[0].shape(), (Shape{2, 1, 1, 3}));
  EXPECT_EQ(y[1].shape(), (Shape{1, 1, 3}));
  EXPECT_EQ(y[2].shape(), (Shape{1, 1, 3}));
  EXPECT_NE(errorOf(runLayer(OpKind::kGRU, RnnAttrs{}, l, 3)).find("at most 2 outputs"), std::string::npos);
}

TEST(RecurrentKernelsTest, MismatchedShapesAreLocatedErrors) {
  auto err = [](OpKind k, const RnnAttrs& a, const Layer& l) { return errorOf(runLayer(k, a, l)); };
  const Layer good = makeLayer(OpKind::kLSTM, 1, 2, 2, 3, 2, 0.4f);
  Layer l = good;
  EXPECT_EQ(err(OpKind::kLSTM, attrs(RnnDirection::kBidirectional), l),
            "m.onnx:n: error: LSTM input W must have shape 2x8x3, found 1x8x3");
  RnnAttrs a;
  a.hiddenSize = 3;
  EXPECT_EQ(err(OpKind::kLSTM, a, l), "m.onnx:n: error: LSTM hidden_size is 3 but W holds 2");
  EXPECT_NE(err(OpKind::kGRU, RnnAttrs{}, l).find("GRU takes at most 6 inputs"), std::string::npos);
  l.r = filled({1, 8, 3}, 0);
  EXPECT_NE(err(OpKind::kLSTM, RnnAttrs{}, l).find("input R must have shape 1x8x2, found 1x8x3"), std::string::npos);
  l = good, l.b = filled({1, 8}, 0);
  EXPECT_NE(err(OpKind::kLSTM, RnnAttrs{}, l).find("input B must have shape 1x16"), std::string::npos);
  l = good, l.h0 = filled({1, 3, 2}, 0);
  EXPECT_NE(err(OpKind::kLSTM, RnnAttrs{}, l).find("input initial_h must have shape 1x2x2"), std::string::npos);
  l = good, l.c0 = filled({2, 1, 2}, 0);
  EXPECT_NE(err(OpKind::kLSTM, RnnAttrs{}, l).find("input initial_c must have shape 1x2x2"), std::string::npos);
  l = good, l.p = filled({1, 8}, 0);
  EXPECT_NE(err(OpKind::kLSTM, RnnAttrs{}, l).find("input P must have shape 1x6"), std::string::npos);
  l = good, l.x = filled({2, 3}, 0);
  EXPECT_NE(err(OpKind::kLSTM, RnnAttrs{}, l).find("must have rank 3"), std::string::npos);
  l = good, l.w = filled({1, 8, 4}, 0);
  EXPECT_NE(err(OpKind::kLSTM, RnnAttrs{}, l).find("input W must have shape 1x8x3"), std::string::npos);
  l = good, l.w = filled({1, 7, 3}, 0);
  EXPECT_NE(err(OpKind::kLSTM, RnnAttrs{}, l).find("must be 4 x hidden_size, found 7"), std::string::npos);
}

/// t (float32) widened to float64.
Tensor widened(const Tensor& t) {
  Tensor r(DType::kFloat64, t.shape());
  for (int64_t i = 0; i < t.numel(); ++i) r.data<double>()[i] = t.data<float>()[i];
  return r;
}

TEST(RecurrentKernelsTest, Float64LayersMatchFloat32AndKeepTheirDtype) {
  for (OpKind k : {OpKind::kGRU, OpKind::kLSTM}) {
    const Layer narrow = makeLayer(k, 2, 3, 2, 3, 2, 0.7f);
    Layer wide{widened(narrow.x), widened(narrow.w), widened(narrow.r)};
    for (auto [from, to] : {std::pair{&narrow.b, &wide.b}, {&narrow.h0, &wide.h0}, {&narrow.c0, &wide.c0}, {&narrow.p, &wide.p}})
      if (*from) *to = widened(**from);
    const RnnAttrs a = attrs(RnnDirection::kBidirectional);
    std::vector<Tensor> f = outputsOf(runLayer(k, a, narrow, outs(k))), d = outputsOf(runLayer(k, a, wide, outs(k)));
    for (int i = 0; i < outs(k); ++i) {
      ASSERT_EQ(d[i].dtype(), DType::kFloat64) << "output " << i;
      ASSERT_EQ(d[i].shape(), f[i].shape());
      for (int64_t e = 0; e < f[i].numel(); ++e) EXPECT_NEAR(d[i].at(e), f[i].at(e), 1e-5) << "output " << i << " element " << e;
    }
    wide.r = narrow.r;  // one node's float inputs must share X's dtype
    EXPECT_NE(errorOf(runLayer(k, a, wide, outs(k))).find("input 2 has dtype float32; expected float64"), std::string::npos);
  }
}

TEST(RecurrentKernelsTest, BadSequenceLensAndAttributesAreErrors) {
  auto err = [](const RnnAttrs& a, const Layer& l) { return errorOf(runLayer(OpKind::kRNN, a, l)); };
  const Layer good = makeLayer(OpKind::kRNN, 1, 2, 2, 3, 2, 0.4f);
  Layer l = good;
  l.lens = Tensor::of<int32_t>({2}, {1, 3});
  EXPECT_NE(err(RnnAttrs{}, l).find("sequence_lens[1] must be in [0, 2], found 3"), std::string::npos);
  l.lens = Tensor::of<int32_t>({2}, {-1, 1});
  EXPECT_NE(err(RnnAttrs{}, l).find("found -1"), std::string::npos);
  l.lens = Tensor::of<int32_t>({3}, {1, 1, 1});
  EXPECT_NE(err(RnnAttrs{}, l).find("sequence_lens must have shape 2"), std::string::npos);
  l.lens = Tensor::of<float>({2}, {1, 1});
  EXPECT_NE(err(RnnAttrs{}, l).find("expected int32"), std::string::npos);
  l = good, l.b = Tensor::of<int32_t>({1, 4}, {0, 0, 0, 0});
  EXPECT_NE(err(RnnAttrs{}, l).find("expected float32"), std::string::npos);
  RnnAttrs a;
  a.layout = 2;
  EXPECT_NE(err(a, good).find("layout must be 0 or 1"), std::string::npos);
  a = RnnAttrs{}, a.clip = -1;
  EXPECT_NE(err(a, good).find("clip must be > 0"), std::string::npos);
  a = RnnAttrs{}, a.hiddenSize = -2;
  EXPECT_NE(err(a, good).find("hidden_size must be >= 0"), std::string::npos);
}

}  // namespace
}  // namespace accelc::runtime
