// compiler/passes/passes.h — graph passes and the pass manager.
//
// A pass rewrites a Graph in place and keeps it valid (the verifier runs after
// every pass in runPipeline). Each has a stable kebab-case name:
//   fold-constants   nodes whose inputs are all constants become constants
//   fold-shapes      Shape of a statically shaped value becomes a constant
//   remove-identity  Identity and inference Dropout disappear
//   fold-batchnorm   BatchNormalization after Conv or Gemm folds into its weights
//   fuse-activations Gelu's Erf form becomes Gelu, x * Sigmoid(x) becomes Silu, a spelled-out layer norm
//                    becomes LayerNormalization
//   pool-forms       zero Pads drop; padded AveragePool and spatial ReduceMean take pool forms
//   fold-channel-shuffles a channel shuffle read only by Convs moves into their weights
#ifndef ACCELC_COMPILER_PASSES_PASSES_H_
#define ACCELC_COMPILER_PASSES_PASSES_H_

#include <functional>
#include <string>
#include <vector>

#include "compiler/graph/graph.h"
#include "support/status.h"

namespace accelc::compiler {

support::Status foldConstants(Graph& g);
support::Status foldShapes(Graph& g);
support::Status removeIdentity(Graph& g);
support::Status foldBatchNorm(Graph& g);
support::Status fuseActivations(Graph& g);
support::Status poolForms(Graph& g);
support::Status foldChannelShuffles(Graph& g);

/// One named pass.
struct PassInfo {
  const char* name;                   ///< kebab-case name
  support::Status (*run)(Graph& g);   ///< the pass
  const char* summary;                ///< one line for --help
};

/// Every pass, in the order of the default pipeline's first appearance.
const std::vector<PassInfo>& allPasses();
/// The default pipeline: the list `accelc opt` runs without --passes.
std::vector<std::string> defaultPipeline();

/// Runs the named passes in order, verifying after each; `after(name, g)` is
/// called after every pass (for --dump-after). Unknown names are an error.
support::Status runPipeline(Graph& g, const std::vector<std::string>& names,
                            const std::function<void(const std::string&, const Graph&)>& after = {});

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_PASSES_PASSES_H_
