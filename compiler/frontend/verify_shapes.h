// compiler/frontend/verify_shapes.h — the shape rules the reference kernels
// rely on, checked on an imported graph before anything runs.
//
// The importer checks the attributes ONNX's shape inference would crash on
// before that inference runs (onnx_import.cc); this checks, once shapes are
// known, what would otherwise only fail when the model runs: a group that
// does not divide the channels, weights that do not match them, a window
// larger than the padded input, a Reshape to another number of elements, and
// constant Gather indices out of range.
#ifndef ACCELC_COMPILER_FRONTEND_VERIFY_SHAPES_H_
#define ACCELC_COMPILER_FRONTEND_VERIFY_SHAPES_H_

#include <vector>

#include "compiler/graph/graph.h"
#include "support/status.h"

namespace accelc::compiler {

/// Checks every node of `g` whose input shapes are known (`known[value]`);
/// an error is located at the node: "model.onnx:NODE: error: ...".
support::Status verifyShapes(const Graph& g, const std::vector<bool>& known);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_FRONTEND_VERIFY_SHAPES_H_
