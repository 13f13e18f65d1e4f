// compiler/quant/quantize.cc — the float graph with activation parameters to
// the integer graph (see quantize.h for the rules).
#include "compiler/quant/quantize.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

using support::DType;
using support::Status;

std::optional<Requant> requantOf(double real) {
  if (!(real > 0.0) || real >= 1.0) return std::nullopt;
  const int64_t unshifted = std::llround(real * static_cast<double>(int64_t{1} << 31));
  if (unshifted >= (int64_t{1} << kShiftlessBits)) return Requant{static_cast<int32_t>(unshifted), 0};
  int exp = 0;
  const double frac = std::frexp(real, &exp);  // real = frac · 2^exp, frac in [0.5, 1)
  int64_t mult = std::llround(frac * (int64_t{1} << 31));
  int shift = -exp;
  if (mult == (int64_t{1} << 31)) mult /= 2, --shift;
  if (shift < 0 || shift > 31) return std::nullopt;
  return Requant{static_cast<int32_t>(mult), shift};
}

namespace {

/// Value `id` when it is a one-element float32 constant above 0 (a scale), else 0.
double positiveScalar(const Graph& g, int id) {
  const Tensor* c = constantOf(g, id);
  return c && c->numel() == 1 && c->dtype() == DType::kFloat32 && c->data<float>()[0] > 0.0f ? c->data<float>()[0]
                                                                                              : 0.0;
}

/// Int8 view of a value's parameters: scale and the int8 zero point (uint8 shifts by -128).
struct I8 {
  double scale = 1.0;
  int32_t zero = 0;
};
std::optional<I8> i8Of(const runtime::QuantParams& q) {
  if (q.scale.size() != 1 || q.zeroPoint.size() != 1 || !(q.scale[0] > 0)) return std::nullopt;
  const int32_t z = q.dtype == DType::kUint8 ? q.zeroPoint[0] - 128 : q.zeroPoint[0];
  if (z < -128 || z > 127) return std::nullopt;
  return I8{q.scale[0], z};
}

int32_t roundClamp(double v, int32_t lo, int32_t hi) {
  const double r = std::nearbyint(v);
  return static_cast<int32_t>(r < lo ? lo : r > hi ? hi : r);
}

/// Builds the integer graph node by node.
class Quantizer {
 public:
  Quantizer(const Graph& src, std::vector<std::string>* notes) : src_(src), notes_(notes) {
    out_.model = src.model;
    floatOf_.assign(src.values.size(), -1);
    intOf_.assign(src.values.size(), -1);
  }
  support::Expected<Graph> run();

 private:
  int constant(const std::string& name, Tensor t) {
    Value v;
    v.name = name, v.dtype = t.dtype(), v.shape = t.shape(), v.constant = std::move(t);
    return out_.addValue(std::move(v));
  }
  int needFloat(int id);
  int needInt(int id);
  int intValue(int id, const I8& p);
  void note(const Node& n, const std::string& why) {
    if (notes_) notes_->push_back(n.name + ": stays float: " + why);
  }
  /// The Relu or Clip that directly follows `n`'s only reader, if fusable.
  const Node* fusedActivation(const Node& n) const;
  Status emitFloat(const Node& n);
  bool emitConvOrGemm(const Node& n, const Node* act);
  bool emitAdd(const Node& n, const Node* act);
  bool emitMove(const Node& n);
  bool emitAvgPool(const Node& n);
  // The integer ops beyond convolutions; each returns false (the node stays float) when not expressible.
  void emitQ(const Node& n, OpKind k, runtime::Attrs a, std::vector<int> inputs, int y, const I8& py);
  bool emitQOp(const Node& n, const Node* act);
  bool emitQClip(const Node& n);
  const Node* hardSwishMul(const Node& n) const;
  bool emitQHardSigmoid(const Node& n);
  bool emitQHardSwish(const Node& n, int x, int y, double alpha, double beta);
  int qOperand(int id, I8& p);
  bool emitQMul(const Node& n);
  bool emitQMatMul(const Node& n, const Node* act);
  std::pair<const Node*, double> scaledBy(const Node& n) const;
  bool emitQConcat(const Node& n);

