// compiler/passes/rewrite.h — small helpers shared by the passes.
#ifndef ACCELC_COMPILER_PASSES_REWRITE_H_
#define ACCELC_COMPILER_PASSES_REWRITE_H_

#include <string>
#include <utility>
#include <vector>

#include "compiler/graph/graph.h"

namespace accelc::compiler {

/// Makes every reader of value `from` (node inputs, graph outputs) read `to`.
inline void replaceUses(Graph& g, int from, int to) {
  for (Node& n : g.nodes)
    for (int& id : n.inputs)
      if (id == from) id = to;
  for (int& id : g.outputs)
    if (id == from) id = to;
}

/// The node that computes value `id`, or null (a graph input, a constant, -1).
inline const Node* producer(const Graph& g, int id) {
  for (const Node& n : g.nodes)
    for (int out : n.outputs)
      if (out == id) return &n;
  return nullptr;
}
inline Node* producer(Graph& g, int id) { return const_cast<Node*>(producer(static_cast<const Graph&>(g), id)); }

/// How many node inputs and graph outputs read value `id`.
inline int useCount(const Graph& g, int id) {
  int n = 0;
  for (const Node& node : g.nodes)
    for (int in : node.inputs) n += in == id;
  for (int out : g.outputs) n += out == id;
  return n;
}

/// Whether value `id` is a graph input or output.
inline bool isBoundary(const Graph& g, int id) {
  for (int x : g.inputs)
    if (x == id) return true;
  for (int x : g.outputs)
    if (x == id) return true;
  return false;
}

/// Whether op `k` only moves values (a max pool picks one of them): its int8
/// output keeps its input's quantization.
inline bool movesValues(OpKind k) {
  return k == OpKind::kMaxPool || k == OpKind::kFlatten || k == OpKind::kReshape || k == OpKind::kSqueeze ||
         k == OpKind::kUnsqueeze || k == OpKind::kTranspose || k == OpKind::kIdentity || k == OpKind::kSlice ||
         k == OpKind::kSplit;
}

/// The constant tensor of value `id`, or null (also for -1).
inline const Tensor* constantOf(const Graph& g, int id) {
  return id >= 0 && g.values[id].constant ? &*g.values[id].constant : nullptr;
}

/// Adds constant `t` as a value named `name`; returns its id.
inline int addConstant(Graph& g, const std::string& name, Tensor t) {
  Value v;
  v.name = name, v.dtype = t.dtype(), v.shape = t.shape();
  v.constant = std::move(t);
  return g.addValue(std::move(v));
}

/// Removes nodes none of whose outputs is read (repeatedly, back to front).
inline void removeDeadNodes(Graph& g) {
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = g.nodes.size(); i-- > 0;) {
      bool live = false;
      for (int id : g.nodes[i].outputs) live = live || useCount(g, id) > 0;
      if (live) continue;
      g.nodes.erase(g.nodes.begin() + static_cast<long>(i));
      changed = true;
    }
  }
}

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_PASSES_REWRITE_H_
