// compiler/frontend/compile_model.h — an ONNX model to a bundle: the import,
// then the pipeline of compiler/driver/pipeline.h.
#ifndef ACCELC_COMPILER_FRONTEND_COMPILE_MODEL_H_
#define ACCELC_COMPILER_FRONTEND_COMPILE_MODEL_H_

#include <string>
#include <vector>

#include "compiler/driver/compile.h"

namespace accelc::compiler {

/// Compiles the ONNX model at `path` for `t`. `log` receives one line per
/// decision worth reporting (quantization and partitioning notes).
support::Expected<runtime::Bundle> compileModel(const std::string& path, const isa::Target& t, const CompileOptions& o,
                                                std::vector<std::string>* log = nullptr);
/// The import, graph passes and quantization of compileModel: the integer graph.
support::Expected<Graph> quantizeModel(const std::string& path, const CompileOptions& o,
                                       std::vector<std::string>* log = nullptr);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_FRONTEND_COMPILE_MODEL_H_