  const Graph& src_;                 ///< the float graph
  std::vector<std::string>* notes_;  ///< why layers stay float
  Graph out_;                        ///< the integer graph
  std::vector<int> floatOf_, intOf_; ///< src value -> out value (float / int8 version)
  std::vector<bool> fused_;          ///< src nodes folded into an earlier one
};

int Quantizer::intValue(int id, const I8& p) {
  Value v = src_.values[id];
  v.name += ":q";
  v.dtype = DType::kInt8;
  v.constant.reset();
  v.quant = {{static_cast<float>(p.scale)}, {p.zero}, -1, DType::kInt8};
  return intOf_[id] = out_.addValue(std::move(v));
}

int Quantizer::needFloat(int id) {
  if (floatOf_[id] >= 0) return floatOf_[id];
  const Value& v = src_.values[id];
  const int qi = intOf_[id];
  Node dq;
  dq.kind = OpKind::kDequantizeLinear;
  dq.name = v.name + ":dequantize";
  dq.attrs = runtime::AxisAttrs{1};
  const runtime::QuantParams iq = out_.values[qi].quant;  // a copy: adding the constants moves the values
  const int scale = constant(v.name + ":scale", Tensor::of<float>({}, {iq.scale[0]}));
  dq.inputs = {qi, scale, constant(v.name + ":zero", Tensor::of<int8_t>({}, {static_cast<int8_t>(iq.zeroPoint[0])}))};
  Value f = v;
  f.constant.reset();
  f.quant = {};
  dq.outputs = {floatOf_[id] = out_.addValue(std::move(f))};
  out_.nodes.push_back(std::move(dq));
  return floatOf_[id];
}

int Quantizer::needInt(int id) {
  if (intOf_[id] >= 0) return intOf_[id];
  auto p = i8Of(src_.values[id].quant);
  if (!p) return -1;
  const int f = needFloat(id);
  Node q;
  q.kind = OpKind::kQuantizeLinear;
  q.name = src_.values[id].name + ":quantize";
  q.attrs = runtime::AxisAttrs{1};
  q.inputs = {f, constant(src_.values[id].name + ":qscale", Tensor::of<float>({}, {static_cast<float>(p->scale)})),
              constant(src_.values[id].name + ":qzero", Tensor::of<int8_t>({}, {static_cast<int8_t>(p->zero)}))};
  q.outputs = {intValue(id, *p)};
  out_.nodes.push_back(std::move(q));
  return intOf_[id];
}

const Node* Quantizer::fusedActivation(const Node& n) const {
  const int y = n.outputs[0];
  if (isBoundary(src_, y) || useCount(src_, y) != 1) return nullptr;
  for (const Node& m : src_.nodes) {
    if (m.inputs.empty() || m.inputs[0] != y) continue;
    if (m.kind == OpKind::kRelu) return &m;
    if (m.kind == OpKind::kClip && (m.inputs.size() < 2 || m.inputs[1] < 0 || constantOf(src_, m.inputs[1])) &&
        (m.inputs.size() < 3 || m.inputs[2] < 0 || constantOf(src_, m.inputs[2])))
      return &m;
  }
  return nullptr;
}

Status Quantizer::emitFloat(const Node& n) {
  Node m = n;
  for (int& id : m.inputs)
    if (id >= 0) id = src_.values[id].constant ? (floatOf_[id] >= 0 ? floatOf_[id] : floatOf_[id] = out_.addValue(src_.values[id])) : needFloat(id);
  for (int& id : m.outputs) {
    Value v = src_.values[id];
    v.quant = {};
    id = floatOf_[id] = out_.addValue(std::move(v));
  }
  out_.nodes.push_back(std::move(m));
  return Status::ok();
}

/// Clamp bounds, in the output's int8 domain, of an optional fused Relu/Clip.
std::pair<int32_t, int32_t> clampOf(const Graph& g, const Node* act, const I8& y) {
  int32_t lo = -128, hi = 127;
  if (!act) return {lo, hi};
  if (act->kind == OpKind::kRelu) return {std::max(lo, y.zero), hi};
  if (const Tensor* mn = act->inputs.size() > 1 ? constantOf(g, act->inputs[1]) : nullptr)
    lo = roundClamp(y.zero + mn->at(0) / y.scale, -128, 127);
  if (const Tensor* mx = act->inputs.size() > 2 ? constantOf(g, act->inputs[2]) : nullptr)
    hi = roundClamp(y.zero + mx->at(0) / y.scale, -128, 127);
  return {lo, hi};
}

/// Explicit (top, left, bottom, right) pads of a 2-D Conv, auto_pad resolved.
bool convPads(const runtime::ConvAttrs& a, const Shape& x, const Shape& w, runtime::Ints& pads) {
  pads = a.pads.empty() ? runtime::Ints(4, 0) : a.pads;
  if (a.autoPad == runtime::AutoPad::kNotSet || a.autoPad == runtime::AutoPad::kValid) {
    if (a.autoPad == runtime::AutoPad::kValid) pads.assign(4, 0);
    return pads.size() == 4;
  }
  for (int i = 0; i < 2; ++i) {
    const int64_t in = x[2 + i], k = w[2 + i], s = a.strides.empty() ? 1 : a.strides[i];
    const int64_t out = (in + s - 1) / s, total = std::max<int64_t>(0, (out - 1) * s + k - in);
    pads[i] = a.autoPad == runtime::AutoPad::kSameLower ? total - total / 2 : total / 2;
    pads[i + 2] = total - pads[i];
  }
  return true;
}

}  // namespace

