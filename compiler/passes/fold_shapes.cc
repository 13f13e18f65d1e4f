// compiler/passes/fold_shapes.cc — fold-shapes.
//
//   node "s" Shape("x") -> ("d" : int64[4])      with "x" : float32[1,3,8,8]
//     becomes
//   const "d" : int64[4] = [1,3,8,8]
//
// Every value has a static shape after import, so Shape never needs to run;
// fold-constants then folds the Gather/Concat/Reshape chains that read it.
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

support::Status foldShapes(Graph& g) {
  std::vector<Node> kept;
  for (Node& n : g.nodes) {
    if (n.kind != OpKind::kShape) {
      kept.push_back(std::move(n));
      continue;
    }
    Tensor probe(g.values[n.inputs[0]].dtype, g.values[n.inputs[0]].shape);  // only its shape is read
    std::vector<Tensor> out(1);
    ACCELC_TRY(runtime::runOp(n.kind, n.attrs, {&probe}, out, g.loc(n)));
    g.values[n.outputs[0]].constant = std::move(out[0]);
  }
  g.nodes = std::move(kept);
  return support::Status::ok();
}

}  // namespace accelc::compiler
