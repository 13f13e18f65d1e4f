// compiler/passes/host_weights.cc — constant Gemm weights transposed for the host.
#include "compiler/passes/host_weights.h"

namespace accelc::compiler {

void transposeGemmWeights(Graph& g, std::vector<std::string>* log) {
  int count = 0;
  for (Node& n : g.nodes) {
    if (n.kind != OpKind::kGemm || n.inputs.size() < 2 || n.inputs[1] < 0) continue;
    auto& attrs = std::get<runtime::GemmAttrs>(n.attrs);
    const Value& b = g.values[static_cast<size_t>(n.inputs[1])];
    if (!attrs.transB || !b.constant || b.dtype != support::DType::kFloat32 || b.shape.size() != 2) continue;
    const int64_t rows = b.shape[0], cols = b.shape[1];
    Value t = b;  // a new value: another node may read the original
    t.name = b.name + ":transposed", t.shape = {cols, rows};
    t.constant = Tensor(support::DType::kFloat32, t.shape);
    const float* from = b.constant->data<float>();
    float* to = t.constant->data<float>();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) to[c * rows + r] = from[r * cols + c];
    n.inputs[1] = g.addValue(std::move(t));
    attrs.transB = 0;
    ++count;
  }
  if (log && count) log->push_back("host weights: " + std::to_string(count) + " Gemm weights transposed at compile time");
}

}  // namespace accelc::compiler
