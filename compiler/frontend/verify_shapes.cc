// compiler/frontend/verify_shapes.cc — per-node shape rules at import.
#include "compiler/frontend/verify_shapes.h"

#include <string>

namespace accelc::compiler {

using runtime::OpKind;
using support::error;
using support::Status;

namespace {

/// What the rules read of a node: its graph, the node and which inputs are known.
struct NodeView {
  const Graph& g;
  const Node& n;
  const std::vector<bool>& known;
  bool has(size_t i) const {
    return i < n.inputs.size() && n.inputs[i] >= 0 && known[static_cast<size_t>(n.inputs[i])];
  }
  const Value& in(size_t i) const { return g.values[static_cast<size_t>(n.inputs[i])]; }
  support::Diagnostic fail(const std::string& what) const {
    return error(support::Location::node(g.model, n.name), std::string(runtime::opInfo(n.kind).name) + ": " + what);
  }
};

/// Each spatial window (kernel `k`, dilated) fits the input `x` with `pads`
/// (begins, then ends; empty: none); only explicit padding is checked here.
Status windowsFit(const NodeView& v, const Shape& x, const Shape& k, const runtime::Ints& dil,
                  const runtime::Ints& pads) {
  const size_t sp = k.size();
  if (x.size() != sp + 2) return Status::ok();  // the rank rule is the kernel's
  for (size_t i = 0; i < sp; ++i) {
    const int64_t d = i < dil.size() ? dil[i] : 1;
    const int64_t pb = pads.size() == 2 * sp ? pads[i] : 0, pe = pads.size() == 2 * sp ? pads[sp + i] : 0;
    if ((k[i] - 1) * d + 1 > x[2 + i] + pb + pe)
      return v.fail("the window " + support::shapeStr(k) + " (dilations included) does not fit the padded input " +
                    support::shapeStr(x));
  }
  return Status::ok();
}

Status checkConv(const NodeView& v) {
  const size_t wi = v.n.kind == OpKind::kQLinearConv ? 3 : 1;
  if (!v.has(0) || !v.has(wi)) return Status::ok();
  const Shape& x = v.in(0).shape;
  const Shape& w = v.in(wi).shape;
  const runtime::ConvAttrs& a = std::get<runtime::ConvAttrs>(v.n.attrs);
  if (x.size() < 3 || w.size() != x.size())
    return v.fail("input " + support::shapeStr(x) + " and weight " + support::shapeStr(w) + " must have one rank >= 3");
  const int64_t c = x[1], m = w[0], gr = a.group;
  if (c % gr) return v.fail("group " + std::to_string(gr) + " does not divide the " + std::to_string(c) + " input channels");
  if (m % gr) return v.fail("group " + std::to_string(gr) + " does not divide the " + std::to_string(m) + " output channels");
  if (w[1] * gr != c)
    return v.fail("weight shape " + support::shapeStr(w) + " does not match " + std::to_string(c) +
                  " input channels in " + std::to_string(gr) + " group(s)");
  if (a.autoPad != runtime::AutoPad::kNotSet) return Status::ok();
  return windowsFit(v, x, Shape(w.begin() + 2, w.end()), a.dilations, a.pads);
}

Status checkPool(const NodeView& v) {
  if (!v.has(0)) return Status::ok();
  const runtime::PoolAttrs& a = std::get<runtime::PoolAttrs>(v.n.attrs);
  if (a.kernelShape.empty()) return v.fail("attribute 'kernel_shape' is required");
  if (a.autoPad != runtime::AutoPad::kNotSet) return Status::ok();
  return windowsFit(v, v.in(0).shape, a.kernelShape, a.dilations, a.pads);
}

/// A constant target shape with ONNX's 0 (copy, unless allowzero) and -1 (infer).
Status checkReshape(const NodeView& v) {
  if (!v.has(0) || !v.has(1) || !v.in(1).constant) return Status::ok();
  const Shape& x = v.in(0).shape;
  const Tensor& s = *v.in(1).constant;
  const bool allowZero = std::get<runtime::ReshapeAttrs>(v.n.attrs).allowzero != 0;
  Shape want;
  int infer = -1;
  int64_t known = 1;
  for (int64_t i = 0; i < s.numel(); ++i) {
    int64_t d = s.intAt(i);
    if (d == 0 && !allowZero) {
      if (i >= static_cast<int64_t>(x.size())) return v.fail("dimension " + std::to_string(i) + " copies an axis the input lacks");
      d = x[static_cast<size_t>(i)];
    }
    if (d < -1) return v.fail("dimension " + std::to_string(d) + " is negative");
    if (d == -1) {
      if (infer >= 0) return v.fail("more than one dimension is -1");
      infer = static_cast<int>(i);
    } else if (__builtin_mul_overflow(known, d, &known)) {
      return v.fail("the target shape has more elements than a 64-bit size holds");
    }
    want.push_back(d);
  }
  const int64_t total = support::shapeElements(x);
  const bool fits = infer >= 0 ? known != 0 && total % known == 0 : known == total;
  if (!fits) return v.fail("cannot reshape " + support::shapeStr(x) + " to " + support::shapeStr(want));
  return Status::ok();
}

Status checkGather(const NodeView& v) {
  if (!v.has(0) || !v.has(1) || !v.in(1).constant) return Status::ok();
  const Shape& x = v.in(0).shape;
  int64_t axis = std::get<runtime::AxisAttrs>(v.n.attrs).axis;
  const int64_t r = static_cast<int64_t>(x.size());
  if (axis < -r || axis >= r) return v.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  if (axis < 0) axis += r;
  const int64_t dim = x[static_cast<size_t>(axis)];
  const Tensor& idx = *v.in(1).constant;
  for (int64_t i = 0; i < idx.numel(); ++i)
    if (idx.intAt(i) < -dim || idx.intAt(i) >= dim)
      return v.fail("index " + std::to_string(idx.intAt(i)) + " is out of range for axis " + std::to_string(axis) +
                    " of size " + std::to_string(dim));
  return Status::ok();
}

/// The rule of `k`, or null for an op whose kernel checks all it needs.
using Rule = Status (*)(const NodeView&);
Rule ruleOf(OpKind k) {
  if (k == OpKind::kConv || k == OpKind::kConvInteger || k == OpKind::kQLinearConv) return checkConv;
  if (k == OpKind::kMaxPool || k == OpKind::kAveragePool) return checkPool;
  if (k == OpKind::kReshape) return checkReshape;
  if (k == OpKind::kGather) return checkGather;
  return nullptr;
}

}  // namespace

Status verifyShapes(const Graph& g, const std::vector<bool>& known) {
  for (const Node& n : g.nodes)
    if (Rule rule = ruleOf(n.kind)) ACCELC_TRY(rule(NodeView{g, n, known}));
  return Status::ok();
}

}  // namespace accelc::compiler
