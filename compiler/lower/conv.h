// compiler/lower/conv.h — one int8 convolution (QConv, or QGemm as a 1×1
// convolution over a row of pixels) on the accelerator: its schedule, the
// loop IR it lowers to, and its packed constants.
//
// Data layouts (runtime/layout.h): the input and output are blocked and
// bordered, so the kernel never pads; weights are packed as [MB][KH][CB][KW]
// entries of block_out × block_in int8; the per-channel bias, multiplier and
// shift as [MB][3] accumulator entries. A tile is `tileRows` output rows (and,
// for wide images, `tileCols` output columns) of `outBlocks` output-channel
// blocks, which share every input row the tile loads; its reduction runs over
// chunks of `chunkBlocks` input channel blocks, each double-buffered in the
// input and weight buffers while the accumulator and output buffers alternate
// per tile. The accumulator rows of a tile are set to the bias (ALU mov from
// the bias row), reduced by one GEMM per chunk, then requantized by ALU mulq
// (per-channel multiplier row), shrr (shift row; skipped when every shift is
// 0), add (zero point), max/min (clamp), and stored one output block at a time.
#ifndef ACCELC_COMPILER_LOWER_CONV_H_
#define ACCELC_COMPILER_LOWER_CONV_H_

#include <string>
#include <vector>

#include "compiler/lower/loop_ir.h"
#include "hwspec/hwspec.h"
#include "runtime/attrs.h"
#include "runtime/layout.h"
#include "runtime/tensor.h"
#include "support/status.h"

namespace accelc::compiler::lower {

/// A convolution to run on the accelerator.
struct ConvLayer {
  std::string name;               ///< layer name (for errors and labels)
  runtime::BlockedLayout x, y;    ///< input and output layouts (borders >= pads)
  int64_t m = 1, kh = 1, kw = 1;  ///< output channels, kernel
  int64_t sh = 1, sw = 1;         ///< strides
  int64_t pt = 0, pl = 0;         ///< top and left padding (bottom/right follow from oh, ow)
  int64_t oh = 1, ow = 1;         ///< output size
  int64_t zeroPoint = 0, lo = -128, hi = 127;  ///< requantization output
  int64_t group = 1;              ///< channel groups (see GroupForm)
  runtime::Tensor weight;         ///< int8 [M, C/group, KH, KW]; empty when imageWeights
  std::vector<int32_t> bias, mult, shift;  ///< per output channel
  /// Each image has weights of its own, packed at run time (a matrix product's right operand, in
  /// runtime::BlockedForm::kWeights): image n's entries follow image n-1's in DRAM. Group 1 only.
  bool imageWeights = false;
};

/// How a grouped convolution maps onto blocks: `units` independent block
/// convolutions, each reducing `inBlocks` input channel blocks into `outBlocks`
/// output channel blocks; unit u reads input blocks [u·inBlocks, (u+1)·inBlocks)
/// and writes output blocks [u·outBlocks, (u+1)·outBlocks). A dense
/// convolution is one unit of every block. Groups that fill whole blocks are
/// units of their own; groups smaller than a block that tile it evenly (a
/// depthwise convolution) share a unit per block, whose weight block is block
/// diagonal: the GEMM core computes them all at once, with zeros off the
/// diagonal.
struct GroupForm {
  int64_t units = 1, inBlocks = 1, outBlocks = 1;
};
/// The matrix product of int8 a [..., M, K] and b [..., K, N] (the same batch dimensions, zero points 0) as a
/// convolution of per-image weights: each of the B matrices of a is a row of M pixels (runtime::BlockedForm::kRows),
/// each of b's its image's weights (kWeights), bias 0 and `q`'s requantization in every channel. The caller has
/// checked the shapes and attributes.
ConvLayer matmulLayer(const std::string& name, const runtime::Shape& a, const runtime::Shape& b,
                      const runtime::QMulAttrs& q, const hwspec::HwSpec& hw);

/// The block form of `l`'s groups, or an error naming the layer when its groups
/// neither fill nor evenly divide the blocks (such a layer can run as a dense
/// convolution with zero weights: denseOf).
support::Expected<GroupForm> groupForm(const ConvLayer& l, const hwspec::HwSpec& hw);
/// `l` as a dense convolution (group 1): weights zero across groups.
ConvLayer denseOf(const ConvLayer& l);

/// How a convolution is tiled.
struct ConvSchedule {
  int64_t tileRows = 1;     ///< output rows per tile
  int64_t chunkBlocks = 1;  ///< input channel blocks per reduction chunk (divides the unit's, GroupForm)
  int64_t tileCols = 0;     ///< output columns per tile (0: the whole row)
  int64_t cycles = 0;       ///< estimated cycles (docs/microarchitecture.md formulas)
  std::string why;          ///< how it was chosen, for --report
  int64_t outBlocks = 1;    ///< output channel blocks per tile (divides the unit's, GroupForm)
  /// The bias and requantization passes walk a tile's pixels with the ALU's
  /// two loops (one micro-op per output block) instead of one micro-op per
  /// pixel: a far smaller micro-op table, when the ISA's loop fields hold
  /// the tile's rows and columns.
  bool aluLoops = false;
  /// A chunk of one input block loads its rows with a DMA each rather than
  /// all with one: for an ISA whose DMA fields cannot hold the rows at once.
  bool rowLoads = false;
};

/// Byte addresses of everything the kernel touches in DRAM.
struct ConvAddrs {
  uint64_t x = 0, y = 0, weights = 0, params = 0;
};

/// Checks a schedule against the hardware: a core of one row (gemm.batch =
/// 1), every buffer (halves when double buffered), the micro-op buffer, and
/// the hazard padding. Errors name the
/// layer and the buffer.
support::Status checkSchedule(const ConvLayer& l, const ConvSchedule& s, const hwspec::HwSpec& hw);
/// Every legal schedule, with its estimate from the tiling formulas, lowest
/// first; or an error naming the layer and the buffer that no tiling fits.
support::Expected<std::vector<ConvSchedule>> rankSchedules(const ConvLayer& l, const hwspec::HwSpec& hw);
/// The legal schedule with the lowest estimated cycles (see rankSchedules).
support::Expected<ConvSchedule> chooseSchedule(const ConvLayer& l, const hwspec::HwSpec& hw);
/// "R rows x C columns x M output blocks x K input blocks per chunk".
std::string describe(const ConvSchedule& s);
/// The loop IR of `l` under `s`.
Kernel lowerConv(const ConvLayer& l, const ConvSchedule& s, const hwspec::HwSpec& hw, const ConvAddrs& a);
/// Weights as [MB][KH][CB][KW] entries (CB: the unit's input blocks).
std::vector<uint8_t> packConvWeights(const ConvLayer& l, const hwspec::HwSpec& hw);
/// Bias, multiplier and shift as [MB][3] accumulator entries.
std::vector<uint8_t> packConvParams(const ConvLayer& l, const hwspec::HwSpec& hw);
/// The ALU passes of its tiles by name ("bias mulq shrr zero max min", those it needs): with the layouts,
/// shapes and schedule they decide the layer's program, whatever its weights.
std::string requantForm(const ConvLayer& l);
/// MACs of the layer (true channels of each group, no padding).
int64_t convMacs(const ConvLayer& l);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_CONV_H_
