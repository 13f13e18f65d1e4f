// compiler/driver/lowering.cc — the back end's shared helpers: DRAM
// allocation, fills and layouts, and a node's accelerator layer.
#include "compiler/driver/lowering.h"

#include <algorithm>

#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

using support::error;
using support::Expected;
using support::Status;

uint64_t Lowering::alloc(uint64_t bytes) {
  const uint64_t at = cursor;
  cursor = (cursor + bytes + align - 1) / align * align;
  return at;
}

int8_t Lowering::zeroPoint(int v) const {
  const Value& val = g.values[v];
  return static_cast<int8_t>(val.quant.zeroPoint.empty() ? 0 : val.quant.zeroPoint[0]);
}

namespace {

/// Whether node `n` reads the borders of what it reads from input 0: a padded QConv (`conv`) or MaxPool.
bool readsBorders(const Graph& g, const Node& n, bool conv) {
  if (n.inputs.empty() || n.kind != (conv ? OpKind::kQConv : OpKind::kMaxPool)) return false;
  const Value &x = g.values[n.inputs[0]], &y = g.values[n.outputs[0]];
  if (x.shape.size() != 4 || y.shape.size() != 4) return false;
  if (conv) {
    const Shape p = padsOf(std::get<runtime::QConvAttrs>(n.attrs));
    return std::any_of(p.begin(), p.end(), [](int64_t v) { return v != 0; });
  }
  const auto& a = std::get<runtime::PoolAttrs>(n.attrs);
  const int64_t sh = a.strides.empty() ? 1 : a.strides[0], sw = a.strides.size() < 2 ? 1 : a.strides[1];
  return a.kernelShape.size() == 2 && (std::any_of(a.pads.begin(), a.pads.end(), [](int64_t v) { return v != 0; }) ||
                                       (y.shape[2] - 1) * sh + a.kernelShape[0] > x.shape[2] ||
                                       (y.shape[3] - 1) * sw + a.kernelShape[1] > x.shape[3]);
}

}  // namespace

int8_t Lowering::bareFill(int v) const {
  const int root = v < static_cast<int>(views.size()) && views[v].parent >= 0 ? views[v].parent : v;
  bool pool = false, conv = false;
  for (const Node& n : g.nodes) {
    if (n.inputs.empty() || n.inputs[0] < 0) continue;
    const int x = n.inputs[0];
    if (x != root && !(x < static_cast<int>(views.size()) && views[x].parent == root)) continue;
    pool = pool || readsBorders(g, n, false), conv = conv || readsBorders(g, n, true);
  }
  return pool && !conv ? int8_t{-128} : zeroPoint(v);
}

runtime::BlockedLayout Lowering::trialLayout(int v) const {
  const Value& val = g.values[v];
  const Shape& b = borders[v];
  runtime::BlockedLayout l{val.shape[0], val.shape[1], val.shape[2], val.shape[3], hw.blockIn, b[0], b[1], b[2], b[3],
                           bareFill(v)};
  if (rowBlocks(v) != l.blocks()) l.pitch = rowBlocks(v);
  return l;
}

runtime::BlockedLayout Lowering::rowsLayout(int v) const {
  const Shape d = *runtime::blockedShape(g.values[v].shape, runtime::BlockedForm::kRows, hw.blockIn);
  return {d[0], d[1], d[2], d[3], hw.blockIn, 0, 0, 0, 0, bareFill(v)};
}

int64_t Lowering::rowBlocks(int v) const {
  const int p = v < static_cast<int>(views.size()) ? views[v].parent : -1;
  return (g.values[p < 0 ? v : p].shape[1] + hw.blockIn - 1) / hw.blockIn;
}

void Lowering::shareViewBorders() {
  if (views.empty()) return;
  for (size_t v = 0; v < views.size(); ++v)
    if (views[v].parent >= 0)
      for (int j = 0; j < 4; ++j) borders[views[v].parent][j] = std::max(borders[views[v].parent][j], borders[v][j]);
  for (size_t v = 0; v < views.size(); ++v)
    if (views[v].parent >= 0) borders[v] = borders[views[v].parent];
}

const MovePlan* Lowering::moveView(int v) const {
  const Node* p = placements.empty() ? nullptr : producer(g, v);
  if (!p) return nullptr;
  const auto* m = std::get_if<MovePlan>(&placements[static_cast<size_t>(p - g.nodes.data())].plan);
  return m && m->root >= 0 ? m : nullptr;
}

