// compiler/passes/remove_identity.cc — remove-identity.
//
//   node "a" Relu("x") -> ("y" ...)   node "i" Identity("y") -> ("z" ...)   node "b" Tanh("z") ...
//     becomes
//   node "a" Relu("x") -> ("y" ...)   node "b" Tanh("y") ...
//
// Identity, and Dropout at inference (its mask output unused), disappear. When
// the removed output is a graph output, the input value takes its name, so the
// model's interface does not change; a node between two boundary values stays.
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

support::Status removeIdentity(Graph& g) {
  std::vector<Node> kept;
  for (Node& n : g.nodes) {
    const bool passThrough = n.kind == OpKind::kIdentity ||
                             (n.kind == OpKind::kDropout && (n.outputs.size() == 1 || useCount(g, n.outputs[1]) == 0));
    const int in = n.inputs[0], out = n.outputs[0];
    if (!passThrough || (isBoundary(g, in) && isBoundary(g, out)) || (g.values[in].constant && isBoundary(g, out))) {
      kept.push_back(std::move(n));
      continue;
    }
    if (isBoundary(g, out)) g.values[in].name = g.values[out].name;
    replaceUses(g, out, in);
  }
  g.nodes = std::move(kept);
  return support::Status::ok();
}

}  // namespace accelc::compiler
