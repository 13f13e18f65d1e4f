// compiler/passes/fold_constants.cc — fold-constants.
//
//   const "a" : float32[2] = ...   node "n" Relu("a") -> ("b" : float32[2])
//     becomes
//   const "b" : float32[2] = relu(a)
//
// Constant nodes become constant values; any other node whose inputs are all
// constants is evaluated with the runtime's reference kernels. QuantizeLinear
// and DequantizeLinear stay: they carry the quantization the compiler reads.
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

support::Status foldConstants(Graph& g) {
  std::vector<Node> kept;
  for (Node& n : g.nodes) {
    bool foldable = n.kind != OpKind::kQuantizeLinear && n.kind != OpKind::kDequantizeLinear;
    for (int id : n.inputs) foldable = foldable && (id < 0 || constantOf(g, id));
    if (!foldable) {
      kept.push_back(std::move(n));
      continue;
    }
    std::vector<const Tensor*> in;
    for (int id : n.inputs) in.push_back(constantOf(g, id));
    std::vector<Tensor> out(n.outputs.size());
    ACCELC_TRY(runtime::runOp(n.kind, n.attrs, in, out, g.loc(n)));
    for (size_t k = 0; k < out.size(); ++k) {
      Value& v = g.values[n.outputs[k]];
      v.dtype = out[k].dtype(), v.shape = out[k].shape();
      out[k].quant = v.quant;  // one source of quantization: the value's
      v.constant = std::move(out[k]);
    }
  }
  g.nodes = std::move(kept);
  return support::Status::ok();
}

}  // namespace accelc::compiler