bool Lowering::atLeastZeroPoint(int v) const {
  const int64_t zp = zeroPoint(v);
  for (const Node& m : g.nodes) {
    if (m.outputs.empty() || m.outputs[0] != v) continue;
    if (const auto* c = std::get_if<runtime::QConvAttrs>(&m.attrs)) return c->lo >= zp;
    if (const auto* a = std::get_if<runtime::QAddAttrs>(&m.attrs)) return a->lo >= zp;
    if (const auto* p = std::get_if<runtime::QPoolAttrs>(&m.attrs)) return p->lo >= zp;
    if (m.kind == OpKind::kMaxPool) return zeroPoint(m.inputs[0]) == zp && atLeastZeroPoint(m.inputs[0]);
    if (m.kind == OpKind::kQConcat)  // copies of values of the same zero point (the views' condition)
      return std::all_of(m.inputs.begin(), m.inputs.end(),
                         [&](int x) { return zeroPoint(x) == zp && atLeastZeroPoint(x); });
    return false;
  }
  return false;
}

Shape padsOf(const runtime::QConvAttrs& a) {
  return a.pads.empty() ? Shape{0, 0, 0, 0} : Shape(a.pads.begin(), a.pads.end());
}

Expected<lower::ConvLayer> convLayerOf(const Lowering& s, const Node& n, const Shape& bx) {
  const Graph& g = s.g;
  const auto& a = std::get<runtime::QConvAttrs>(n.attrs);
  const Value &x = g.values[n.inputs[0]], &y = g.values[n.outputs[0]];
  lower::ConvLayer l;
  l.name = n.name;
  l.weight = *g.values[n.inputs[1]].constant;
  for (int i = 2; i < 5; ++i)
    if (!g.values[n.inputs[i]].constant) return error(g.loc(n), "bias, multiplier and shift must be constants");
  auto ints = [&](int i) {
    const Tensor& c = *g.values[n.inputs[i]].constant;
    return std::vector<int32_t>(c.data<int32_t>(), c.data<int32_t>() + c.numel());
  };
  l.bias = ints(2), l.mult = ints(3), l.shift = ints(4);
  l.zeroPoint = a.zeroPoint, l.lo = std::max<int64_t>(a.lo, -128), l.hi = std::min<int64_t>(a.hi, 127);
  const int8_t zx = static_cast<int8_t>(a.padValue);
  if (n.kind == OpKind::kQGemm) {  // [N, K] as a row of N pixels
    l.m = l.weight.dim(0);
    l.weight.reshape({l.m, l.weight.dim(1), 1, 1});
    l.oh = 1, l.ow = x.shape[0];
    l.x = {1, x.shape[1], 1, x.shape[0], s.hw.blockIn, 0, 0, 0, 0, zx};
    l.y = {1, l.m, 1, x.shape[0], s.hw.blockOut, 0, 0, 0, 0, static_cast<int8_t>(a.zeroPoint)};
    return l;
  }
  const Shape p = padsOf(a);
  l.m = l.weight.dim(0), l.kh = l.weight.dim(2), l.kw = l.weight.dim(3);
  l.sh = a.strides.empty() ? 1 : a.strides[0], l.sw = a.strides.empty() ? 1 : a.strides[1];
  l.pt = p[0], l.pl = p[1];
  l.oh = y.shape[2], l.ow = y.shape[3];
  l.x = {x.shape[0], x.shape[1], x.shape[2], x.shape[3], s.hw.blockIn, bx[0], bx[1], bx[2], bx[3], zx};
  l.y = {y.shape[0], l.m, l.oh, l.ow, s.hw.blockOut, 0, 0, 0, 0, static_cast<int8_t>(a.zeroPoint)};
  l.group = a.group;
  if (l.group < 1 || l.x.c % l.group || l.m % l.group)
    return error(g.loc(n), std::to_string(l.group) + " groups do not divide " + std::to_string(l.x.c) + " input and " +
                               std::to_string(l.m) + " output channels");
  // Groups that do not map onto blocks run as one dense convolution with zero weights across groups.
  return lower::groupForm(l, s.hw) ? l : lower::denseOf(l);
}

Expected<lower::ConvLayer> matmulLayerOf(const Lowering& s, const Node& n) {
  const auto& q = std::get<runtime::QMulAttrs>(n.attrs);
  const Value &a = s.g.values[n.inputs[0]], &b = s.g.values[n.inputs[1]], &y = s.g.values[n.outputs[0]];
  const size_t rank = a.shape.size();
  if (rank < 2 || b.shape.size() != rank || !std::equal(a.shape.begin(), a.shape.end() - 2, b.shape.begin()))
    return error(s.g.loc(n), "only matrix products whose operands have the same batch dimensions run on the "
                             "accelerator");
  if (a.dtype != support::DType::kInt8 || b.dtype != support::DType::kInt8 || a.shape.back() != b.shape[rank - 2])
    return error(s.g.loc(n), "expected int8 operands [..., M, K] and [..., K, N]");
  if (q.zeroA != 0 || q.zeroB != 0)
    return error(s.g.loc(n), "the operands' zero points are " + std::to_string(q.zeroA) + " and " +
                                 std::to_string(q.zeroB) + "; the accelerator's form needs 0 (symmetric activations)");
  if (const std::string why = runtime::attrsProblem(q); !why.empty()) return error(s.g.loc(n), why);
  if (y.shape.size() != rank) return error(s.g.loc(n), "the product's rank differs from its operands'");
  lower::ConvLayer l = lower::matmulLayer(n.name, a.shape, b.shape, q, s.hw);
  l.x.fill = s.bareFill(n.inputs[0]), l.y.fill = s.bareFill(n.outputs[0]);
  return l;
}

