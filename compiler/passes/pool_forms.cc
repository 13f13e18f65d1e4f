// compiler/passes/pool_forms.cc — pool-forms.
//
//   node "p" Pad("x", "pads") -> ("xp" ...)   node "a" AveragePool("xp") -> ("y" ...) {kernel_shape=[3,3], ...}
//     becomes
//   node "a" Conv("x", "a:weight", _) -> ("y" ...) {kernel_shape=[3,3], pads=[1,1,1,1], group=C, ...}
//
// The forms exporters write for pools, turned into forms the accelerator runs:
// - a constant Pad whose pads are all zero disappears (DenseNet's transitions);
// - an AveragePool of a 4-D float tensor that counts its padding (count_include_pad, or zeros written as a
//   constant Pad of the spatial axes before it, as torch exports Inception's pools) is a depthwise Conv whose
//   weights are 1/(kh·kw), which quantizes and runs like any depthwise convolution;
// - ReduceMean over the spatial axes of a 4-D tensor is GlobalAveragePool (then Flatten when it drops them).
#include <algorithm>
#include <optional>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

namespace {

int addValue(Graph& g, const std::string& name, support::DType dt, const Shape& shape) {
  Value v;
  v.name = name, v.dtype = dt, v.shape = shape;
  return g.addValue(std::move(v));
}

/// The pads (begins of every axis, then ends) of a constant-zero Pad of a 4-D float tensor, or nothing.
std::optional<runtime::Ints> zeroPadOf(const Graph& g, const Node& n) {
  const auto& a = std::get<runtime::PadAttrs>(n.attrs);
  if (a.mode != runtime::PadMode::kConstant || a.value != 0.0f || g.values[n.inputs[0]].shape.size() != 4 ||
      g.values[n.inputs[0]].dtype != support::DType::kFloat32)
    return std::nullopt;
  if (n.inputs.size() > 2 && n.inputs[2] >= 0) {
    const Tensor* v = constantOf(g, n.inputs[2]);
    if (!v || v->numel() != 1 || v->at(0) != 0.0) return std::nullopt;
  }
  if (n.inputs.size() > 3 && n.inputs[3] >= 0) return std::nullopt;  // axes
  runtime::Ints pads = a.pads;
  if (n.inputs.size() > 1 && n.inputs[1] >= 0) {
    const Tensor* p = constantOf(g, n.inputs[1]);
    if (!p) return std::nullopt;
    pads.clear();
    for (int64_t i = 0; i < p->numel(); ++i) pads.push_back(p->intAt(i));
  }
  if (pads.size() != 8 || std::any_of(pads.begin(), pads.end(), [](int64_t v) { return v < 0; })) return std::nullopt;
  return pads;
}

/// `pool` (reading `x`, padded by `pads` = top, left, bottom, right) rewritten in place as a depthwise Conv.
void averageAsConv(Graph& g, Node& pool, int x, const runtime::Ints& pads) {
  const auto a = std::get<runtime::PoolAttrs>(pool.attrs);
  const int64_t c = g.values[x].shape[1], kh = a.kernelShape[0], kw = a.kernelShape[1];
  Tensor w(support::DType::kFloat32, {c, 1, kh, kw});
  std::fill(w.data<float>(), w.data<float>() + w.numel(), 1.0f / static_cast<float>(kh * kw));
  Value wv;
  wv.name = pool.name + ":weight", wv.dtype = w.dtype(), wv.shape = w.shape(), wv.constant = std::move(w);
  runtime::ConvAttrs ca;
  ca.kernelShape = a.kernelShape, ca.strides = a.strides, ca.pads = pads, ca.group = c;
  pool.kind = OpKind::kConv;
  pool.attrs = ca;
  pool.inputs = {x, g.addValue(std::move(wv))};
}

/// Whether `pool` is a 2-D AveragePool this pass can turn into a Conv, its own padding aside.
bool plainAverage(const Graph& g, const Node& pool) {
  if (pool.kind != OpKind::kAveragePool || g.values[pool.inputs[0]].shape.size() != 4) return false;
  const auto& a = std::get<runtime::PoolAttrs>(pool.attrs);
  const bool dilated = std::any_of(a.dilations.begin(), a.dilations.end(), [](int64_t v) { return v != 1; });
  return a.kernelShape.size() == 2 && !dilated && !a.ceilMode && a.autoPad == runtime::AutoPad::kNotSet &&
         g.values[pool.inputs[0]].dtype == support::DType::kFloat32;
}

/// The AveragePool that alone reads Pad `pad`'s output, when the Pad pads only the spatial axes with zeros.
Node* paddedAverage(Graph& g, const Node& pad, const runtime::Ints& p) {
  const int y = pad.outputs[0];
  if (p[0] || p[1] || p[4] || p[5] || useCount(g, y) != 1 || isBoundary(g, y)) return nullptr;
  for (Node& n : g.nodes)
    if (!n.inputs.empty() && n.inputs[0] == y && plainAverage(g, n)) {
      const auto& a = std::get<runtime::PoolAttrs>(n.attrs);
      const bool ownPads = std::any_of(a.pads.begin(), a.pads.end(), [](int64_t v) { return v != 0; });
      return ownPads ? nullptr : &n;
    }
  return nullptr;
}

/// ReduceMean over H and W of a 4-D tensor, rewritten as GlobalAveragePool (and Flatten without keepdims).
void meanAsPool(Graph& g, std::optional<Node>& added, Node& n) {
  const auto& a = std::get<runtime::ReduceAttrs>(n.attrs);
  const Shape& x = g.values[n.inputs[0]].shape;
  runtime::Ints axes = a.axes;
  for (int64_t& v : axes) v = v < 0 ? v + 4 : v;
  std::sort(axes.begin(), axes.end());
  if (x.size() != 4 || axes != runtime::Ints{2, 3} || (n.inputs.size() > 1 && n.inputs[1] >= 0)) return;
  const bool keep = a.keepdims != 0;
  n.kind = OpKind::kGlobalAveragePool;
  n.attrs = runtime::NoAttrs{};
  if (keep) return;
  const int y = n.outputs[0];
  const int pooled = addValue(g, g.values[y].name + ":pooled", g.values[y].dtype, {x[0], x[1], 1, 1});
  n.outputs[0] = pooled;
  added = Node{OpKind::kFlatten, n.name + ":flatten", runtime::AxisAttrs{1}, {pooled}, {y}};
}

}  // namespace

