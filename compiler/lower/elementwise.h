// compiler/lower/elementwise.h — integer elementwise ops on the accelerator's
// ALU, bit-exact with runtime/kernels/qelementwise.cc.
//
// Per tile of image rows of one channel block, x's rows are loaded into
// accumulator rows (LOAD acc8, sign-extending) and every step of the
// reference kernel becomes one ALU pass over the tile (the instruction's
// loops walk its rows and columns; one micro-op per pass and accumulator
// half). Per-tensor multipliers, offsets and one_h come from parameter rows
// loaded once into both halves (an immediate holds only 16 signed bits, and
// mulq's immediate is its top bits only). Forms:
// - QClip, QHardSigmoid (QRescaleAttrs): x - zero_x, ·2^8 (`shr` by -8),
//   mulq by the mult row, +sat the offset row, shrr, + zero point, clamp.
// - QHardSwish: d = x - zero_x; a second row per pixel gets h (mov, ·2^8,
//   mulq, +sat offset_h, shrr, max 0, min one_h); then d·h (`mul`), mulq,
//   shrr, + zero point, clamp.
// - QMul: (a - zero_a)·(b - zero_b) (`mul`), mulq, shrr, + zero point,
//   clamp; b is a per-channel constant (its b - zero_b rows are parameters,
//   the channel block's row loaded per tile), a per-(image, channel) gate
//   [N, C, 1, 1] (its entry loaded per tile into one row), or a tensor of
//   x's shape (loaded per tile like x).
#ifndef ACCELC_COMPILER_LOWER_ELEMENTWISE_H_
#define ACCELC_COMPILER_LOWER_ELEMENTWISE_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "compiler/lower/loop_ir.h"
#include "hwspec/hwspec.h"
#include "runtime/attrs.h"
#include "runtime/layout.h"
#include "support/status.h"

namespace accelc::compiler::lower {

/// What QMul's second operand b is.
enum class MulOperand {
  kConstant,  ///< int8 per-channel constant [1, C, 1, 1] (or [C, 1, 1]): `constant`
  kGate,      ///< activation [N, C, 1, 1] in layout `b` (squeeze-and-excitation's gate)
  kSame,      ///< activation of x's shape in layout `b`
};

/// An elementwise int8 op to run on the accelerator.
struct EltwiseLayer {
  std::string name;             ///< layer name
  runtime::BlockedLayout x, y;  ///< input (QMul: a) and output layouts, same logical shape
  runtime::BlockedLayout b;     ///< QMul's b when kGate or kSame
  /// QRescaleAttrs: QClip or QHardSigmoid; QHardSwishAttrs; QMulAttrs: QMul.
  std::variant<runtime::QRescaleAttrs, runtime::QHardSwishAttrs, runtime::QMulAttrs> attrs;
  MulOperand operand = MulOperand::kSame;  ///< QMul only
  std::vector<int8_t> constant;            ///< QMul kConstant: b's C values
};

/// Ok when `l` can run on `hw`, else a located error saying why (an ALU op
/// missing from alu.ops, an unsupported shape of b, a layout that does not
/// match the core, attributes outside what the reference kernel accepts).
support::Status eltwiseSupported(const EltwiseLayer& l, const hwspec::HwSpec& hw);
/// Image rows per tile that fit the accumulator halves (double-buffered), or
/// an error naming the buffer.
support::Expected<int64_t> chooseEltwiseRows(const EltwiseLayer& l, const hwspec::HwSpec& hw);
/// The parameter rows as accumulator entries: the per-tensor rows (every lane
/// one value), then for a constant b one row of b - zero_b per channel block.
/// Place them at an accumulator-entry boundary.
std::vector<uint8_t> packEltwiseParams(const EltwiseLayer& l, const hwspec::HwSpec& hw);
/// The loop IR with `rows` image rows per tile; addresses are bytes (`b`:
/// QMul's kGate or kSame operand, else unused).
Kernel lowerEltwise(const EltwiseLayer& l, int64_t rows, const hwspec::HwSpec& hw, uint64_t x, uint64_t b, uint64_t y,
                    uint64_t params);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_ELEMENTWISE_H_