bool isEltwise(const Node& n) {
  return n.kind == OpKind::kQClip || n.kind == OpKind::kQHardSigmoid || n.kind == OpKind::kQHardSwish ||
         n.kind == OpKind::kQMul;
}

bool eltwiseOnRows(const Lowering& s, const Node& n) {
  const size_t rank = s.g.values[n.inputs[0]].shape.size();
  return isEltwise(n) && n.kind != OpKind::kQMul && rank >= 2 && rank != 4;
}

bool onRows(const Lowering& s, const Node& n) {
  if (n.kind == OpKind::kQGemm || n.kind == OpKind::kQMatMul) return true;
  if (n.kind == OpKind::kQAdd) return s.g.values[n.inputs[0]].shape.size() != 4;
  return eltwiseOnRows(s, n);
}

std::vector<int> eltwiseOperands(const Lowering& s, const Node& n) {
  if (n.kind != OpKind::kQMul) return {n.inputs[0]};
  int a = n.inputs[0], b = n.inputs[1];
  const bool smaller = s.g.values[b].shape.size() == 4 && s.g.values[a].shape.size() == 4 &&
                       support::shapeElements(s.g.values[a].shape) < support::shapeElements(s.g.values[b].shape);
  if (s.g.values[a].constant || smaller)
    std::swap(a, b);  // x is the activation of the full shape
  return s.g.values[b].constant ? std::vector<int>{a} : std::vector<int>{a, b};
}

namespace {

/// QMul's b: its kind, layout or constant values; the zero points follow when the operands were swapped.
Status mulOperand(const Lowering& s, const Node& n, lower::EltwiseLayer& l) {
  auto& q = std::get<runtime::QMulAttrs>(l.attrs);
  if (n.inputs[0] != eltwiseOperands(s, n)[0]) std::swap(q.zeroA, q.zeroB);
  const int b = n.inputs[0] == eltwiseOperands(s, n)[0] ? n.inputs[1] : n.inputs[0];
  const Value& bv = s.g.values[b];
  const Shape& x = s.g.values[eltwiseOperands(s, n)[0]].shape;
  if (bv.constant) {
    const bool perChannel = (bv.shape == Shape{1, x[1], 1, 1} || bv.shape == Shape{x[1], 1, 1}) &&
                            bv.dtype == support::DType::kInt8;
    if (!perChannel) return error(s.g.loc(n), "only a per-channel constant multiplier runs on the accelerator");
    l.operand = lower::MulOperand::kConstant;
    l.constant.assign(bv.constant->data<int8_t>(), bv.constant->data<int8_t>() + bv.constant->numel());
    return Status::ok();
  }
  if (bv.shape.size() != 4) return error(s.g.loc(n), "only 4-D multiplications run on the accelerator");
  l.operand = bv.shape == x ? lower::MulOperand::kSame : lower::MulOperand::kGate;
  if (l.operand == lower::MulOperand::kGate && bv.shape != Shape{x[0], x[1], 1, 1})
    return error(s.g.loc(n), "a multiplication broadcasting other than per image and channel stays on the host");
  l.b = s.trialLayout(b);
  return Status::ok();
}

}  // namespace

Expected<lower::EltwiseLayer> eltwiseLayerOf(const Lowering& s, const Node& n) {
  const std::vector<int> ops = eltwiseOperands(s, n);
  const Value& x = s.g.values[ops[0]];
  const bool rows = eltwiseOnRows(s, n);
  if (!(x.shape.size() == 4 || rows) || x.dtype != support::DType::kInt8 || s.g.values[n.outputs[0]].shape != x.shape)
    return error(s.g.loc(n), "only elementwise ops on int8 tensors of the output's shape, 4-D (or rows of any "
                             "other rank for one operand), run on the accelerator");
  // Rows [..., M, K] are stored as [B, K, 1, M] (a dense layer's layout): elementwise, the same op.
  auto layout = [&](int v) { return rows ? s.rowsLayout(v) : s.trialLayout(v); };
  lower::EltwiseLayer l;
  l.name = n.name;
  l.x = layout(ops[0]), l.y = layout(n.outputs[0]);
  if (const auto* r = std::get_if<runtime::QRescaleAttrs>(&n.attrs)) l.attrs = *r;
  if (const auto* h = std::get_if<runtime::QHardSwishAttrs>(&n.attrs)) l.attrs = *h;
  if (const auto* m = std::get_if<runtime::QMulAttrs>(&n.attrs)) {
    l.attrs = *m;
    ACCELC_TRY(mulOperand(s, n, l));
  }
  return l;
}