support::Status poolForms(Graph& g) {
  std::vector<bool> drop(g.nodes.size(), false);
  std::vector<std::optional<Node>> added(g.nodes.size());  // a node to insert after node i
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if (n.kind == OpKind::kReduceMean) {
      meanAsPool(g, added[i], n);
      continue;
    }
    if (n.kind == OpKind::kAveragePool && plainAverage(g, n) && std::get<runtime::PoolAttrs>(n.attrs).countIncludePad) {
      const runtime::Ints pads = std::get<runtime::PoolAttrs>(n.attrs).pads;
      if (std::any_of(pads.begin(), pads.end(), [](int64_t v) { return v != 0; }))
        averageAsConv(g, n, n.inputs[0], pads);
      continue;
    }
    if (n.kind != OpKind::kPad) continue;
    const std::optional<runtime::Ints> p = zeroPadOf(g, n);
    if (!p) continue;
    const int in = n.inputs[0], out = n.outputs[0];
    if (std::all_of(p->begin(), p->end(), [](int64_t v) { return v == 0; }) && !isBoundary(g, out)) {
      replaceUses(g, out, in), drop[i] = true;
    } else if (Node* pool = paddedAverage(g, n, *p)) {
      averageAsConv(g, *pool, in, {(*p)[2], (*p)[3], (*p)[6], (*p)[7]});
      drop[i] = true;
    }
  }
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!drop[i]) kept.push_back(std::move(g.nodes[i]));
    if (added[i]) kept.push_back(std::move(*added[i]));
  }
  g.nodes = std::move(kept);
  return support::Status::ok();
}

}  // namespace accelc::compiler