bool Quantizer::emitConvOrGemm(const Node& n, const Node* act) {
  const bool conv = n.kind == OpKind::kConv;
  const int x = n.inputs[0], final = act ? act->outputs[0] : n.outputs[0];
  const Tensor* w = constantOf(src_, n.inputs[1]);
  const Tensor* b = n.inputs.size() > 2 && n.inputs[2] >= 0 ? constantOf(src_, n.inputs[2]) : nullptr;
  auto px = i8Of(src_.values[x].quant), py = i8Of(src_.values[final].quant);
  if (!px || !py) return note(n, "its input or output has no int8 quantization parameters"), false;
  if (!w || w->dtype() != DType::kFloat32 || (n.inputs.size() > 2 && n.inputs[2] >= 0 && !b))
    return note(n, "its weights or bias are not constants"), false;
  runtime::QConvAttrs qa;
  Tensor wt = *w;  // [M, ...] with the output channel first
  if (conv) {
    const auto& ca = std::get<runtime::ConvAttrs>(n.attrs);
    bool dil = true;
    for (int64_t d : ca.dilations) dil = dil && d == 1;
    if (!dil || w->rank() != 4 || !convPads(ca, src_.values[x].shape, w->shape(), qa.pads))
      return note(n, "only 2-D convolutions with dilation 1 are quantized"), false;
    qa.strides = ca.strides.empty() ? runtime::Ints{1, 1} : ca.strides;
    qa.group = ca.group;
  } else {
    const bool gemm = n.kind == OpKind::kGemm;
    const auto ga = gemm ? std::get<runtime::GemmAttrs>(n.attrs) : runtime::GemmAttrs{};
    if (ga.alpha != 1.0f || (b && ga.beta != 1.0f) || ga.transA || src_.values[x].shape.size() != 2 || w->rank() != 2 ||
        (b && b->numel() != (ga.transB ? w->dim(0) : w->dim(1))))
      return note(n, "only Gemm/MatMul y = x·W (+ c) with 2-D x is quantized"), false;
    if (!ga.transB) {  // W [K, M] -> [M, K]
      wt = Tensor(DType::kFloat32, {w->dim(1), w->dim(0)});
      for (int64_t r = 0; r < w->dim(0); ++r)
        for (int64_t c = 0; c < w->dim(1); ++c) wt.data<float>()[c * w->dim(0) + r] = w->data<float>()[r * w->dim(1) + c];
    }
  }
  const int64_t m = wt.dim(0), per = wt.numel() / m;
  Tensor wq(DType::kInt8, wt.shape());
  std::vector<int32_t> bias(m), mult(m), shift(m);
  const runtime::QuantParams& wp = src_.values[n.inputs[1]].quant;
  // An imported model's own weight integers are kept when they are symmetric
  // int8 per tensor, or per output channel (axis 0) of a convolution.
  const bool perTensor = wp.scale.size() == 1, perChannel = conv && wp.axis == 0 && static_cast<int64_t>(wp.scale.size()) == m;
  bool imported = !wp.empty() && (perTensor || perChannel);
  for (size_t i = 0; imported && i < wp.scale.size(); ++i)
    imported = wp.scale[i] > 0 && wp.zeroPoint[i] == 0 && wp.dtype == DType::kInt8;
  for (int64_t k = 0; k < m; ++k) {
    double sw = imported ? wp.scale[perTensor ? 0 : k] : 0.0;
    for (int64_t i = 0; imported && i < per; ++i)  // the integers must come back inside int8
      if (std::abs(wt.data<float>()[k * per + i] / sw) > 128.5) imported = false, sw = 0.0;
    if (!imported) {
      double mx = 0;
      for (int64_t i = 0; i < per; ++i) mx = std::max(mx, std::abs(static_cast<double>(wt.data<float>()[k * per + i])));
      sw = mx > 0 ? mx / 127.0 : 1.0;
    }
    int64_t sum = 0;
    for (int64_t i = 0; i < per; ++i) {
      const int32_t q = roundClamp(wt.data<float>()[k * per + i] / sw, imported ? -128 : -127, 127);
      wq.data<int8_t>()[k * per + i] = static_cast<int8_t>(q);
      sum += q;
    }
    const double bq = std::nearbyint((b ? b->at(k) : 0.0) / (px->scale * sw)) - static_cast<double>(px->zero) * sum;
    auto rq = requantOf(px->scale * sw / py->scale);
    if (std::abs(bq) >= 2147483647.0 || !rq)
      return note(n, "its bias or requantization factor is outside what the accelerator can express"), false;
    bias[k] = static_cast<int32_t>(bq), mult[k] = rq->mult, shift[k] = rq->shift;
  }
  const auto [lo, hi] = clampOf(src_, act, *py);
  qa.padValue = px->zero, qa.zeroPoint = py->zero, qa.lo = lo, qa.hi = hi;
  const int xi = needInt(x);
  Node q;
  q.kind = conv ? OpKind::kQConv : OpKind::kQGemm;
  q.name = n.name;
  q.attrs = qa;
  q.inputs = {xi, constant(n.name + ":weight", std::move(wq)), constant(n.name + ":bias", Tensor::of<int32_t>({m}, bias)),
              constant(n.name + ":mult", Tensor::of<int32_t>({m}, mult)),
              constant(n.name + ":shift", Tensor::of<int32_t>({m}, shift))};
  q.outputs = {intValue(final, *py)};
  out_.nodes.push_back(std::move(q));
  return true;
}

bool Quantizer::emitAdd(const Node& n, const Node* act) {
  const int a = n.inputs[0], b = n.inputs[1], final = act ? act->outputs[0] : n.outputs[0];
  auto pa = i8Of(src_.values[a].quant), pb = i8Of(src_.values[b].quant), py = i8Of(src_.values[final].quant);
  if (!pa || !pb || !py || src_.values[a].shape != src_.values[b].shape || src_.values[a].constant || src_.values[b].constant)
    return note(n, "Add is quantized only for two quantized activations of one shape"), false;
  const double ra = pa->scale / py->scale, rb = pb->scale / py->scale, mx = std::max(ra, rb);
  // mulq((a - za)·2^8, Ma)·2^-shift = (a - za)·ra  =>  Ma = ra·2^(23 + shift), the larger multiplier in
  // [2^29, 2^30): 30 bits, and -2·Ma still fits, which the accelerator's GEMM form needs (compiler/lower/add.h).
  const int shift = std::min(31, 6 - static_cast<int>(std::floor(std::log2(mx))));
  if (shift < 0) return note(n, "its scales differ too much for the integer add"), false;
  runtime::QAddAttrs qa;
  qa.zeroA = pa->zero, qa.zeroB = pb->zero, qa.shift = shift, qa.zeroPoint = py->zero;
  qa.multA = std::llround(ra * std::ldexp(1.0, 23 + shift));
  qa.multB = std::llround(rb * std::ldexp(1.0, 23 + shift));
  if (qa.multA >= (int64_t{1} << 31) || qa.multB >= (int64_t{1} << 31)) return note(n, "its scales overflow the integer add"), false;
  std::tie(qa.lo, qa.hi) = clampOf(src_, act, *py);
  Node q;
  q.kind = OpKind::kQAdd;
  q.name = n.name;
  q.attrs = qa;
  q.inputs = {needInt(a), needInt(b)};
  q.outputs = {intValue(final, *py)};
  out_.nodes.push_back(std::move(q));
  return true;
}

