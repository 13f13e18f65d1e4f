// compiler/lower/add.h — the residual QAdd on the accelerator's ALU.
//
// Per tile of image rows of one channel block, exactly runtime/kernels/qops.cc's
// QAdd: each operand's rows minus its zero point, times 2^8, times its Q31
// multiplier (mulq with a multiplier row); the two added, shifted (shrr),
// offset by the output zero point, clamped and stored. Two forms:
// - GEMM form, when both multipliers are below 2^30 in magnitude (the
//   quantizer makes them so): the load unit brings the operands into the
//   input buffer, and the compute unit makes -128·x with a GEMM on a weight
//   block of -128 on the diagonal (after a GEMM with reset), adds 128·zero
//   and multiplies by -2·mult, which gives the same products. The operands'
//   DMA overlaps the compute unit's work.
// - ALU form, otherwise: the compute unit loads both operands into
//   accumulator rows (LOAD acc8), subtracts the zero points (add imm) and
//   scales by 2^8 (`shr` by -8) before the mulq.
#ifndef ACCELC_COMPILER_LOWER_ADD_H_
#define ACCELC_COMPILER_LOWER_ADD_H_

#include <string>
#include <vector>

#include "compiler/lower/loop_ir.h"
#include "hwspec/hwspec.h"
#include "runtime/attrs.h"
#include "runtime/layout.h"
#include "support/status.h"

namespace accelc::compiler::lower {

/// An elementwise int8 addition to run on the accelerator.
struct AddLayer {
  std::string name;                ///< layer name
  runtime::BlockedLayout a, b, y;  ///< operand and output layouts (same logical shape)
  runtime::QAddAttrs attrs;        ///< zero points, multipliers, shift, clamp
  /// GEMM form: the passes walk a tile's pixels with the instructions' loops
  /// (one micro-op per pass) rather than one micro-op per pixel; the ISA's
  /// loop fields must hold the tile.
  bool loops = false;
};

/// Whether `l` takes the GEMM form on `hw`.
bool addOnGemm(const AddLayer& l, const hwspec::HwSpec& hw);
/// Whether tiles of `rows` image rows fit the buffers (accumulator halves, input buffer, micro-ops); the
/// error names the layer and the buffer.
support::Status checkAddRows(const AddLayer& l, int64_t rows, const hwspec::HwSpec& hw);
/// Image rows per tile: the most that checkAddRows accepts, or an error naming the buffer.
support::Expected<int64_t> chooseAddRows(const AddLayer& l, const hwspec::HwSpec& hw);
/// The parameters in DRAM: the ALU form's two multiplier rows (mult_a,
/// mult_b in every lane) as accumulator entries; the GEMM form's weight block
/// (rounded up to accumulator entries), then rows of -2·mult_a, -2·mult_b,
/// 128·zero_a and 128·zero_b. Place them at a weight-entry boundary.
std::vector<uint8_t> packAddParams(const AddLayer& l, const hwspec::HwSpec& hw);
/// The loop IR; addresses are bytes.
Kernel lowerAdd(const AddLayer& l, int64_t rows, const hwspec::HwSpec& hw, uint64_t a, uint64_t b, uint64_t y,
                uint64_t params);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_ADD_H_
