// compiler/passes/pad_concat.h — channel Concats of inputs that do not fill
// whole channel blocks, made into Concats that do.
//
// A Concat is placed in DRAM (each producer writing its slice of the output in
// place) only when every input but the last fills whole blocks of block_in
// channels: a slice starting inside a block would need its lanes moved.
// ShuffleNet-v2 x0.5 joins halves of 24 channels. Where each such input is
// the output of a QConv of one group with constant weights that only the
// Concat reads, and every reader of the Concat is such a QConv too, the
// producer computes its channels up to the next whole block (zero weights and
// bias: the GEMM core computes that block anyway) and each reader's weights
// get zeros for those channels. The readers' sums, and so every value the
// model computes, are unchanged; the Concat becomes views.
#ifndef ACCELC_COMPILER_PASSES_PAD_CONCAT_H_
#define ACCELC_COMPILER_PASSES_PAD_CONCAT_H_

#include <string>
#include <vector>

#include "compiler/graph/graph.h"
#include "hwspec/hwspec.h"

namespace accelc::compiler {

/// Pads the inputs of each such QConcat of `g` to whole blocks of `hw`'s block_in channels; logs each rewrite.
void padConcatChannels(Graph& g, const hwspec::HwSpec& hw, std::vector<std::string>* log);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_PASSES_PAD_CONCAT_H_
