// compiler/frontend/compile_model.cc — importing, then compiling.
#include "compiler/frontend/compile_model.h"

#include "compiler/driver/pipeline.h"
#include "compiler/frontend/onnx_import.h"

namespace accelc::compiler {

namespace {

/// The model at `path`, once the options are known to be good.
support::Expected<Graph> import(const std::string& path, const CompileOptions& o) {
  ACCELC_TRY(checkDumpAfter(o.dumpAfter));
  ImportOptions io;
  io.shapes = o.shapes;
  return importOnnx(path, io);
}

}  // namespace

support::Expected<runtime::Bundle> compileModel(const std::string& path, const isa::Target& t, const CompileOptions& o,
                                                std::vector<std::string>* log) {
  ACCELC_ASSIGN_OR_RETURN(Graph g, import(path, o));
  return compileGraph(std::move(g), t, o, log);
}

support::Expected<Graph> quantizeModel(const std::string& path, const CompileOptions& o,
                                       std::vector<std::string>* log) {
  ACCELC_ASSIGN_OR_RETURN(Graph g, import(path, o));
  return quantizeGraphOf(std::move(g), o, log);
}

}  // namespace accelc::compiler
