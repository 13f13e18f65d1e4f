// compiler/quant/qdq.cc — stripQdq: an imported QDQ model back to a float graph
// whose values remember their quantization.
//
//   x -> QuantizeLinear(s, z) -> [Cast to the same type] -> DequantizeLinear(s, z) -> y
//     becomes  x (quant = {s, z}), and readers of y read x
//   const w_q -> DequantizeLinear(s_w) -> w   becomes   const w (float, quant = {s_w})
#include <cmath>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"
#include "compiler/quant/quantize.h"

namespace accelc::compiler {

namespace {

/// Looks through Casts that keep the dtype (exporters put them between Q and DQ).
int throughCasts(Graph& g, int id) {
  for (Node* p = producer(g, id); p && p->kind == OpKind::kCast; p = producer(g, id)) {
    if (std::get<runtime::CastAttrs>(p->attrs).to != g.values[p->inputs[0]].dtype) break;
    id = p->inputs[0];
  }
  return id;
}

/// The quantization parameters of a Q/DQ node from its constant inputs.
std::optional<runtime::QuantParams> paramsOf(const Graph& g, const Node& n) {
  const Tensor* s = constantOf(g, n.inputs[1]);
  const Tensor* z = n.inputs.size() > 2 ? constantOf(g, n.inputs[2]) : nullptr;
  if (!s || (n.inputs.size() > 2 && n.inputs[2] >= 0 && !z)) return std::nullopt;
  runtime::QuantParams q;
  q.dtype = z ? z->dtype() : support::DType::kUint8;
  for (int64_t i = 0; i < s->numel(); ++i) {
    q.scale.push_back(static_cast<float>(s->at(i)));
    q.zeroPoint.push_back(z ? static_cast<int32_t>(z->intAt(i)) : 0);
  }
  if (s->numel() > 1) q.axis = std::get<runtime::AxisAttrs>(n.attrs).axis;
  return q;
}

}  // namespace

support::Status stripQdq(Graph& g) {
  ACCELC_TRY(foldConstants(g));  // zero points built by ConstantOfShape + Cast become constants
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node dq = g.nodes[i];
    if (dq.kind != OpKind::kDequantizeLinear) continue;
    auto params = paramsOf(g, dq);
    if (!params) continue;
    const int src = throughCasts(g, dq.inputs[0]), out = dq.outputs[0];
    if (const Tensor* c = constantOf(g, src)) {  // a dequantized constant: fold, remember the scale
      std::vector<Tensor> res(1);
      std::vector<const Tensor*> in = {c, constantOf(g, dq.inputs[1]), dq.inputs.size() > 2 ? constantOf(g, dq.inputs[2]) : nullptr};
      ACCELC_TRY(runtime::runOp(dq.kind, dq.attrs, in, res, g.loc(dq)));
      res[0].quant = *params;
      Value& v = g.values[out];
      v.quant = *params;
      v.constant = std::move(res[0]);
      g.nodes.erase(g.nodes.begin() + static_cast<long>(i--));
      continue;
    }
    Node* q = producer(g, src);
    if (!q || q->kind != OpKind::kQuantizeLinear || paramsOf(g, *q) != params) continue;
    const int x = q->inputs[0];
    g.values[x].quant = *params;
    if (isBoundary(g, out) && !isBoundary(g, x)) g.values[x].name = g.values[out].name;
    replaceUses(g, out, x);
    g.nodes.erase(g.nodes.begin() + static_cast<long>(i--));
  }
  removeDeadNodes(g);
  canonicalize(g);
  return verify(g);
}

}  // namespace accelc::compiler
