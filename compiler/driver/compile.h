// compiler/driver/compile.h — a model to a bundle: the main job of accelc.
//
//   import -> graph passes -> quantize (the model's own Q/DQ scales, or
//   calibration) -> partition (accelerator or host, with a reason) -> DRAM
//   plan -> schedule and lower every accelerator layer -> bundle
#ifndef ACCELC_COMPILER_DRIVER_COMPILE_H_
#define ACCELC_COMPILER_DRIVER_COMPILE_H_

#include <map>
#include <string>
#include <vector>

#include "compiler/graph/graph.h"
#include "isa/target.h"
#include "runtime/bundle.h"
#include "support/status.h"

namespace accelc::compiler {

/// Options of `accelc compile`.
struct CompileOptions {
  std::map<std::string, Shape> shapes;  ///< --shape bindings
  std::string calibrate;                ///< --calibrate FILE.npy or DIR; "" = calib.npy beside the model
  double percentile = 100.0;            ///< --percentile: 100 is min/max
  bool serialize = false;               ///< --serialize: no overlap between the units
  std::string dumpAfter;                ///< --dump-after: a pass name, "quantize" or "lower"
  std::string* dump = nullptr;          ///< receives the dumps (graph text or loop IR)
};

/// Compiles the ONNX model at `path` for `t`. `log` receives one line per
/// decision worth reporting (quantization and partitioning notes).
support::Expected<runtime::Bundle> compileModel(const std::string& path, const isa::Target& t,
                                                const CompileOptions& o, std::vector<std::string>* log = nullptr);
/// Compiles an integer graph (what quantizeGraph makes) for `t`.
support::Expected<runtime::Bundle> compileIntegerGraph(const Graph& g, const isa::Target& t, bool serialize,
                                                       std::vector<std::string>* log = nullptr,
                                                       std::string* loopIr = nullptr);
/// The import, passes and quantization of compileModel: the integer graph.
support::Expected<Graph> quantizeModel(const std::string& path, const CompileOptions& o,
                                       std::vector<std::string>* log = nullptr);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_COMPILE_H_
