// runtime/kernels/recurrent.cc — RNN, GRU and LSTM (ONNX opset 14) with their
// default activations: RNN h = Tanh; GRU and LSTM gates Sigmoid, candidates and
// outputs Tanh. Each batch entry runs on its own over its sequence_lens steps;
// products accumulate in double and the state is stored in the element type
// after every step, as a kernel of that type would.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "runtime/internal/kernels.h"
#include "support/dtype.h"

namespace accelc::runtime::kernels {

namespace {

// Input slots, in ONNX order (LSTM alone has initial_c and P).
constexpr int kX = 0, kW = 1, kR = 2, kB = 3, kLens = 4, kInitH = 5, kInitC = 6, kP = 7;

/// The sizes of one layer, read from X and W, and where each step lives in memory.
struct Dims {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0;
  int64_t dirs = 1;          ///< 2 when bidirectional
  int64_t gates = 1;         ///< weight blocks per direction: RNN 1, GRU 3, LSTM 4
  bool batchMajor = false;   ///< layout 1: X [batch, seq, input], Y [batch, seq, dirs, hidden]

  int64_t xAt(int64_t t, int64_t b) const { return (batchMajor ? b * seq + t : t * batch + b) * input; }
  int64_t yAt(int64_t t, int64_t d, int64_t b) const {
    return (batchMajor ? (b * seq + t) * dirs + d : (t * dirs + d) * batch + b) * hidden;
  }
  int64_t stateAt(int64_t d, int64_t b) const { return (batchMajor ? b * dirs + d : d * batch + b) * hidden; }
  Shape yShape() const { return batchMajor ? Shape{batch, seq, dirs, hidden} : Shape{seq, dirs, batch, hidden}; }
  Shape stateShape() const { return batchMajor ? Shape{batch, dirs, hidden} : Shape{dirs, batch, hidden}; }
};

int64_t gateCount(OpKind k) { return k == OpKind::kRNN ? 1 : k == OpKind::kGRU ? 3 : 4; }

/// Fails unless input i, when present, has X's dtype and the shape `want`.
Status expectShape(const Ctx& c, const std::string& op, int i, const char* name, const Shape& want) {
  if (!c.has(i)) return Status::ok();
  ACCELC_TRY(c.expectType(i, {c.in(kX).dtype()}));
  if (c.in(i).shape() == want) return Status::ok();
  return c.fail(op + " input " + name + " must have shape " + support::shapeStr(want) + ", found " +
                support::shapeStr(c.in(i).shape()));
}

Status checkAttrs(const std::string& op, const RnnAttrs& a, const Ctx& c) {
  if (a.layout != 0 && a.layout != 1) return c.fail(op + " layout must be 0 or 1, found " + std::to_string(a.layout));
  if (a.hiddenSize < 0) return c.fail(op + " hidden_size must be >= 0, found " + std::to_string(a.hiddenSize));
  if (!(a.clip >= 0.0f)) return c.fail(op + " clip must be > 0 (or 0 for none), found " + std::to_string(a.clip));
  for (int i : {kX, kW, kR})
    if (c.in(i).rank() != 3)
      return c.fail(op + " input " + std::to_string(i) + " must have rank 3, found rank " + std::to_string(c.in(i).rank()));
  return Status::ok();
}

/// Reads the layer's sizes and checks every input's shape against them.
Status readDims(OpKind k, const RnnAttrs& a, const Ctx& c, Dims& d) {
  const std::string op = opInfo(k).name;
  if (k != OpKind::kLSTM && c.inputs() > kInitC) return c.fail(op + " takes at most 6 inputs, found " + std::to_string(c.inputs()));
  // float32 or float64; expectShape holds every other float input to X's dtype.
  ACCELC_TRY(c.expectType(kX, {DType::kFloat32, DType::kFloat64}));
  ACCELC_TRY(checkAttrs(op, a, c));
  const Tensor &x = c.in(kX), &w = c.in(kW);
  d.batchMajor = a.layout == 1;
  d.seq = x.dim(d.batchMajor ? 1 : 0), d.batch = x.dim(d.batchMajor ? 0 : 1), d.input = x.dim(2);
  d.dirs = a.direction == RnnDirection::kBidirectional ? 2 : 1;
  d.gates = gateCount(k);
  if (w.dim(1) % d.gates != 0)
    return c.fail(op + " W's second dimension must be " + std::to_string(d.gates) + " x hidden_size, found " +
                  std::to_string(w.dim(1)));
  d.hidden = w.dim(1) / d.gates;
  if (a.hiddenSize != 0 && a.hiddenSize != d.hidden)
    return c.fail(op + " hidden_size is " + std::to_string(a.hiddenSize) + " but W holds " + std::to_string(d.hidden));
  const int64_t gh = d.gates * d.hidden;
  ACCELC_TRY(expectShape(c, op, kW, "W", {d.dirs, gh, d.input}));
  ACCELC_TRY(expectShape(c, op, kR, "R", {d.dirs, gh, d.hidden}));
  ACCELC_TRY(expectShape(c, op, kB, "B", {d.dirs, 2 * gh}));
  ACCELC_TRY(expectShape(c, op, kInitH, "initial_h", d.stateShape()));
  ACCELC_TRY(expectShape(c, op, kInitC, "initial_c", d.stateShape()));
  return expectShape(c, op, kP, "P", {d.dirs, 3 * d.hidden});
}

/// Checks sequence_lens: int32 [batch], each length in [0, seq].
Status checkLengths(const std::string& op, const Ctx& c, const Dims& d) {
  if (!c.has(kLens)) return Status::ok();
  ACCELC_TRY(c.expectType(kLens, {DType::kInt32}));
  const Tensor& lens = c.in(kLens);
  if (lens.shape() != Shape{d.batch})
    return c.fail(op + " input sequence_lens must have shape " + std::to_string(d.batch) + ", found " +
                  support::shapeStr(lens.shape()));
  for (int64_t b = 0; b < lens.numel(); ++b)
    if (lens.intAt(b) < 0 || lens.intAt(b) > d.seq)
      return c.fail(op + " sequence_lens[" + std::to_string(b) + "] must be in [0, " + std::to_string(d.seq) +
                    "], found " + std::to_string(lens.intAt(b)));
  return Status::ok();
}

/// One direction's weights (views into W, R, B, P) and the attributes a step uses.
template <typename T>
struct Cell {
  OpKind kind = OpKind::kRNN;
  const T* w = nullptr;   ///< [gates*hidden, input]
  const T* r = nullptr;   ///< [gates*hidden, hidden]
  const T* wb = nullptr;  ///< input bias [gates*hidden] (null: none)
  const T* rb = nullptr;  ///< recurrent bias [gates*hidden] (null: none)
  const T* p = nullptr;   ///< LSTM peepholes i, o, f [3*hidden] (null: none)
  int64_t input = 0, hidden = 0;
  double clip = 0;        ///< 0: none
  bool linearBeforeReset = false, inputForget = false;
  mutable std::vector<double> xw, hr, gate;  ///< scratch: input and recurrent products, GRU gates
  mutable std::vector<T> rh;                 ///< scratch: GRU r (.) h
};

/// out[r] = bias[r] + m[r, :] . v for rows [r0, r1).
template <typename T>
void affine(const T* m, const T* bias, const T* v, int64_t cols, int64_t r0, int64_t r1, std::vector<double>& out) {
  for (int64_t r = r0; r < r1; ++r) {
    double s = bias ? static_cast<double>(bias[r]) : 0.0;
    for (int64_t k = 0; k < cols; ++k) s += static_cast<double>(m[r * cols + k]) * static_cast<double>(v[k]);
    out[r] = s;
  }
}

// The clip applies to every gate's pre-activation, peephole terms included.
double clipped(double v, double clip) { return clip > 0 ? std::clamp(v, -clip, clip) : v; }
double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

template <typename T>
void rnnStep(const Cell<T>& s, const T* x, T* h) {
  affine(s.w, s.wb, x, s.input, 0, s.hidden, s.xw);
  affine(s.r, s.rb, h, s.hidden, 0, s.hidden, s.hr);
  for (int64_t j = 0; j < s.hidden; ++j) h[j] = static_cast<T>(std::tanh(clipped(s.xw[j] + s.hr[j], s.clip)));
}

template <typename T>
void gruStep(const Cell<T>& s, const T* x, T* h) {
  const int64_t n = s.hidden;
  affine(s.w, s.wb, x, s.input, 0, 3 * n, s.xw);
  affine(s.r, s.rb, h, n, 0, 2 * n, s.hr);
  for (int64_t j = 0; j < 2 * n; ++j) s.gate[j] = sigmoid(clipped(s.xw[j] + s.hr[j], s.clip));  // z, then r
  if (s.linearBeforeReset) {  // h~ = tanh(x Wh + Wbh + r (.) (h Rh + Rbh))
    affine(s.r, s.rb, h, n, 2 * n, 3 * n, s.hr);
    for (int64_t j = 0; j < n; ++j) s.hr[2 * n + j] *= s.gate[n + j];
  } else {  // h~ = tanh(x Wh + Wbh + (r (.) h) Rh + Rbh)
    for (int64_t j = 0; j < n; ++j) s.rh[j] = static_cast<T>(s.gate[n + j] * static_cast<double>(h[j]));
    affine(s.r, s.rb, s.rh.data(), n, 2 * n, 3 * n, s.hr);
  }
  for (int64_t j = 0; j < n; ++j) {
    const double cand = std::tanh(clipped(s.xw[2 * n + j] + s.hr[2 * n + j], s.clip)), z = s.gate[j];
    h[j] = static_cast<T>((1 - z) * cand + z * static_cast<double>(h[j]));
  }
}

// W's gate blocks are i, o, f, c; P's are i, o, f.
template <typename T>
void lstmStep(const Cell<T>& s, const T* x, T* h, T* cell) {
  const int64_t n = s.hidden;
  affine(s.w, s.wb, x, s.input, 0, 4 * n, s.xw);
  affine(s.r, s.rb, h, n, 0, 4 * n, s.hr);
  auto pre = [&](int g, int64_t j) { return s.xw[g * n + j] + s.hr[g * n + j]; };
  auto peep = [&](int g, int64_t j, double c) { return s.p ? static_cast<double>(s.p[g * n + j]) * c : 0.0; };
  for (int64_t j = 0; j < n; ++j) {
    const double c0 = static_cast<double>(cell[j]);
    const double i = sigmoid(clipped(pre(0, j) + peep(0, j, c0), s.clip));
    // input_forget couples the gates as onnxruntime does: f = 1 - i.
    const double f = s.inputForget ? 1 - i : sigmoid(clipped(pre(2, j) + peep(2, j, c0), s.clip));
    const double c1 = f * c0 + i * std::tanh(clipped(pre(3, j), s.clip));
    const double o = sigmoid(clipped(pre(1, j) + peep(1, j, c1), s.clip));  // the output peephole sees the new cell
    cell[j] = static_cast<T>(c1);
    h[j] = static_cast<T>(o * std::tanh(c1));
  }
}

/// The outputs being filled: Y, Y_h, Y_c.
template <typename T>
struct Outs {
  T *y, *yh, *yc;
};

/// The cell of direction d: views into its slice of W, R, B and P.
template <typename T>
Cell<T> makeCell(OpKind k, const RnnAttrs& a, const Ctx& c, const Dims& dm, int64_t d) {
  Cell<T> s;
  const int64_t gh = dm.gates * dm.hidden;
  s.kind = k, s.input = dm.input, s.hidden = dm.hidden, s.clip = a.clip;
  s.linearBeforeReset = a.linearBeforeReset != 0, s.inputForget = a.inputForget != 0;
  s.w = c.in(kW).data<T>() + d * gh * dm.input;
  s.r = c.in(kR).data<T>() + d * gh * dm.hidden;
  if (c.has(kB)) s.wb = c.in(kB).data<T>() + d * 2 * gh, s.rb = s.wb + gh;
  if (c.has(kP)) s.p = c.in(kP).data<T>() + d * 3 * dm.hidden;
  s.xw.assign(gh, 0.0), s.hr.assign(gh, 0.0), s.gate.assign(gh, 0.0), s.rh.assign(dm.hidden, T{});
  return s;
}

/// Runs direction d over batch entry b: its first `len` steps, backwards when `reverse`.
template <typename T>
void runEntry(const Cell<T>& s, const Ctx& c, const Dims& dm, int64_t d, int64_t b, bool reverse, Outs<T> o) {
  const int64_t len = c.has(kLens) ? c.in(kLens).intAt(b) : dm.seq, at = dm.stateAt(d, b);
  std::vector<T> h(dm.hidden, T{}), cell(dm.hidden, T{});
  if (c.has(kInitH)) std::copy_n(c.in(kInitH).data<T>() + at, dm.hidden, h.begin());
  if (c.has(kInitC)) std::copy_n(c.in(kInitC).data<T>() + at, dm.hidden, cell.begin());
  const T* x = c.in(kX).data<T>();
  for (int64_t step = 0; step < len; ++step) {
    const int64_t t = reverse ? len - 1 - step : step;  // a reverse run starts at the entry's last valid step
    if (s.kind == OpKind::kLSTM) lstmStep(s, x + dm.xAt(t, b), h.data(), cell.data());
    else if (s.kind == OpKind::kGRU) gruStep(s, x + dm.xAt(t, b), h.data());
    else rnnStep(s, x + dm.xAt(t, b), h.data());
    std::copy(h.begin(), h.end(), o.y + dm.yAt(t, d, b));
  }
  std::copy(h.begin(), h.end(), o.yh + at);  // steps past len leave Y at zero and Y_h at the last valid state
  std::copy(cell.begin(), cell.end(), o.yc + at);
}

template <typename T>
void runLayer(OpKind k, const RnnAttrs& a, const Ctx& c, const Dims& dm, Outs<T> o) {
  for (int64_t d = 0; d < dm.dirs; ++d) {
    const Cell<T> s = makeCell<T>(k, a, c, dm, d);
    const bool reverse = a.direction == RnnDirection::kReverse || d == 1;
    for (int64_t b = 0; b < dm.batch; ++b) runEntry(s, c, dm, d, b, reverse, o);
  }
}

}  // namespace

Status recurrent(OpKind k, const RnnAttrs& a, Ctx& c) {
  const std::string op = opInfo(k).name;
  const int maxOutputs = k == OpKind::kLSTM ? 3 : 2;
  if (c.outputs() > maxOutputs)
    return c.fail(op + " has at most " + std::to_string(maxOutputs) + " outputs, found " + std::to_string(c.outputs()));
  Dims dm;
  ACCELC_TRY(readDims(k, a, c, dm));
  ACCELC_TRY(checkLengths(op, c, dm));
  const DType t = c.in(kX).dtype();
  // Y is computed even when the node does not use it: its size bounds the work.
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(t, dm.yShape()));
  ACCELC_ASSIGN_OR_RETURN(Tensor yh, c.alloc(t, dm.stateShape()));
  ACCELC_ASSIGN_OR_RETURN(Tensor yc, c.alloc(t, dm.stateShape()));
  if (dm.hidden > 0 && dm.batch > 0)  // else every output is empty (and the loops could be long and idle)
    visitDType(t, [&](auto tag) {
      using T = decltype(tag);
      runLayer<T>(k, a, c, dm, Outs<T>{y.data<T>(), yh.data<T>(), yc.data<T>()});
    });
  Tensor* results[] = {&y, &yh, &yc};
  for (int i = 0; i < c.outputs(); ++i) c.out(i) = std::move(*results[i]);
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