bool Quantizer::emitAvgPool(const Node& n) {
  const int x = n.inputs[0], y = n.outputs[0];
  const Shape& xs = src_.values[x].shape;
  auto px = i8Of(src_.values[x].quant), py = i8Of(src_.values[y].quant);
  if (!px || !py || xs.size() != 4 || n.outputs.size() != 1) return false;
  runtime::QPoolAttrs qa;
  if (n.kind == OpKind::kGlobalAveragePool) {
    qa.kernelShape = {xs[2], xs[3]};
  } else {
    const auto& a = std::get<runtime::PoolAttrs>(n.attrs);
    const bool padded = std::any_of(a.pads.begin(), a.pads.end(), [](int64_t v) { return v != 0; }) ||
                        a.autoPad == runtime::AutoPad::kSameUpper || a.autoPad == runtime::AutoPad::kSameLower;
    const bool dilated = std::any_of(a.dilations.begin(), a.dilations.end(), [](int64_t v) { return v != 1; });
    if (padded || dilated || a.kernelShape.size() != 2)
      return note(n, "only unpadded 2-D AveragePool is quantized"), false;
    qa.kernelShape = a.kernelShape, qa.strides = a.strides;
  }
  const int64_t sh = qa.strides.empty() ? 1 : qa.strides[0], sw = qa.strides.empty() ? 1 : qa.strides[1];
  const Shape& ys = src_.values[y].shape;
  if (ys.size() != 4 || ys[2] != (xs[2] - qa.kernelShape[0]) / sh + 1 || ys[3] != (xs[3] - qa.kernelShape[1]) / sw + 1)
    return note(n, "its windows reach past the input (ceil_mode)"), false;
  const int64_t window = qa.kernelShape[0] * qa.kernelShape[1];
  if (window * 255 * 256 >= (int64_t{1} << 31))  // (Σ x - K·zero_x)·2^8 must stay inside int32
    return note(n, "its window of " + std::to_string(window) + " elements is too large for the integer average"), false;
  const double real = px->scale / (py->scale * static_cast<double>(window));
  // mulq(acc·2^8, M)·2^-shift = acc·real: the requantization of real / 2^8.
  const std::optional<Requant> rq = requantOf(real / 256.0);
  if (!rq) return note(n, "its scales are out of range for the integer average"), false;
  qa.mult = rq->mult, qa.shift = rq->shift;
  qa.zeroX = px->zero, qa.zeroPoint = py->zero;
  Node q;
  q.kind = OpKind::kQAveragePool;
  q.name = n.name;
  q.attrs = qa;
  q.inputs = {needInt(x)};
  q.outputs = {intValue(y, *py)};
  out_.nodes.push_back(std::move(q));
  return true;
}

bool Quantizer::emitMove(const Node& n) {
  const int x = n.inputs[0];
  auto px = i8Of(src_.values[x].quant);
  if (!px || n.outputs.empty()) return false;
  for (int y : n.outputs) {
    if (src_.values[y].quant.empty()) continue;
    auto py = i8Of(src_.values[y].quant);
    if (!py || py->scale != px->scale || py->zero != px->zero) return false;  // a rescale is not a move
  }
  Node m = n;
  m.inputs[0] = needInt(x);
  for (size_t i = 1; i < m.inputs.size(); ++i) {
    const int id = m.inputs[i];
    if (id < 0) continue;
    if (!src_.values[id].constant) return false;
    m.inputs[i] = floatOf_[id] >= 0 ? floatOf_[id] : floatOf_[id] = out_.addValue(src_.values[id]);
  }
  for (int& y : m.outputs) y = intValue(y, *px);
  out_.nodes.push_back(std::move(m));
  return true;
}

// The integer ops beyond convolutions (runtime/kernels/qelementwise.cc has their semantics).

namespace {

/// M and s with mulq(d·2^8, M)·2^-s = d·r (QClip, QHardSigmoid, QConcat): M = r·2^(23 + s), normalized to
/// [2^30, 2^31) where the shift allows; nullopt when r >= 2^8 or M rounds to 0.
std::optional<Requant> rescaleOf(double r) {
  if (!(r > 0.0)) return std::nullopt;
  for (int s = std::min(31, 7 - static_cast<int>(std::floor(std::log2(r)))); s >= 0; --s) {
    const int64_t m = std::llround(std::ldexp(r, 23 + s));
    if (m <= 0) return std::nullopt;
    if (m < (int64_t{1} << 31)) return Requant{static_cast<int32_t>(m), s};
  }
  return std::nullopt;
}

bool fitsInt32(double v) { return std::abs(v) < 2147483647.0; }

}  // namespace

void Quantizer::emitQ(const Node& n, OpKind k, runtime::Attrs a, std::vector<int> inputs, int y, const I8& py) {
  Node q;
  q.kind = k;
  q.name = n.name;
  q.attrs = std::move(a);
  q.inputs = std::move(inputs);
  q.outputs = {intValue(y, py)};
  out_.nodes.push_back(std::move(q));
}

