// compiler/passes/fuse_activations.cc — fuse-activations.
//
//   node "d" Div("x", "sqrt2")    node "e" Erf("d")     node "a" Add("e", "one")
//   node "m" Mul("x", "a")        node "h" Mul("m", "half") -> ("y" ...)
//     becomes
//   node "h" Gelu("x") -> ("y" ...)
//
//   node "s" Sigmoid("x")   node "m" Mul("x", "s") -> ("y" ...)
//     becomes
//   node "m" Silu("x") -> ("y" ...)
//
//   m = ReduceMean(x, axes [-1])   d = Sub(x, m)   v = ReduceMean(Pow(d, 2), axes [-1])
//   y = Add(Mul(Div(d, Sqrt(Add(v, eps))), gamma), beta)
//     becomes
//   node LayerNormalization("x", "gamma", "beta") {axis=-1, epsilon=eps} -> ("y" ...)
//
// Exporters spell Gelu (before ONNX had it), SiLU (which ONNX lacks) and
// LayerNormalization (before opset 17) as these small graphs; one op each
// lets later stages treat them as what they are (the quantizer, as one host
// step between two boundaries rather than a string of them). Gelu's Erf form is matched with x/sqrt(2) written as a
// Div or as a Mul by 1/sqrt(2), and the 0.5 applied first or last. Matched
// nodes disappear only when nothing else reads them.
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

