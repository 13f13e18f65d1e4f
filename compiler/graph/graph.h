// compiler/graph/graph.h — the Graph IR: typed values and nodes in topological order.
//
// A Graph is what the frontend imports and every pass rewrites. Values carry
// dtype, static shape and quantization parameters; constants carry their
// tensor. Nodes carry an op kind from the runtime's op table, its typed
// attributes (runtime/attrs.h), value ids for inputs (-1 = an omitted
// optional input) and outputs, and the ONNX node name as their location. The
// text form (graph_text.h) prints and parses back to an equal graph.
#ifndef ACCELC_COMPILER_GRAPH_GRAPH_H_
#define ACCELC_COMPILER_GRAPH_GRAPH_H_

#include <optional>
#include <string>
#include <vector>

#include "runtime/attrs.h"
#include "runtime/ops.h"
#include "runtime/tensor.h"
#include "support/status.h"

namespace accelc::compiler {

using runtime::OpKind;
using runtime::Shape;
using runtime::Tensor;

/// One tensor of the graph.
struct Value {
  std::string name;                  ///< unique within the graph
  support::DType dtype = support::DType::kFloat32;  ///< element type
  Shape shape;                       ///< static dimensions
  runtime::QuantParams quant;        ///< when quantized
  std::optional<Tensor> constant;    ///< set for initializers and folded constants
  bool operator==(const Value& o) const {
    return name == o.name && dtype == o.dtype && shape == o.shape && quant == o.quant && constant == o.constant;
  }
};

/// One operation.
struct Node {
  OpKind kind = OpKind::kIdentity;  ///< what it computes
  std::string name;                 ///< the ONNX node name (its location)
  runtime::Attrs attrs;             ///< typed attributes of `kind`
  std::vector<int> inputs;          ///< value ids; -1 for an omitted optional input
  std::vector<int> outputs;         ///< value ids
  bool operator==(const Node& o) const {
    return kind == o.kind && name == o.name && attrs == o.attrs && inputs == o.inputs && outputs == o.outputs;
  }
};

/// A whole model.
class Graph {
 public:
  std::string model;          ///< model file name, for locations
  std::vector<Value> values;  ///< every tensor
  std::vector<Node> nodes;    ///< in topological order
  std::vector<int> inputs;    ///< graph inputs (value ids)
  std::vector<int> outputs;   ///< graph outputs (value ids)

  /// Adds a value and returns its id.
  int addValue(Value v);
  /// The id of the value named `name`, or -1.
  int findValue(const std::string& name) const;
  /// Where a node is, for diagnostics: `model:node-name`.
  support::Location loc(const Node& n) const { return support::Location::node(model, n.name); }
  bool operator==(const Graph& o) const;
};

/// Renumbers values into the canonical order — graph inputs, constants, then
/// node outputs in node order — and drops values nothing defines or uses.
/// Imported and parsed graphs are canonical; passes call this when done.
void canonicalize(Graph& g);

/// Checks the structure: values defined once and before use, input counts
/// inside the op table's range, attributes of the op's struct, outputs defined.
support::Status verify(const Graph& g);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_GRAPH_GRAPH_H_
