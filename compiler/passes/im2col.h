// compiler/passes/im2col.h — narrow convolutions unrolled into channels.
//
// A QConv whose input has few channels wastes most of the GEMM's reduction
// width: with C channels in a block of block_in, each of its KH·KW window
// positions is a pass over a block that is mostly zeros. When the input comes
// from the host (a graph input's QuantizeLinear), this rewrite makes the host
// unroll the windows into channels (Im2col, runtime/kernels/qops.cc) and the
// accelerator run a 1×1 QConv over C·KH·KW channels, whose weights are the
// same bytes reshaped to [M, C·KH·KW, 1, 1]. The sums, and so the outputs, are
// those of the original QConv.
#ifndef ACCELC_COMPILER_PASSES_IM2COL_H_
#define ACCELC_COMPILER_PASSES_IM2COL_H_

#include <string>
#include <vector>

#include "compiler/graph/graph.h"
#include "hwspec/hwspec.h"

namespace accelc::compiler {

/// Rewrites each QConv fed by a QuantizeLinear whose window is larger than 1×1
/// when unrolling at least halves its GEMM passes on `hw`; logs each rewrite.
void im2colNarrowConvs(Graph& g, const hwspec::HwSpec& hw, std::vector<std::string>* log);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_PASSES_IM2COL_H_
