// compiler/driver/pipeline.h — the compiler as one pipeline of named passes.
//
// A model's graph goes through the graph passes (compiler/passes), gets its
// quantization parameters (the model's own Q/DQ scales, or calibration),
// becomes an integer graph, and then the back end decides and builds the
// bundle pass by pass (compiler/driver/lowering.h):
//
//   fold-constants fold-shapes fold-constants remove-identity fold-batchnorm
//   calibrate quantize channel-shuffle im2col host-weights
//   trial-borders partition move-clamps infer-borders build-steps plan-dram lower emit finish-bundle
//
// Every pass is verified after it runs, and every pass's result has a text
// form (`accelc compile --dump-after=NAME`): the graph for the graph passes,
// placements with their reasons, borders, steps, the DRAM plan, the loop IR,
// the programs and the layer records for the back end's.
#ifndef ACCELC_COMPILER_DRIVER_PIPELINE_H_
#define ACCELC_COMPILER_DRIVER_PIPELINE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/driver/compile.h"
#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// What the pipeline works on.
struct CompileState {
  CompileState(Graph graph_, const isa::Target* target, const CompileOptions& options, std::vector<std::string>* notes)
      : graph(std::move(graph_)), t(target), o(options), log(notes) {}
  Graph graph;                       ///< the model's graph, then its integer graph
  const isa::Target* t;              ///< the accelerator; null when only quantizing
  const CompileOptions& o;           ///< the options
  std::vector<std::string>* log;     ///< decisions worth reporting; may be null
  std::optional<Lowering> lowering;  ///< the back end's state, from trial-borders on
  bool floatOnHost = false;          ///< the calibrate pass kept the float graph: the whole model runs on the host
};

/// One named pass of the pipeline.
struct PipelinePass {
  std::string name;                                      ///< stable kebab-case name
  std::string summary;                                   ///< one line for --list-passes
  std::function<support::Status(CompileState&)> run;     ///< the pass, verified after it runs
  std::function<std::string(const CompileState&)> text;  ///< its result as text
};

/// The whole pipeline, in order.
const std::vector<PipelinePass>& compilePipeline();

/// Ok when `name` is empty or names a pass of the pipeline; else an error listing them.
support::Status checkDumpAfter(const std::string& name);

/// Runs the passes of the pipeline from `first` to `last` (both included; ""
/// for the end); after each, the dump of `s.o.dumpAfter` when it names it. An
/// unknown dumpAfter is an error, found before any pass runs.
support::Status runCompilePipeline(CompileState& s, const std::string& first, const std::string& last = "");

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_PIPELINE_H_
