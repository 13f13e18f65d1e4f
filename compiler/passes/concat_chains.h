// compiler/passes/concat_chains.h — channel Concats that can share one output
// buffer, for calibration (one scale) and the DRAM plan (views, no copies).
//
// A chain is a root Concat and the Concats whose inputs are the first inputs
// of the root's, in order: DenseNet's block concatenates every earlier
// feature map again for each layer, and each of those Concats is a prefix of
// the block's last one. When the root's output is one buffer, each input is
// a slice of it that its producer writes, and each prefix Concat is its first
// channels. Only values that the chain alone reads belong to one.
#ifndef ACCELC_COMPILER_PASSES_CONCAT_CHAINS_H_
#define ACCELC_COMPILER_PASSES_CONCAT_CHAINS_H_

#include <cstddef>
#include <vector>

#include "compiler/graph/graph.h"
#include "runtime/attrs.h"

namespace accelc::compiler {

/// A root Concat (node index) and the prefix Concats that end inside it.
struct ConcatChain {
  size_t root = 0;
  std::vector<size_t> prefixes;
};

/// The chains of `g`'s Concat and QConcat nodes joining the channels (axis 1)
/// of 4-D values: every input is a layer's output that only the chain reads
/// (no graph input, output or constant), and no prefix's output is a graph
/// output. A Concat in no other's prefix is a chain of its own.
std::vector<ConcatChain> concatChains(const Graph& g);

/// Whether QConcat `a` copies its input `k` unchanged (the output's zero point, a multiplier of one), so
/// that the input can be a view of the output.
bool concatCopies(const runtime::QConcatAttrs& a, size_t k);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_PASSES_CONCAT_CHAINS_H_
