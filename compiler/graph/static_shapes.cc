// compiler/graph/static_shapes.cc — which values are fixed at compile time.
//
// A value is data-dependent when it is computed from a graph input's values;
// Shape and Size read only static shapes, so their outputs are fixed, as are
// constants. One forward walk over the (topologically ordered) nodes decides.
#include "compiler/graph/static_shapes.h"

namespace accelc::compiler {

std::vector<int> shapeOperands(OpKind k) {
  if (k == OpKind::kNonZero || k == OpKind::kConstantOfShape) return {0};
  if (k == OpKind::kRange) return {0, 1, 2};
  if (k == OpKind::kResize) return {2, 3};
  if (k == OpKind::kSlice) return {1, 2, 3, 4};
  const OpKind second[] = {OpKind::kReshape, OpKind::kExpand,    OpKind::kTile,      OpKind::kTopK,
                           OpKind::kPad,     OpKind::kOneHot,    OpKind::kSqueeze,   OpKind::kUnsqueeze,
                           OpKind::kSplit,   OpKind::kReduceSum, OpKind::kReduceMax, OpKind::kReduceMin,
                           OpKind::kReduceProd, OpKind::kReduceL1, OpKind::kReduceL2, OpKind::kReduceLogSum,
                           OpKind::kReduceLogSumExp, OpKind::kReduceSumSquare, OpKind::kReduceMean};
  for (OpKind s : second)
    if (k == s) return {1};
  return {};
}

support::Status checkStaticShapes(const Graph& g) {
  std::vector<bool> data(g.values.size(), false);
  for (int id : g.inputs) data[static_cast<size_t>(id)] = true;
  for (const Node& n : g.nodes) {
    for (int op : shapeOperands(n.kind)) {
      if (op >= static_cast<int>(n.inputs.size()) || n.inputs[op] < 0 || !data[static_cast<size_t>(n.inputs[op])])
        continue;
      const Value& v = g.values[n.inputs[op]];
      return support::error(g.loc(n), std::string(runtime::opInfo(n.kind).name) +
                                          ": the output shape depends on the values of input " + std::to_string(op) +
                                          " '" + v.name + "', which are known only at run time; accelc compiles "
                                          "static shapes (a constant, or one computed from shapes, folds)");
    }
    const bool fixed = n.kind == OpKind::kShape || n.kind == OpKind::kSize;
    bool fromData = false;
    for (int in : n.inputs) fromData = fromData || (in >= 0 && data[static_cast<size_t>(in)]);
    for (int out : n.outputs) data[static_cast<size_t>(out)] = fromData && !fixed;
  }
  return support::Status::ok();
}

}  // namespace accelc::compiler
