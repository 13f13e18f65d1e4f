// compiler/passes/pass_manager.cc — the pass table and running a named list.
#include "compiler/passes/passes.h"

namespace accelc::compiler {

const std::vector<PassInfo>& allPasses() {
  static const std::vector<PassInfo> kPasses = {
      {"fold-constants", foldConstants, "evaluate nodes whose inputs are all constants"},
      {"fold-shapes", foldShapes, "replace Shape of a statically shaped value by a constant"},
      {"remove-identity", removeIdentity, "drop Identity and inference Dropout"},
      {"fold-batchnorm", foldBatchNorm, "fold BatchNormalization into the Conv or Gemm before it, else make it a 1x1 depthwise Conv"},
      {"fuse-activations", fuseActivations,
       "turn the Erf form of Gelu into Gelu, x * Sigmoid(x) into Silu, and a spelled-out layer norm into LayerNormalization"},
      {"pool-forms", poolForms,
       "drop zero Pads; a padded AveragePool counting its padding becomes a depthwise Conv; a spatial ReduceMean "
       "becomes GlobalAveragePool"},
      {"fold-channel-shuffles", foldChannelShuffles,
       "a channel shuffle (Reshape, Transpose, Reshape) read only by Convs of one group moves into their weights"},
  };
  return kPasses;
}

std::vector<std::string> defaultPipeline() {
  return {"fold-constants", "fold-shapes", "fold-constants", "remove-identity", "fold-batchnorm", "fuse-activations", "pool-forms",
          "fold-channel-shuffles"};
}

support::Status runPipeline(Graph& g, const std::vector<std::string>& names,
                            const std::function<void(const std::string&, const Graph&)>& after) {
  for (const std::string& name : names) {
    const PassInfo* pass = nullptr;
    for (const PassInfo& p : allPasses())
      if (name == p.name) pass = &p;
    if (!pass) {
      std::string list;
      for (const PassInfo& p : allPasses()) list += std::string(list.empty() ? "" : ", ") + p.name;
      return support::error(support::Location(), "unknown pass '" + name + "'; the passes are: " + list);
    }
    ACCELC_TRY(pass->run(g));
    canonicalize(g);
    ACCELC_TRY(verify(g));
    if (after) after(name, g);
  }
  return support::Status::ok();
}

}  // namespace accelc::compiler