bool Quantizer::emitQOp(const Node& n, const Node* act) {
  if (n.kind == OpKind::kRelu || n.kind == OpKind::kClip) return emitQClip(n);
  if (n.kind == OpKind::kHardSigmoid) return emitQHardSigmoid(n);
  if (n.kind == OpKind::kHardSwish) return emitQHardSwish(n, n.inputs[0], n.outputs[0], 1.0 / 6.0, 0.5);
  if (n.kind == OpKind::kMul) return emitQMul(n);
  if (n.kind == OpKind::kMatMul && !constantOf(src_, n.inputs[0]) && !constantOf(src_, n.inputs[1]))
    return emitQMatMul(n, act);
  if (n.kind == OpKind::kConcat) return emitQConcat(n);
  return false;
}

/// A Relu or a Clip with constant bounds: a rescale to the output's scale, then the bounds as a clamp.
bool Quantizer::emitQClip(const Node& n) {
  for (size_t i = 1; i < n.inputs.size(); ++i)
    if (n.inputs[i] >= 0 && !constantOf(src_, n.inputs[i])) return note(n, "its Clip bounds are not constants"), false;
  const int x = n.inputs[0], y = n.outputs[0];
  auto px = i8Of(src_.values[x].quant), py = i8Of(src_.values[y].quant);
  if (!px || !py) return note(n, "its input or output has no int8 quantization parameters"), false;
  const std::optional<Requant> rq = rescaleOf(px->scale / py->scale);
  if (!rq) return note(n, "its input and output scales differ too much for the integer rescale"), false;
  runtime::QRescaleAttrs qa;
  qa.zeroX = px->zero, qa.mult = rq->mult, qa.shift = rq->shift, qa.zeroPoint = py->zero;
  std::tie(qa.lo, qa.hi) = clampOf(src_, &n, *py);
  emitQ(n, OpKind::kQClip, qa, {needInt(x)}, y, *py);
  return true;
}

/// The Mul reading a HardSigmoid's output and its input x: x·HardSigmoid(x), a hard-swish.
const Node* Quantizer::hardSwishMul(const Node& n) const {
  const int x = n.inputs[0], g = n.outputs[0];
  if (isBoundary(src_, g) || useCount(src_, g) != 1) return nullptr;
  for (const Node& m : src_.nodes)
    if (m.kind == OpKind::kMul && ((m.inputs[0] == x && m.inputs[1] == g) || (m.inputs[0] == g && m.inputs[1] == x)))
      return &m;
  return nullptr;
}

/// HardSigmoid: clamp(alpha·x + beta, 0, 1) with alpha·s_x/s_y as the rescale and beta/s_y·2^shift as the offset.
bool Quantizer::emitQHardSigmoid(const Node& n) {
  const auto& ab = std::get<runtime::AlphaBetaAttrs>(n.attrs);
  if (const Node* m = hardSwishMul(n)) {
    if (!emitQHardSwish(n, n.inputs[0], m->outputs[0], ab.alpha, ab.beta)) return false;
    fused_[m - src_.nodes.data()] = true;
    return true;
  }
  const int x = n.inputs[0], y = n.outputs[0];
  auto px = i8Of(src_.values[x].quant), py = i8Of(src_.values[y].quant);
  if (!px || !py) return note(n, "its input or output has no int8 quantization parameters"), false;
  const std::optional<Requant> rq = rescaleOf(ab.alpha * px->scale / py->scale);
  const double offset = std::nearbyint(std::ldexp(ab.beta / py->scale, rq ? rq->shift : 0));
  if (!rq || !fitsInt32(offset)) return note(n, "its slope or offset is outside the integer rescale"), false;
  runtime::QRescaleAttrs qa;
  qa.zeroX = px->zero, qa.mult = rq->mult, qa.shift = rq->shift, qa.offset = static_cast<int64_t>(offset);
  qa.zeroPoint = py->zero, qa.lo = std::max(-128, py->zero);
  qa.hi = std::min<int64_t>(127, py->zero + static_cast<int64_t>(std::nearbyint(1.0 / py->scale)));
  emitQ(n, OpKind::kQHardSigmoid, qa, {needInt(x)}, y, *py);
  return true;
}

/// x·clamp(alpha·x + beta, 0, 1) from x to y. The gate h is kept with one_h = 2^k, k = 14 unless the gate's
/// slope per input step alpha·s_x·2^k would reach 2^7 (then k shrinks, to 8 at least): h's rounding error is
/// at most 2^-(k+1), so the product's is |x|·2^-(k+1) <= 128·s_x·2^-15 = s_x/256 at k = 14, far below one
/// output step; d·h <= 255·2^14 stays well inside int32.
bool Quantizer::emitQHardSwish(const Node& n, int x, int y, double alpha, double beta) {
  auto px = i8Of(src_.values[x].quant), py = i8Of(src_.values[y].quant);
  if (!px || !py || !(alpha > 0)) return note(n, "its input or output has no int8 quantization parameters"), false;
  int k = 14;
  while (k > 8 && std::ldexp(alpha * px->scale, k) >= 128.0) --k;
  const double oneH = std::ldexp(1.0, k);
  const std::optional<Requant> gate = rescaleOf(alpha * px->scale * oneH);
  const std::optional<Requant> prod = requantOf(px->scale / (oneH * py->scale));
  const double offset = std::nearbyint(std::ldexp(beta * oneH, gate ? gate->shift : 0));
  if (!gate || !prod || !fitsInt32(offset)) return note(n, "its scales are outside the integer hard-swish"), false;
  runtime::QHardSwishAttrs qa;
  qa.zeroX = px->zero, qa.multH = gate->mult, qa.offsetH = static_cast<int64_t>(offset), qa.shiftH = gate->shift;
  qa.oneH = int64_t{1} << k, qa.mult = prod->mult, qa.shift = prod->shift, qa.zeroPoint = py->zero;
  emitQ(n, OpKind::kQHardSwish, qa, {needInt(x)}, y, *py);
  return true;
}

