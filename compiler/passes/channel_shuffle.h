// compiler/passes/channel_shuffle.h — channel permutations spelled as
// Reshape → Transpose → Reshape (ShuffleNet's channel shuffle), and the two
// forms they take:
//
//   fold-channel-shuffles (a float pass): when every reader of the shuffled
//     value is a Conv of one group with constant weights, the permutation
//     moves into the readers' weights (input channel axis) and the shuffle
//     disappears: Σ_j W[m,j]·x[src[j]] = Σ_c W'[m,c]·x[c] with W'[m,src[j]] = W[m,j].
//   shuffleToConvs (on the integer graph): any other shuffle of an int8 value
//     whose output keeps the input's quantization becomes a 1×1 QConv whose
//     weights are 2 at (j, src[j]) and 0 elsewhere, bias -2·zero, multiplier
//     2^30 and shift 0. mulq(2·(x - z), 2^30) = x - z exactly, so the QConv
//     copies every value, and the GEMM core runs it. When every reader of the
//     shuffled value is a channel Split or Slice (ShuffleNet-v2's next unit),
//     each part gets a QConv of its own rows of the permutation instead, so
//     that a part a Concat reads is written in place like any layer's output.
#ifndef ACCELC_COMPILER_PASSES_CHANNEL_SHUFFLE_H_
#define ACCELC_COMPILER_PASSES_CHANNEL_SHUFFLE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/graph/graph.h"

namespace accelc::compiler {

/// A channel permutation of a 4-D value [N, C, H, W]: nodes[split] reshapes
/// it to [N, f1..fk, H, W], nodes[transpose] permutes only the factor axes,
/// nodes[merge] reshapes back to [N, C, H, W]. Output channel j holds input
/// channel source[j].
struct ChannelShuffle {
  size_t split = 0, transpose = 0, merge = 0;  ///< node indices
  int input = -1, output = -1;                 ///< value ids
  std::vector<int64_t> source;                 ///< per output channel
};

/// The shuffle whose last Reshape is nodes[merge], when the chain is one: each
/// intermediate value read only by the next node, shapes as above.
std::optional<ChannelShuffle> channelShuffleEndingAt(const Graph& g, size_t merge);

/// Rewrites each shuffle of an int8 value into 1×1 QConvs (see above); logs
/// each rewrite.
void shuffleToConvs(Graph& g, std::vector<std::string>* log);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_PASSES_CHANNEL_SHUFFLE_H_
