// compiler/engine/reference.h — the reference engine: a Graph on the runtime's
// reference kernels, node by node. It is the golden model of every other engine.
#ifndef ACCELC_COMPILER_ENGINE_REFERENCE_H_
#define ACCELC_COMPILER_ENGINE_REFERENCE_H_

#include <vector>

#include "compiler/graph/graph.h"
#include "support/status.h"

namespace accelc::compiler {

/// Runs `g` on `inputs` (one per graph input, in order; dtypes and shapes must
/// match exactly) and returns the graph outputs in order.
support::Expected<std::vector<Tensor>> runReference(const Graph& g, const std::vector<Tensor>& inputs);

/// Like runReference, but an input set whose leading dimensions are all k times
/// the model's runs as k inferences whose outputs are concatenated along axis 0.
support::Expected<std::vector<Tensor>> runReferenceBatched(const Graph& g, const std::vector<Tensor>& inputs);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_ENGINE_REFERENCE_H_