/// An int8 operand: a quantized activation, or a float constant as symmetric int8 per tensor (its imported
/// integers when it has them). -1 when neither.
int Quantizer::qOperand(int id, I8& p) {
  const Tensor* t = constantOf(src_, id);
  if (!t) {
    auto q = i8Of(src_.values[id].quant);
    if (!q) return -1;
    p = *q;
    return needInt(id);
  }
  if (t->dtype() != DType::kFloat32) return -1;
  const runtime::QuantParams& qp = src_.values[id].quant;
  double mx = 0, s = qp.scale.size() == 1 && qp.zeroPoint[0] == 0 && qp.dtype == DType::kInt8 ? qp.scale[0] : 0.0;
  for (int64_t i = 0; i < t->numel(); ++i) mx = std::max(mx, std::abs(static_cast<double>(t->data<float>()[i])));
  if (!(s > 0) || mx / s > 128.5) s = mx > 0 ? mx / 127.0 : 1.0;
  Tensor q(DType::kInt8, t->shape());
  for (int64_t i = 0; i < t->numel(); ++i) q.data<int8_t>()[i] = static_cast<int8_t>(roundClamp(t->data<float>()[i] / s, -128, 127));
  p = I8{s, 0};
  return constant(src_.values[id].name + ":int8", std::move(q));
}

/// Mul of two quantized activations, or of one and a float constant: mulq by s_a·s_b/s_y.
bool Quantizer::emitQMul(const Node& n) {
  const int y = n.outputs[0];
  auto py = i8Of(src_.values[y].quant);
  if (!py || (constantOf(src_, n.inputs[0]) && constantOf(src_, n.inputs[1])) ||
      !(constantOf(src_, n.inputs[0]) || i8Of(src_.values[n.inputs[0]].quant)) ||
      !(constantOf(src_, n.inputs[1]) || i8Of(src_.values[n.inputs[1]].quant)))
    return note(n, "Mul is quantized only for quantized activations and float constants"), false;
  I8 pa, pb;
  const int a = qOperand(n.inputs[0], pa), b = qOperand(n.inputs[1], pb);
  const std::optional<Requant> rq = requantOf(pa.scale * pb.scale / py->scale);
  if (a < 0 || b < 0 || !rq) return note(n, "its scales are outside the integer multiply"), false;
  runtime::QMulAttrs qa;
  qa.zeroA = pa.zero, qa.zeroB = pb.zero, qa.mult = rq->mult, qa.shift = rq->shift, qa.zeroPoint = py->zero;
  emitQ(n, OpKind::kQMul, qa, {a, b}, y, *py);
  return true;
}

/// The Mul by a positive float scalar constant that alone reads `n`'s output (attention's scores scaled by
/// 1/sqrt(d_k), a Div made a Mul), and the scalar; or null.
std::pair<const Node*, double> Quantizer::scaledBy(const Node& n) const {
  const int y = n.outputs[0];
  if (isBoundary(src_, y) || useCount(src_, y) != 1) return {nullptr, 0.0};
  for (const Node& m : src_.nodes) {
    if (m.kind != OpKind::kMul || m.inputs.size() != 2 || m.inputs[0] != y) continue;
    const double c = positiveScalar(src_, m.inputs[1]);
    return c > 0 ? std::pair<const Node*, double>{&m, c} : std::pair<const Node*, double>{nullptr, 0.0};
  }
  return {nullptr, 0.0};
}

/// MatMul of two quantized activations (attention's Q·K^T, attn·V), with an optional fused Relu/Clip, or else
/// the positive scalar Mul after it folded into its requantization.
bool Quantizer::emitQMatMul(const Node& n, const Node* act) {
  const auto [scale, by] = act ? std::pair<const Node*, double>{nullptr, 0.0} : scaledBy(n);
  const int a = n.inputs[0], b = n.inputs[1], y = act ? act->outputs[0] : scale ? scale->outputs[0] : n.outputs[0];
  auto pa = i8Of(src_.values[a].quant), pb = i8Of(src_.values[b].quant), py = i8Of(src_.values[y].quant);
  const Shape &sa = src_.values[a].shape, &sb = src_.values[b].shape;
  if (!pa || !pb || !py || sa.size() < 2 || sb.size() < 2)
    return note(n, "MatMul of activations is quantized only for quantized operands of rank >= 2"), false;
  if (sa.back() * 255 * 255 >= (int64_t{1} << 31))  // Σ_k of products of up to 255·255 must not wrap
    return note(n, "its inner dimension " + std::to_string(sa.back()) + " is too long for an int32 sum"), false;
  const std::optional<Requant> rq = requantOf(pa->scale * pb->scale * (scale ? by : 1.0) / py->scale);
  if (!rq) return note(n, "its scales are outside the integer matrix product"), false;
  runtime::QMulAttrs qa;
  qa.zeroA = pa->zero, qa.zeroB = pb->zero, qa.mult = rq->mult, qa.shift = rq->shift, qa.zeroPoint = py->zero;
  std::tie(qa.lo, qa.hi) = clampOf(src_, act, *py);
  emitQ(n, OpKind::kQMatMul, qa, {needInt(a), needInt(b)}, y, *py);
  if (scale) fused_[static_cast<size_t>(scale - src_.nodes.data())] = true;
  return true;
}

