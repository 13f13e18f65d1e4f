// compiler/quant/calibrate.cc — activation ranges from calibration samples.
#include <algorithm>
#include <cmath>

#include "compiler/engine/reference.h"
#include "compiler/passes/concat_chains.h"
#include "compiler/passes/rewrite.h"
#include "compiler/quant/quantize.h"

namespace accelc::compiler {

namespace {

/// A max pool or a reshaping op only moves values: its output takes its input's parameters (its range lies
/// inside the input's), so that it stays int8 and needs no rescale. In node order, so chains of moves agree.
void shareMoveScales(Graph& g) {
  for (const Node& n : g.nodes) {
    if (!movesValues(n.kind) || g.values[n.inputs[0]].quant.empty()) continue;
    for (int y : n.outputs)  // each part of a Split too
      if (!g.values[y].quant.empty()) g.values[y].quant = g.values[n.inputs[0]].quant;
  }
}

/// The inputs of a chain of Concats (concat_chains.h) and its prefixes' outputs take the root's parameters:
/// their ranges lie inside its range, and with one scale every Concat copies instead of rescaling, so on the
/// accelerator the producers write their slices of the root's output in place.
void shareConcatScales(Graph& g) {
  for (const ConcatChain& c : concatChains(g)) {
    const Node& root = g.nodes[c.root];
    const runtime::QuantParams q = g.values[root.outputs[0]].quant;
    if (q.empty()) continue;
    for (int v : root.inputs) {
      g.values[v].quant = q;
      // Back through a max pool that alone reads its input, which stays a move (it keeps its input's scale).
      const Node* p = producer(g, v);
      if (p && p->kind == OpKind::kMaxPool && p->outputs.size() == 1 && producer(g, p->inputs[0]) &&
          useCount(g, p->inputs[0]) == 1 && !isBoundary(g, p->inputs[0]))
        g.values[p->inputs[0]].quant = q;
    }
    for (size_t p : c.prefixes) g.values[g.nodes[p].outputs[0]].quant = q;
  }
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
  shareMoveScales(g);
  shareConcatScales(g);
  return support::Status::ok();
}

}  // namespace accelc::compiler
