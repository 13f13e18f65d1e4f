// compiler/passes/concat_chains.cc — see concat_chains.h.
#include "compiler/passes/concat_chains.h"

#include <algorithm>

#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

namespace {

/// Whether node `n` concatenates the channels of 4-D values.
bool channelConcat(const Graph& g, const Node& n) {
  int64_t axis = 0;
  if (n.kind == OpKind::kConcat) axis = std::get<runtime::AxisAttrs>(n.attrs).axis;
  else if (n.kind == OpKind::kQConcat) axis = std::get<runtime::QConcatAttrs>(n.attrs).axis;
  else return false;
  return g.values[n.outputs[0]].shape.size() == 4 && (axis == 1 || axis == -3);
}

/// Whether the inputs of `a` are the first inputs of `b`.
bool prefixOf(const Node& a, const Node& b) {
  return a.inputs.size() <= b.inputs.size() && std::equal(a.inputs.begin(), a.inputs.end(), b.inputs.begin());
}

/// Whether every input of the chain is a layer's output read only by the chain's Concats, and no prefix's output
/// leaves the graph.
bool closed(const Graph& g, const ConcatChain& c) {
  const Node& root = g.nodes[c.root];
  for (int v : root.inputs) {
    int readers = 1;  // the root
    for (size_t p : c.prefixes)
      readers += static_cast<int>(std::count(g.nodes[p].inputs.begin(), g.nodes[p].inputs.end(), v));
    if (v < 0 || !producer(g, v) || isBoundary(g, v) || useCount(g, v) != readers) return false;
    if (std::count(root.inputs.begin(), root.inputs.end(), v) != 1) return false;
  }
  return std::none_of(c.prefixes.begin(), c.prefixes.end(),
                      [&](size_t p) { return isBoundary(g, g.nodes[p].outputs[0]); });
}

}  // namespace

std::vector<ConcatChain> concatChains(const Graph& g) {
  std::vector<ConcatChain> chains;
  std::vector<bool> taken(g.nodes.size(), false);
  for (size_t i = g.nodes.size(); i-- > 0;) {  // the last Concat of a block is its root
    if (taken[i] || !channelConcat(g, g.nodes[i])) continue;
    ConcatChain c{i, {}};
    for (size_t j = 0; j < i; ++j)
      if (!taken[j] && g.nodes[j].kind == g.nodes[i].kind && channelConcat(g, g.nodes[j]) &&
          prefixOf(g.nodes[j], g.nodes[i]))
        c.prefixes.push_back(j);
    if (!closed(g, c)) {
      if (!c.prefixes.empty() && closed(g, ConcatChain{i, {}})) chains.push_back({i, {}});
      taken[i] = true;
      continue;
    }
    taken[i] = true;
    for (size_t p : c.prefixes) taken[p] = true;
    chains.push_back(std::move(c));
  }
  std::reverse(chains.begin(), chains.end());
  return chains;
}

bool concatCopies(const runtime::QConcatAttrs& a, size_t k) {
  return k < a.zeros.size() && k < a.mults.size() && a.zeros[k] == a.zeroPoint && a.shift >= -23 && a.shift <= 7 &&
         a.mults[k] == (int64_t{1} << (23 + a.shift));
}

}  // namespace accelc::compiler
