// compiler/graph/static_shapes.h — the compile-time rule that every shape is static.
//
// accelc compiles for fixed shapes. Most ops' output shapes follow from their
// inputs' shapes; some follow from input *values* (Reshape's shape, Expand,
// Tile, Range, TopK's k, Resize's scales and sizes, Pad's pads, NonZero's
// data, ...). Those values must be fixed at compile time: constants, or
// computed from constants and static shapes (Shape, Size), which the graph
// passes fold. The reference engine runs either kind: it computes shapes as it
// goes.
#ifndef ACCELC_COMPILER_GRAPH_STATIC_SHAPES_H_
#define ACCELC_COMPILER_GRAPH_STATIC_SHAPES_H_

#include <vector>

#include "compiler/graph/graph.h"
#include "support/status.h"

namespace accelc::compiler {

/// The inputs of an op kind whose values decide its output shape.
std::vector<int> shapeOperands(OpKind k);

/// Fails, naming the node and the operand, when an output shape depends on
/// a value that is not fixed at compile time (it depends on a graph input's
/// values rather than only on its shape).
support::Status checkStaticShapes(const Graph& g);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_GRAPH_STATIC_SHAPES_H_
