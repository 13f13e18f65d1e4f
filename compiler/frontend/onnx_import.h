// compiler/frontend/onnx_import.h — ONNX models into the Graph IR.
//
// Reads a model with the ONNX library (opsets 11-17), converts initializers
// and Constant nodes to constants, maps every node onto the runtime's op table
// with typed attributes, and gives every value a static dtype and shape: the
// ONNX library's shape inference first, then accelc's own (running the graph)
// for what it leaves open. A dynamic input dimension must be bound with
// ImportOptions::shapes (`--shape name=1x3x224x224`). Every problem is a
// located diagnostic: `model.onnx:node-name: error: ...`.
#ifndef ACCELC_COMPILER_FRONTEND_ONNX_IMPORT_H_
#define ACCELC_COMPILER_FRONTEND_ONNX_IMPORT_H_

#include <map>
#include <string>

#include "compiler/graph/graph.h"
#include "support/status.h"

namespace accelc::compiler {

/// Options of the importer.
struct ImportOptions {
  std::map<std::string, Shape> shapes;  ///< input name -> shape binding its dynamic dimensions
};

/// Imports the ONNX model file at `path`.
support::Expected<Graph> importOnnx(const std::string& path, const ImportOptions& options = {});
/// Imports a serialized ModelProto; `name` is used in locations.
support::Expected<Graph> importOnnxBytes(const std::string& bytes, const std::string& name,
                                         const ImportOptions& options = {});

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_FRONTEND_ONNX_IMPORT_H_
