// compiler/lower/add.h — the residual QAdd on the accelerator's ALU.
//
// Per tile of image rows of one channel block: both operands' rows are loaded
// into accumulator rows (LOAD acc8), their zero points subtracted (add imm),
// scaled by 2^8 (`shr` by -8), multiplied by their Q31 multipliers
// (mulq with a multiplier row), added, shifted (shrr), offset by the output
// zero point and clamped — exactly runtime/kernels/qops.cc's QAdd — and stored.
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
};

/// Image rows per tile that fit the accumulator halves, or an error naming the buffer.
support::Expected<int64_t> chooseAddRows(const AddLayer& l, const hwspec::HwSpec& hw);
/// The two multiplier rows (mult_a, mult_b in every lane) as accumulator entries.
std::vector<uint8_t> packAddParams(const AddLayer& l, const hwspec::HwSpec& hw);
/// The loop IR; addresses are bytes.
Kernel lowerAdd(const AddLayer& l, int64_t rows, const hwspec::HwSpec& hw, uint64_t a, uint64_t b, uint64_t y,
                uint64_t params);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_ADD_H_
