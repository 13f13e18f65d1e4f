// compiler/quant/calibrate.cc — activation ranges from calibration samples.
#include <algorithm>
#include <cmath>

#include "compiler/engine/reference.h"
#include "compiler/passes/concat_chains.h"
#include "compiler/passes/rewrite.h"
#include "compiler/quant/quantize.h"

namespace accelc::compiler {

namespace {

/// Values that must share quantization parameters, as a union-find forest.
class ScaleGroups {
 public:
  explicit ScaleGroups(size_t n) : parent_(n) {
    for (size_t i = 0; i < n; ++i) parent_[i] = static_cast<int>(i);
  }
  int find(int v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }
  void unite(int a, int b) { parent_[find(a)] = find(b); }

 private:
  std::vector<int> parent_;
};

/// Whether a move's output must take its input's parameters. A max pool whose
/// input others read too only follows its input (below): joining it to a
/// Concat's scale would widen the scale of every other reader's input.
bool joinsInput(const Graph& g, const Node& n) {
  if (n.kind != OpKind::kMaxPool) return movesValues(n.kind);
  return n.outputs.size() == 1 && producer(g, n.inputs[0]) && useCount(g, n.inputs[0]) == 1 &&
         !isBoundary(g, n.inputs[0]);
}

/// Values that only move values (reshapes, slices, a max pool that alone reads
/// its input) share their input's parameters, so that they stay int8 moves;
/// the inputs and prefixes of a chain of Concats (concat_chains.h) share the
/// root's, so that every Concat copies and on the accelerator the producers
/// write their slices of the root's output in place. Each group takes the
/// widest range among its values (a move's output lies inside its input's
/// range, a Concat's inputs inside its output's). A max pool whose input
/// others read too then takes its input's parameters unless a Concat's group
/// holds it.
void shareScales(Graph& g) {
  ScaleGroups groups(g.values.size());
  const auto quantized = [&](int v) { return v >= 0 && !g.values[v].quant.empty(); };
  for (const Node& n : g.nodes)
    if (joinsInput(g, n) && quantized(n.inputs[0]))
      for (int y : n.outputs)  // each part of a Split too
        if (quantized(y)) groups.unite(y, n.inputs[0]);
  std::vector<int> concatValues;
  for (const ConcatChain& c : concatChains(g)) {
    const int root = g.nodes[c.root].outputs[0];
    if (!quantized(root)) continue;
    std::vector<int> members(g.nodes[c.root].inputs);
    for (size_t p : c.prefixes) members.push_back(g.nodes[p].outputs[0]);
    for (int v : members)
      if (quantized(v)) groups.unite(v, root);
    concatValues.push_back(root);
  }
  std::vector<runtime::QuantParams> widest(g.values.size());
  for (size_t v = 0; v < g.values.size(); ++v) {
    if (!quantized(static_cast<int>(v))) continue;
    runtime::QuantParams& w = widest[groups.find(static_cast<int>(v))];
    if (w.empty() || g.values[v].quant.scale[0] > w.scale[0]) w = g.values[v].quant;
  }
  std::vector<bool> concatGroup(g.values.size(), false);
  for (int v : concatValues) concatGroup[groups.find(v)] = true;
  for (const Node& n : g.nodes)  // in node order, so chains of such pools agree
    if (n.kind == OpKind::kMaxPool && !joinsInput(g, n) && quantized(n.inputs[0]) && quantized(n.outputs[0]) &&
        !concatGroup[groups.find(n.outputs[0])])
      widest[groups.find(n.outputs[0])] = widest[groups.find(n.inputs[0])];
  for (size_t v = 0; v < g.values.size(); ++v)
    if (quantized(static_cast<int>(v))) g.values[v].quant = widest[groups.find(static_cast<int>(v))];
}

}  // namespace

support::Status calibrate(Graph& g, const std::vector<std::vector<Tensor>>& samples, double percentile) {
  if (samples.empty()) return support::error(support::Location::file(g.model), "calibration needs at least one sample");
  Graph probe = g;  // every float activation becomes an output
  probe.outputs.clear();
  for (size_t i = 0; i < g.values.size(); ++i)
    if (!g.values[i].constant && g.values[i].dtype == support::DType::kFloat32) probe.outputs.push_back(static_cast<int>(i));
  constexpr size_t kKeep = 1 << 16;  // |x| samples kept per value for percentiles
  std::vector<double> maxAbs(probe.outputs.size(), 0.0);
  std::vector<std::vector<float>> kept(probe.outputs.size());
  for (const std::vector<Tensor>& s : samples) {
    ACCELC_ASSIGN_OR_RETURN(std::vector<Tensor> outs, runReference(probe, s));
    for (size_t k = 0; k < outs.size(); ++k) {
      const float* d = outs[k].data<float>();
      const int64_t n = outs[k].numel(), step = std::max<int64_t>(1, n * static_cast<int64_t>(samples.size()) / kKeep);
      for (int64_t i = 0; i < n; ++i) {
        maxAbs[k] = std::max(maxAbs[k], static_cast<double>(std::abs(d[i])));
        if (percentile < 100.0 && i % step == 0) kept[k].push_back(std::abs(d[i]));
      }
    }
  }
  for (size_t k = 0; k < probe.outputs.size(); ++k) {
    double range = maxAbs[k];
    if (percentile < 100.0 && !kept[k].empty()) {
      const size_t at = std::min(kept[k].size() - 1, static_cast<size_t>(percentile / 100.0 * kept[k].size()));
      std::nth_element(kept[k].begin(), kept[k].begin() + static_cast<long>(at), kept[k].end());
      range = kept[k][at];
    }
    runtime::QuantParams q;
    q.scale = {static_cast<float>(range > 0 ? range / 127.0 : 1.0)};
    q.zeroPoint = {0};
    g.values[probe.outputs[k]].quant = q;
  }
  shareScales(g);
  return support::Status::ok();
}

}  // namespace accelc::compiler