/// Concat of quantized activations, each rescaled to the output's scale with one shared shift (the largest
/// ratio's): equal scales and zero points give mult 2^(23 + shift), a copy.
bool Quantizer::emitQConcat(const Node& n) {
  const int y = n.outputs[0];
  auto py = i8Of(src_.values[y].quant);
  double mx = 0;
  for (int id : n.inputs) {
    auto p = i8Of(src_.values[id].quant);
    if (!py || !p || src_.values[id].constant)
      return note(n, "Concat is quantized only for quantized activations"), false;
    mx = std::max(mx, p->scale / py->scale);
  }
  const std::optional<Requant> top = rescaleOf(mx);
  if (!top) return note(n, "its input scales are too large for the integer rescale"), false;
  runtime::QConcatAttrs qa;
  qa.axis = std::get<runtime::AxisAttrs>(n.attrs).axis, qa.shift = top->shift, qa.zeroPoint = py->zero;
  std::vector<int> inputs;
  for (int id : n.inputs) {
    const I8 p = *i8Of(src_.values[id].quant);
    qa.zeros.push_back(p.zero);
    qa.mults.push_back(std::min<int64_t>(std::llround(std::ldexp(p.scale / py->scale, 23 + top->shift)), top->mult));
    inputs.push_back(needInt(id));
  }
  emitQ(n, OpKind::kQConcat, qa, std::move(inputs), y, *py);
  return true;
}

namespace {

/// A 2-D row-major shape constant for Reshape.
int shapeConstant(Graph& g, const std::string& name, const Shape& s) {
  Value v;
  v.name = name, v.dtype = DType::kInt64, v.shape = {static_cast<int64_t>(s.size())};
  v.constant = Tensor::of<int64_t>({static_cast<int64_t>(s.size())}, s);
  return g.addValue(std::move(v));
}

/// The Add that alone reads MatMul `n`'s output and adds a float constant bias along its last axis: its
/// node index, and the bias as a 1-D [N] constant; nothing otherwise.
std::optional<std::pair<size_t, int>> biasAdd(Graph& g, const Node& n, int64_t cols) {
  const int y = n.outputs[0];
  if (useCount(g, y) != 1 || isBoundary(g, y)) return std::nullopt;
  for (size_t j = 0; j < g.nodes.size(); ++j) {
    const Node& a = g.nodes[j];
    if (a.kind != OpKind::kAdd || (a.inputs[0] != y && a.inputs[1] != y)) continue;
    const Tensor* b = constantOf(g, a.inputs[a.inputs[0] == y ? 1 : 0]);
    if (!b || b->dtype() != DType::kFloat32 || b->numel() != cols || b->rank() > static_cast<int>(g.values[y].shape.size()) ||
        (b->rank() > 0 && b->dim(-1) != cols) || g.values[a.outputs[0]].quant.empty())
      return std::nullopt;
    Tensor flat = *b;
    flat.reshape({cols});
    Value v;
    v.name = g.values[a.inputs[a.inputs[0] == y ? 1 : 0]].name + ":bias";
    v.dtype = DType::kFloat32, v.shape = {cols}, v.constant = std::move(flat);
    return std::make_pair(j, g.addValue(std::move(v)));
  }
  return std::nullopt;
}

/// MatMul x [..., K] · W [K, N] with W a 2-D float constant and x, y quantized becomes a Gemm of rows:
///   Reshape(x, [R, K]) -> Gemm(W, bias) -> Reshape(y, [..., N])
/// (no reshapes when x is 2-D), so the QGemm path takes it; the reshapes are moves (the new values keep x's and
/// y's parameters). An Add of a constant bias along the last axis that alone reads y becomes the Gemm's bias.
void flattenBatchedMatmuls(Graph& g) {
  std::vector<bool> drop(g.nodes.size(), false);
  std::map<int, int> rows;  // x -> its rows
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node n = g.nodes[i];
    if (n.kind != OpKind::kMatMul || g.values[n.inputs[0]].shape.size() < 2) continue;
    const Tensor* w = constantOf(g, n.inputs[1]);
    const Value x = g.values[n.inputs[0]];
    if (!w || w->rank() != 2 || w->dtype() != DType::kFloat32 || x.quant.empty() || x.constant) continue;
    const int64_t cols = w->dim(1);  // (adding values below moves the constants)
    const auto bias = biasAdd(g, n, cols);
    const int out = bias ? g.nodes[bias->first].outputs[0] : n.outputs[0];  // what the Gemm's rows end in
    const Value y = g.values[out];
    if (y.quant.empty() || (x.shape.size() == 2 && !bias)) continue;
    if (bias) drop[bias->first] = true;
    g.nodes[i].kind = OpKind::kGemm;
    g.nodes[i].attrs = runtime::GemmAttrs{};
    if (bias) g.nodes[i].inputs.push_back(bias->second);
    if (x.shape.size() == 2) {
      g.nodes[i].outputs[0] = out;
      continue;
    }
    Value y2 = y;
    y2.name += ":rows";
    y2.shape = {support::shapeElements(x.shape) / x.shape.back(), cols};
    const int yr = g.addValue(y2);
    Node r2{OpKind::kReshape, n.name + ":unrows", runtime::ReshapeAttrs{}, {yr, shapeConstant(g, y.name + ":shape", y.shape)}, {out}};
    g.nodes[i].outputs[0] = yr;
    g.nodes.insert(g.nodes.begin() + static_cast<long>(i) + 1, std::move(r2));
    drop.insert(drop.begin() + static_cast<long>(i) + 1, false);
    auto shared = rows.find(n.inputs[0]);  // one reshape of x for every projection of it (Q, K and V)
    if (shared != rows.end()) {
      g.nodes[i].inputs[0] = shared->second;
      ++i;
      continue;
    }
    Value x2 = x;
    x2.name += ":rows";
    x2.shape = {y2.shape[0], x.shape.back()};
    const int xr = rows[n.inputs[0]] = g.addValue(x2);
    Node r1{OpKind::kReshape, n.name + ":rows", runtime::ReshapeAttrs{}, {n.inputs[0], shapeConstant(g, x2.name + ":shape", x2.shape)}, {xr}};
    g.nodes[i].inputs[0] = xr;
    g.nodes.insert(g.nodes.begin() + static_cast<long>(i), std::move(r1));
    drop.insert(drop.begin() + static_cast<long>(i), false);
    i += 2;
  }
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
}

