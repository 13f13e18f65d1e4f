// compiler/passes/host_weights.h — constant weights laid out for the host's
// generated kernels, when the whole model runs on the host (--target).
//
// A Gemm with transB = 1 (what PyTorch's Linear exports) multiplies by the
// rows of B; the host's matrix product streams B along its output columns,
// so a transposed B would be copied into columns on every run. When B is a
// constant, this rewrite transposes it once, at compile time, and clears
// transB: the product is the same, each output the same sum.
#ifndef ACCELC_COMPILER_PASSES_HOST_WEIGHTS_H_
#define ACCELC_COMPILER_PASSES_HOST_WEIGHTS_H_

#include <string>
#include <vector>

#include "compiler/graph/graph.h"

namespace accelc::compiler {

/// Transposes the constant B of every float Gemm with transB = 1; logs the count.
void transposeGemmWeights(Graph& g, std::vector<std::string>* log);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_PASSES_HOST_WEIGHTS_H_