namespace {

/// Whether value `id` is a one-element float constant within 1e-6 relative of `want`.
bool isScalar(const Graph& g, int id, double want) {
  const Tensor* t = constantOf(g, id);
  return t && t->numel() == 1 && t->dtype() == support::DType::kFloat32 &&
         std::abs(t->at(0) - want) <= 1e-6 * std::abs(want);
}

/// If `n` is a binary `kind` with operand `id` on either side, the other operand; else -1.
int otherOperand(const Node* n, OpKind kind, int id) {
  if (!n || n->kind != kind || n->inputs.size() != 2) return -1;
  if (n->inputs[0] == id) return n->inputs[1];
  if (n->inputs[1] == id) return n->inputs[0];
  return -1;
}

/// If value `v` is 1 + erf(x / sqrt 2), that x; else -1.
int erfTerm(const Graph& g, int v) {
  const Node* add = producer(g, v);
  if (!add || add->kind != OpKind::kAdd) return -1;
  for (int side : {0, 1}) {
    const Node* erf = producer(g, add->inputs[side]);
    if (!erf || erf->kind != OpKind::kErf || !isScalar(g, add->inputs[1 - side], 1.0)) continue;
    const Node* scale = producer(g, erf->inputs[0]);
    if (!scale || scale->inputs.size() != 2) continue;
    if (scale->kind == OpKind::kDiv && isScalar(g, scale->inputs[1], std::sqrt(2.0))) return scale->inputs[0];
    if (scale->kind == OpKind::kMul && isScalar(g, scale->inputs[1], std::sqrt(0.5))) return scale->inputs[0];
    if (scale->kind == OpKind::kMul && isScalar(g, scale->inputs[0], std::sqrt(0.5))) return scale->inputs[1];
  }
  return -1;
}

/// The x of a Mul node computing x * 0.5 * (1 + erf(x / sqrt 2)) in either order; else -1.
int geluInput(const Graph& g, const Node& mul) {
  if (mul.kind != OpKind::kMul) return -1;
  for (int side : {0, 1}) {
    const int a = mul.inputs[side], b = mul.inputs[1 - side];
    const Node* inner = producer(g, a);
    if (!inner || inner->kind != OpKind::kMul) continue;
    if (isScalar(g, b, 0.5)) {  // (x * (1 + erf)) * 0.5
      for (int s : {0, 1}) {
        const int x = erfTerm(g, inner->inputs[s]);
        if (x >= 0 && x == inner->inputs[1 - s]) return x;
      }
    }
    const int x = erfTerm(g, b);  // (x * 0.5) * (1 + erf)
    if (x >= 0 && otherOperand(inner, OpKind::kMul, x) >= 0 && isScalar(g, otherOperand(inner, OpKind::kMul, x), 0.5))
      return x;
  }
  return -1;
}

/// The x of a Mul node computing x * Sigmoid(x); else -1.
int siluInput(const Graph& g, const Node& mul) {
  if (mul.kind != OpKind::kMul) return -1;
  for (int side : {0, 1}) {
    const Node* sig = producer(g, mul.inputs[side]);
    if (sig && sig->kind == OpKind::kSigmoid && sig->inputs[0] == mul.inputs[1 - side]) return sig->inputs[0];
  }
  return -1;
}

/// `n`'s operand beside a constant (either side) when `n` is a binary `kind`, and that constant; else -1.
std::pair<int, int> withConstant(const Graph& g, const Node* n, OpKind kind) {
  if (!n || n->kind != kind || n->inputs.size() != 2) return {-1, -1};
  for (int side : {0, 1})
    if (constantOf(g, n->inputs[1 - side]) && !constantOf(g, n->inputs[side])) return {n->inputs[side], n->inputs[1 - side]};
  return {-1, -1};
}

/// Whether `n` is a ReduceMean of `x` over its last axis only, keeping it.
bool meanOfLastAxis(const Graph& g, const Node* n, int x) {
  if (!n || n->kind != OpKind::kReduceMean || n->inputs.empty() || n->inputs[0] != x) return false;
  const auto& a = std::get<runtime::ReduceAttrs>(n->attrs);
  const int64_t rank = static_cast<int64_t>(g.values[x].shape.size());
  return a.keepdims == 1 && a.axes.size() == 1 && (a.axes[0] == -1 || a.axes[0] == rank - 1);
}

/// A LayerNormalization over the last axis spelled out, ending in Add node `n`: {x, gamma, beta} and epsilon.
std::optional<std::pair<std::vector<int>, float>> layerNormOf(const Graph& g, const Node& n) {
  const auto [scaled, beta] = withConstant(g, &n, OpKind::kAdd);
  const auto [normed, gamma] = withConstant(g, producer(g, scaled), OpKind::kMul);
  const Node* div = producer(g, normed);
  if (scaled < 0 || normed < 0 || !div || div->kind != OpKind::kDiv) return std::nullopt;
  const Node* sqrt = producer(g, div->inputs[1]);
  const auto [var, eps] = withConstant(g, sqrt && sqrt->kind == OpKind::kSqrt ? producer(g, sqrt->inputs[0]) : nullptr,
                                       OpKind::kAdd);
  const Node* mean2 = var >= 0 ? producer(g, var) : nullptr;
  const Node* pow = mean2 && !mean2->inputs.empty() ? producer(g, mean2->inputs[0]) : nullptr;
  const Node* sub = producer(g, div->inputs[0]);
  if (!pow || pow->kind != OpKind::kPow || pow->inputs[0] != div->inputs[0] || !isScalar(g, pow->inputs[1], 2.0) ||
      !meanOfLastAxis(g, mean2, pow->outputs[0]) || !sub || sub->kind != OpKind::kSub)
    return std::nullopt;
  const int x = sub->inputs[0];
  const Tensor *e = constantOf(g, eps), *ga = constantOf(g, gamma), *be = constantOf(g, beta);
  const Shape& xs = g.values[x].shape;
  if (!meanOfLastAxis(g, producer(g, sub->inputs[1]), x) || e->numel() != 1 || xs.empty() ||
      ga->shape() != Shape{xs.back()} || be->shape() != Shape{xs.back()})
    return std::nullopt;
  return std::make_pair(std::vector<int>{x, gamma, beta}, static_cast<float>(e->at(0)));
}

}  // namespace

support::Status fuseActivations(Graph& g) {
  bool fused = false;
  for (Node& n : g.nodes) {
    if (auto ln = layerNormOf(g, n)) {
      n.kind = OpKind::kLayerNormalization;
      runtime::NormAttrs a;
      a.axis = -1, a.epsilon = ln->second;
      n.attrs = a;
      n.inputs = ln->first;
      fused = true;
      continue;
    }
    const int gelu = geluInput(g, n), silu = gelu < 0 ? siluInput(g, n) : -1;
    if (gelu < 0 && silu < 0) continue;
    n.kind = gelu >= 0 ? OpKind::kGelu : OpKind::kSilu;
    n.attrs = runtime::defaultAttrs(n.kind);
    n.inputs = {gelu >= 0 ? gelu : silu};
    fused = true;
  }
  if (fused) removeDeadNodes(g);
  return support::Status::ok();
}

}  // namespace accelc::compiler
