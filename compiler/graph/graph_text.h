// compiler/graph/graph_text.h — the Graph IR's text form.
//
//   graph "digits.onnx"
//   input "input" : float32[1,1,8,8]
//   const "w" : float32[8,1,3,3] = hex:3f800000...
//   node "Conv_0" Conv("input", "w", _) -> ("y" : float32[1,8,8,8]) {kernel_shape=[3,3], group=1, ...}
//   output "y"
//
// Names are quoted strings; `_` is an omitted optional input; every attribute
// of the op's struct is printed, so parse(print(g)) == g. Quantized values add
// `quant(scale=[...], zero_point=[...], axis=N)` after their type.
#ifndef ACCELC_COMPILER_GRAPH_GRAPH_TEXT_H_
#define ACCELC_COMPILER_GRAPH_GRAPH_TEXT_H_

#include <string>

#include "compiler/graph/graph.h"
#include "support/status.h"

namespace accelc::compiler {

/// Options of the printer.
struct PrintOptions {
  bool elideConstants = false;  ///< print `<N bytes>` instead of constant data (not parseable)
};

/// The text form of `g`.
std::string printGraph(const Graph& g, const PrintOptions& o = {});
/// Parses the text form; `path` locates errors (file:line:col).
support::Expected<Graph> parseGraph(const std::string& text, const std::string& path);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_GRAPH_GRAPH_TEXT_H_