/// Div of a quantized activation by a float constant becomes Mul by its reciprocal, so the QMul path takes it
/// (attention's division by sqrt(d_k)).
void divAsMul(Graph& g) {
  for (Node& n : g.nodes) {
    if (n.kind != OpKind::kDiv || g.values[n.inputs[0]].quant.empty() || g.values[n.outputs[0]].quant.empty()) continue;
    const Tensor* c = constantOf(g, n.inputs[1]);
    if (!c || c->dtype() != DType::kFloat32) continue;
    Tensor r = *c;
    bool finite = true;
    for (int64_t i = 0; i < r.numel(); ++i) {
      const float v = 1.0f / r.data<float>()[i];
      finite = finite && std::isfinite(v) && v != 0.0f;
      r.data<float>()[i] = v;
    }
    if (!finite) continue;
    Value v;
    v.name = g.values[n.inputs[1]].name + ":reciprocal";
    v.dtype = DType::kFloat32, v.shape = r.shape(), v.constant = std::move(r);
    n.kind = OpKind::kMul;
    n.inputs[1] = g.addValue(std::move(v));
  }
}

/// A Mul by a positive float scalar that alone feeds a MatMul of two activations moves after it:
///   MatMul(Mul(x, c), b) -> Mul(MatMul(x, b), c)
/// (attention's query scaled by 1/sqrt(d_k) before Q·K^T), so that the QMatMul folds c into its requantization
/// (Quantizer::scaledBy). The product before the scale is a new value without quantization parameters.
void scalesAfterMatmuls(Graph& g) {
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.kind != OpKind::kMatMul || n.inputs.size() != 2 || constantOf(g, n.inputs[0]) || constantOf(g, n.inputs[1]))
      continue;
    for (int k = 0; k < 2; ++k) {
      const int in = g.nodes[i].inputs[k];
      const Node* p = producer(g, in);
      if (!p || p->kind != OpKind::kMul || p->inputs.size() != 2 || !(positiveScalar(g, p->inputs[1]) > 0) ||
          useCount(g, in) != 1 || isBoundary(g, in) || g.values[p->inputs[0]].quant.empty())
        continue;
      const size_t pi = static_cast<size_t>(p - g.nodes.data());
      Value product = g.values[g.nodes[i].outputs[0]];
      product.name += ":unscaled", product.quant = {};
      const int pv = g.addValue(std::move(product));
      Node scale = g.nodes[pi];
      g.nodes[i].inputs[k] = scale.inputs[0];
      scale.inputs[0] = pv, scale.outputs[0] = g.nodes[i].outputs[0];
      g.nodes[i].outputs[0] = pv;
      g.nodes.insert(g.nodes.begin() + static_cast<long>(i) + 1, std::move(scale));
      g.nodes.erase(g.nodes.begin() + static_cast<long>(pi));  // before i: the MatMul moves up one
      --i;
      break;
    }
  }
}

}  // namespace

support::Expected<Graph> Quantizer::run() {
  fused_.assign(src_.nodes.size(), false);
  for (int id : src_.inputs) {
    Value v = src_.values[id];
    v.quant = {};
    out_.inputs.push_back(floatOf_[id] = out_.addValue(std::move(v)));
  }
  for (size_t i = 0; i < src_.nodes.size(); ++i) {
    if (fused_[i]) continue;
    const Node& n = src_.nodes[i];
    const bool matmul = n.kind == OpKind::kConv || n.kind == OpKind::kGemm || n.kind == OpKind::kMatMul;
    const bool move = movesValues(n.kind);
    const Node* act = matmul || n.kind == OpKind::kAdd ? fusedActivation(n) : nullptr;
    const bool avg = n.kind == OpKind::kAveragePool || n.kind == OpKind::kGlobalAveragePool;
    bool done = emitQOp(n, act) || (matmul && emitConvOrGemm(n, act)) || (n.kind == OpKind::kAdd && emitAdd(n, act)) ||
                (move && emitMove(n)) || (avg && emitAvgPool(n));
    if (done && act) fused_[act - src_.nodes.data()] = true;
    if (!done) ACCELC_TRY(emitFloat(n));
  }
  for (int id : src_.outputs) out_.outputs.push_back(needFloat(id));
  canonicalize(out_);
  ACCELC_TRY(verify(out_));
  return std::move(out_);
}

support::Expected<Graph> quantizeGraph(const Graph& g, std::vector<std::string>* notes) {
  Graph flat = g;
  flattenBatchedMatmuls(flat);
  divAsMul(flat);
  scalesAfterMatmuls(flat);
  Quantizer q(flat, notes);
  return q.run();
}

}  // namespace accelc::compiler
