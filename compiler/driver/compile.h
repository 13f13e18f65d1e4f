// compiler/driver/compile.h — a graph to a bundle: the main job of accelc,
// as the pipeline of compiler/driver/pipeline.h.
//
//   graph passes -> quantization parameters (the model's own Q/DQ scales, or
//   calibration) -> quantize -> partition (accelerator or host, with a reason)
//   -> steps -> DRAM plan -> schedule and lower every accelerator layer -> bundle
//
// Compiling a graph links neither ONNX nor protobuf; compiler/frontend/
// compile_model.h starts from an ONNX file.
#ifndef ACCELC_COMPILER_DRIVER_COMPILE_H_
#define ACCELC_COMPILER_DRIVER_COMPILE_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/graph/graph.h"
#include "isa/target.h"
#include "runtime/bundle.h"
#include "support/status.h"

namespace accelc::compiler {

struct TuneHooks;  // compiler/schedule/tunable.h

/// A host's estimated time for steps, for the placement by cost; the caller
/// that knows the host's code sets it (compiler/host/host_cost.h).
struct HostCost {
  std::string host;  ///< how the reasons name it ("x86-64")
  /// Seconds of one step of `kind` with `macs` product MACs reading and writing `bytes`.
  std::function<double(runtime::OpKind kind, int64_t macs, int64_t bytes)> seconds;
  double packBytesPerSecond = 0;  ///< packing to and unpacking from the accelerator's layout
};

/// Options of `accelc compile`.
struct CompileOptions {
  std::map<std::string, Shape> shapes;  ///< --shape bindings
  std::string calibrate;                ///< --calibrate FILE.npy or DIR; "" = calib.npy beside the model
  double percentile = 100.0;            ///< --percentile: 100 is min/max
  bool serialize = false;               ///< --serialize: no overlap between the units
  /// --window: the most DRAM an accelerator bundle may use, such as a board's DMA pool (0: the hwspec's
  /// dram.window); a model that needs more fails to compile. A host-only bundle (hostTarget) has no DRAM
  /// window, and this is not read.
  int64_t window = 0;
  std::string dumpAfter;                ///< --dump-after: the name of a pass of the pipeline
  std::string* dump = nullptr;          ///< receives the dumps (each pass's text form)
  /// --target: "" compiles for the accelerator; "x86", "aarch64" or "armv7"
  /// places every node on the host (generated host code), with no
  /// calibration for a float model.
  std::string hostTarget;
  bool quantize = false;                ///< --quantize: int8 on the host too (with --target)
  /// --placement cost: the host's estimated time for a step, by which the
  /// partitioner weighs each region of accelerator layers (place_by_cost.h).
  /// Unset (--placement accelerator): every node the accelerator can run goes there.
  std::optional<HostCost> hostCost;
  /// --tune-log: the tuning log's schedules, which the partition takes over
  /// its own search; and where the tuner learns which layers it may tune.
  const TuneHooks* tune = nullptr;
};

/// The host targets `--target` accepts, and whether `name` is one of them
/// ("" when it is, else why not).
std::string hostTargetProblem(const std::string& name);

/// Compiles an imported graph (float, or int8 with Q/DQ nodes) for `t`.
/// `log` receives one line per decision worth reporting (quantization and
/// partitioning notes).
support::Expected<runtime::Bundle> compileGraph(Graph g, const isa::Target& t, const CompileOptions& o,
                                                std::vector<std::string>* log = nullptr);
/// The graph passes, quantization parameters and quantization of
/// compileGraph: the integer graph.
support::Expected<Graph> quantizeGraphOf(Graph g, const CompileOptions& o, std::vector<std::string>* log = nullptr);
/// Compiles an integer graph (what quantizeGraph makes) for `t`.
support::Expected<runtime::Bundle> compileIntegerGraph(const Graph& g, const isa::Target& t, bool serialize,
                                                       std::vector<std::string>* log = nullptr);
/// The samples of a calibration file (N inputs along axis 0) or directory of
/// .npy files, for the one input of `g`.
support::Expected<std::vector<std::vector<Tensor>>> calibrationSamples(const std::string& path, const Graph& g);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_COMPILE_H_
