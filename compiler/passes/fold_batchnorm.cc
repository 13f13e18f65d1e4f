// compiler/passes/fold_batchnorm.cc — fold-batchnorm.
//
//   node "c" Conv("x", "w", "b") -> ("y" ...)   node "bn" BatchNormalization("y", "g", "beta", "m", "v") -> ("z" ...)
//     becomes
//   node "c" Conv("x", "w'", "b'") -> ("z" ...)
//
// with s = g / sqrt(v + eps), w' = w · s per output channel and
// b' = (b - m) · s + beta. For Gemm the output channel is a column of Y, so
// B's columns scale (its rows when transB) and C' = C·s + (beta - m·s)/beta_attr.
// Only when the Conv/Gemm output feeds nothing but the BatchNormalization and
// every parameter is a constant.
//
// A BatchNormalization of a 4-D tensor that follows anything else (DenseNet's
// after a Concat) becomes what it computes, a per-channel scale and shift: a
// 1×1 depthwise Conv with weights s and bias t, which quantizes and runs on
// the accelerator like any other convolution.
#include <cmath>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

namespace {

/// The per-channel scale and shift of a BatchNormalization with constant parameters.
bool bnParams(const Graph& g, const Node& bn, std::vector<float>& scale, std::vector<float>& shift) {
  const Tensor *gamma = constantOf(g, bn.inputs[1]), *beta = constantOf(g, bn.inputs[2]),
               *mean = constantOf(g, bn.inputs[3]), *var = constantOf(g, bn.inputs[4]);
  const auto& a = std::get<runtime::NormAttrs>(bn.attrs);
  if (!gamma || !beta || !mean || !var || a.trainingMode || bn.outputs.size() > 1) return false;
  const int64_t c = gamma->numel();
  for (const Tensor* t : {gamma, beta, mean, var})
    if (t->dtype() != support::DType::kFloat32 || t->numel() != c) return false;
  scale.resize(c), shift.resize(c);
  for (int64_t k = 0; k < c; ++k) {
    scale[k] = gamma->data<float>()[k] / std::sqrt(var->data<float>()[k] + a.epsilon);
    shift[k] = beta->data<float>()[k] - mean->data<float>()[k] * scale[k];
  }
  return true;
}

/// Folds into a Conv: weights [M, ...] scale per M; the bias shifts.
bool foldIntoConv(Graph& g, Node& conv, const std::vector<float>& s, const std::vector<float>& t) {
  const Tensor* w = constantOf(g, conv.inputs[1]);
  const Tensor* b = conv.inputs.size() > 2 ? constantOf(g, conv.inputs[2]) : nullptr;
  const int64_t m = static_cast<int64_t>(s.size());
  if (!w || w->dtype() != support::DType::kFloat32 || w->dim(0) != m) return false;
  if (conv.inputs.size() > 2 && conv.inputs[2] >= 0 && !b) return false;
  Tensor nw = *w, nb(support::DType::kFloat32, {m});
  const int64_t per = w->numel() / m;
  for (int64_t k = 0; k < m; ++k) {
    for (int64_t i = 0; i < per; ++i) nw.data<float>()[k * per + i] *= s[k];
    nb.data<float>()[k] = (b ? b->data<float>()[k] : 0.0f) * s[k] + t[k];
  }
  conv.inputs.resize(3);
  conv.inputs[1] = addConstant(g, conv.name + ":weight_bn", std::move(nw));
  conv.inputs[2] = addConstant(g, conv.name + ":bias_bn", std::move(nb));
  return true;
}

/// Folds into a Gemm: the output column k of Y scales by s[k].
bool foldIntoGemm(Graph& g, Node& gemm, const std::vector<float>& s, const std::vector<float>& t) {
  auto& a = std::get<runtime::GemmAttrs>(gemm.attrs);
  const Tensor* b = constantOf(g, gemm.inputs[1]);
  const Tensor* c = gemm.inputs.size() > 2 ? constantOf(g, gemm.inputs[2]) : nullptr;
  const int64_t m = static_cast<int64_t>(s.size());
  if (!b || b->dtype() != support::DType::kFloat32 || b->rank() != 2 || (a.transB ? b->dim(0) : b->dim(1)) != m) return false;
  const bool perColumn = c && c->numel() == m && (c->rank() == 1 || (c->rank() == 2 && c->dim(0) == 1));
  if (gemm.inputs.size() > 2 && gemm.inputs[2] >= 0 && (!perColumn || a.beta == 0.0f)) return false;
  Tensor nb = *b, nc(support::DType::kFloat32, {m});
  const int64_t k = a.transB ? b->dim(1) : b->dim(0);
  for (int64_t r = 0; r < k; ++r)
    for (int64_t j = 0; j < m; ++j) nb.data<float>()[a.transB ? j * k + r : r * m + j] *= s[j];
  const float beta = c ? a.beta : 1.0f;
  for (int64_t j = 0; j < m; ++j) nc.data<float>()[j] = (c ? c->data<float>()[j] * s[j] : 0.0f) + t[j] / beta;
  a.beta = beta;
  gemm.inputs.resize(3);
  gemm.inputs[1] = addConstant(g, gemm.name + ":weight_bn", std::move(nb));
  gemm.inputs[2] = addConstant(g, gemm.name + ":bias_bn", std::move(nc));
  return true;
}

/// `bn` (of a 4-D input) rewritten in place as a 1×1 depthwise Conv with weights `s` and bias `t`.
bool bnAsDepthwise(Graph& g, Node& bn, const std::vector<float>& s, const std::vector<float>& t) {
  const Shape& x = g.values[bn.inputs[0]].shape;
  const int64_t c = static_cast<int64_t>(s.size());
  if (x.size() != 4 || x[1] != c || g.values[bn.inputs[0]].dtype != support::DType::kFloat32) return false;
  runtime::ConvAttrs a;
  a.kernelShape = {1, 1}, a.group = c;
  bn.kind = OpKind::kConv;
  bn.attrs = a;
  bn.inputs = {bn.inputs[0], addConstant(g, bn.name + ":scale_as_weight", Tensor::of<float>({c, 1, 1, 1}, s)),
               addConstant(g, bn.name + ":shift_as_bias", Tensor::of<float>({c}, t))};
  return true;
}

}  // namespace

support::Status foldBatchNorm(Graph& g) {
  std::vector<bool> drop(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& bn = g.nodes[i];
    if (bn.kind != OpKind::kBatchNormalization) continue;
    const int y = bn.inputs[0];
    Node* prod = nullptr;
    for (Node& n : g.nodes)
      if (!n.outputs.empty() && n.outputs[0] == y) prod = &n;
    std::vector<float> s, t;
    if (!bnParams(g, bn, s, t)) continue;
    const bool foldable = prod && (prod->kind == OpKind::kConv || prod->kind == OpKind::kGemm) && useCount(g, y) == 1 &&
                          !isBoundary(g, y);
    const bool folded =
        foldable && (prod->kind == OpKind::kConv ? foldIntoConv(g, *prod, s, t) : foldIntoGemm(g, *prod, s, t));
    if (!folded) {
      bnAsDepthwise(g, bn, s, t);
      continue;
    }
    prod->outputs[0] = bn.outputs[0];
    drop[i] = true;
  }
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
  return support::Status::ok();
}

}  // namespace accelc::compiler
