// compiler/engine/reference.cc — node-by-node execution, and batching by repetition.
#include "compiler/engine/reference.h"

#include <cstring>

namespace accelc::compiler {

using support::error;
using support::Expected;
using support::Location;

namespace {

support::Diagnostic mismatch(const Graph& g, const Value& v, const Tensor& t) {
  return error(Location::node(g.model, v.name), std::string("input expects ") + support::dtypeName(v.dtype) + " " +
                                                    support::shapeStr(v.shape) + ", found " +
                                                    support::dtypeName(t.dtype()) + " " + support::shapeStr(t.shape()));
}

/// Concatenates equal-shaped tensors along a new leading repetition of axis 0.
Tensor concatBatch(const std::vector<Tensor>& parts) {
  Shape s = parts[0].shape();
  if (s.empty()) s.push_back(1);
  s[0] *= static_cast<int64_t>(parts.size());
  Tensor out(parts[0].dtype(), s);
  size_t at = 0;
  for (const Tensor& p : parts) {
    std::memcpy(out.bytes().data() + at, p.bytes().data(), p.bytes().size());
    at += p.bytes().size();
  }
  return out;
}

}  // namespace

Expected<std::vector<Tensor>> runReference(const Graph& g, const std::vector<Tensor>& inputs) {
  if (inputs.size() != g.inputs.size())
    return error(Location::file(g.model), "the model has " + std::to_string(g.inputs.size()) + " inputs, " +
                                              std::to_string(inputs.size()) + " given");
  std::vector<std::optional<Tensor>> vals(g.values.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value& v = g.values[g.inputs[i]];
    if (inputs[i].dtype() != v.dtype || inputs[i].shape() != v.shape) return mismatch(g, v, inputs[i]);
    vals[g.inputs[i]] = inputs[i];
  }
  for (size_t i = 0; i < g.values.size(); ++i)
    if (g.values[i].constant) vals[i] = *g.values[i].constant;
  std::vector<int> lastUse(g.values.size(), -1);  // free intermediates after their last reader
  for (size_t k = 0; k < g.nodes.size(); ++k)
    for (int id : g.nodes[k].inputs)
      if (id >= 0) lastUse[id] = static_cast<int>(k);
  for (int id : g.outputs) lastUse[id] = static_cast<int>(g.nodes.size());
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const Node& n = g.nodes[k];
    std::vector<const Tensor*> in;
    for (int id : n.inputs) in.push_back(id >= 0 ? &*vals[id] : nullptr);
    std::vector<Tensor> out(n.outputs.size());
    ACCELC_TRY(runtime::runOp(n.kind, n.attrs, in, out, g.loc(n)));
    for (size_t o = 0; o < out.size(); ++o) vals[n.outputs[o]] = std::move(out[o]);
    for (int id : n.inputs)
      if (id >= 0 && lastUse[id] == static_cast<int>(k) && !g.values[id].constant) vals[id].reset();
  }
  std::vector<Tensor> result;
  for (int id : g.outputs) result.push_back(*vals[id]);
  return result;
}

Expected<std::vector<Tensor>> runReferenceBatched(const Graph& g, const std::vector<Tensor>& inputs) {
  if (inputs.size() != g.inputs.size() || inputs.empty()) return runReference(g, inputs);
  int64_t k = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value& v = g.values[g.inputs[i]];
    const Shape& s = inputs[i].shape();
    if (s == v.shape || v.shape.empty() || s.size() != v.shape.size() || v.shape[0] == 0 || s[0] == 0 || s[0] % v.shape[0])
      return runReference(g, inputs);
    if (!std::equal(s.begin() + 1, s.end(), v.shape.begin() + 1)) return mismatch(g, v, inputs[i]);
    const int64_t ki = s[0] / v.shape[0];
    if (k && ki != k) return mismatch(g, v, inputs[i]);
    k = ki;
  }
  std::vector<std::vector<Tensor>> perOutput(g.outputs.size());
  for (int64_t r = 0; r < k; ++r) {
    std::vector<Tensor> slice;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Tensor t(inputs[i].dtype(), g.values[g.inputs[i]].shape);
      std::memcpy(t.bytes().data(), inputs[i].bytes().data() + r * t.bytes().size(), t.bytes().size());
      slice.push_back(std::move(t));
    }
    ACCELC_ASSIGN_OR_RETURN(std::vector<Tensor> outs, runReference(g, slice));
    for (size_t o = 0; o < outs.size(); ++o) perOutput[o].push_back(std::move(outs[o]));
  }
  std::vector<Tensor> result;
  for (auto& parts : perOutput) result.push_back(concatBatch(parts));
  return result;
}

}  // namespace accelc::compiler