Expected<lower::PoolLayer> poolLayerOf(const Lowering& s, const Node& n) {
  const Value &x = s.g.values[n.inputs[0]], &y = s.g.values[n.outputs[0]];
  auto refuse = [&](const std::string& why) { return error(s.g.loc(n), why); };
  if (n.kind == OpKind::kQAveragePool) {  // unpadded by construction
    const auto& q = std::get<runtime::QPoolAttrs>(n.attrs);
    if (x.shape.size() != 4 || q.kernelShape.size() != 2)
      return refuse("only 2-D QAveragePool runs on the accelerator");
    lower::PoolLayer l;
    l.name = n.name, l.average = true, l.avg = q;
    l.kh = q.kernelShape[0], l.kw = q.kernelShape[1];
    l.sh = q.strides.empty() ? 1 : q.strides[0], l.sw = q.strides.empty() ? 1 : q.strides[1];
    l.oh = y.shape[2], l.ow = y.shape[3];
    return l;
  }
  const auto& a = std::get<runtime::PoolAttrs>(n.attrs);
  if (x.dtype != support::DType::kInt8 || x.shape.size() != 4 || a.kernelShape.size() != 2 || n.outputs.size() != 1)
    return refuse("only 2-D int8 MaxPool runs on the accelerator");
  for (int64_t v : a.dilations)
    if (v != 1) return refuse("dilated MaxPool stays on the host");
  if (a.autoPad == runtime::AutoPad::kSameUpper || a.autoPad == runtime::AutoPad::kSameLower)
    return refuse("auto-padded MaxPool stays on the host");
  lower::PoolLayer l;
  l.name = n.name;
  l.kh = a.kernelShape[0], l.kw = a.kernelShape[1];
  l.sh = a.strides.empty() ? 1 : a.strides[0], l.sw = a.strides.empty() ? 1 : a.strides[1];
  l.pt = a.pads.empty() ? 0 : a.pads[0], l.pl = a.pads.empty() ? 0 : a.pads[1];
  l.oh = y.shape[2], l.ow = y.shape[3];
  const bool padded = std::any_of(a.pads.begin(), a.pads.end(), [](int64_t v) { return v != 0; }) ||
                      (l.oh - 1) * l.sh + l.kh > x.shape[2] || (l.ow - 1) * l.sw + l.kw > x.shape[3];
  // Padding stands for -infinity; the border holds the int8 minimum when only max pools read it (bareFill),
  // else the zero point, which is as good when no value lies below it (the producer clamps at or above it).
  // Either way every window must hold at least one real value.
  const bool exact = s.bareFill(n.inputs[0]) == -128 || s.atLeastZeroPoint(n.inputs[0]);
  if (padded && !(exact && l.pt < l.kh && l.pl < l.kw))
    return refuse("padded MaxPool runs on the accelerator only when its input never lies below its zero point "
                  "or only max pools read its border");
  return l;
}

// Float products count too, so that the report's accelerator share counts what stays on the host.
int64_t nodeMacs(const Graph& g, const Node& n) {
  const OpKind k = n.kind;
  const bool product = k == OpKind::kQConv || k == OpKind::kQGemm || k == OpKind::kConv || k == OpKind::kGemm ||
                       k == OpKind::kMatMul || k == OpKind::kQMatMul;
  if (!product || n.inputs.size() < 2 || n.inputs[0] < 0 || n.inputs[1] < 0) return 0;
  const Shape& y = g.values[n.outputs[0]].shape;
  const Shape& a = g.values[n.inputs[0]].shape;
  const Shape& w = g.values[n.inputs[1]].shape;
  const int64_t out = support::shapeElements(y);
  if (n.kind == OpKind::kQConv || n.kind == OpKind::kQGemm || n.kind == OpKind::kConv)
    return w.empty() || w[0] == 0 ? 0 : out * support::shapeElements(w) / w[0];
  if (n.kind == OpKind::kGemm) return a.size() == 2 ? out * a[std::get<runtime::GemmAttrs>(n.attrs).transA ? 0 : 1] : 0;
  if (n.kind == OpKind::kMatMul || n.kind == OpKind::kQMatMul) return a.empty() ? 0 : out * a.back();
  return 0;
}

}  // namespace accelc::compiler
