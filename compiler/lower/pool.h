// compiler/lower/pool.h — int8 MaxPool on the accelerator's ALU.
//
// A tile of output rows of one channel block: its input rows are loaded into
// accumulator rows (LOAD acc8, sign-extending), one ALU `mov` copies each
// window's first element into the output rows, and one ALU `max` whose loops
// walk the window (iter_out over kernel rows, iter_in over kernel columns)
// folds the rest in; the output rows are stored. Only pooling without padding
// runs here (MaxPool pads with -infinity, blocked tensors with their zero point).
#ifndef ACCELC_COMPILER_LOWER_POOL_H_
#define ACCELC_COMPILER_LOWER_POOL_H_

#include <string>

#include "compiler/lower/loop_ir.h"
#include "hwspec/hwspec.h"
#include "runtime/layout.h"
#include "support/status.h"

namespace accelc::compiler::lower {

/// A max-pooling layer to run on the accelerator.
struct PoolLayer {
  std::string name;             ///< layer name
  runtime::BlockedLayout x, y;  ///< input and output layouts
  int64_t kh = 1, kw = 1, sh = 1, sw = 1;  ///< window and strides
  int64_t oh = 1, ow = 1;       ///< output size
};

/// Output rows per tile: the most that fit the accumulator's halves, or an
/// error naming the layer and the buffer.
support::Expected<int64_t> choosePoolRows(const PoolLayer& l, const hwspec::HwSpec& hw);
/// The loop IR with `rows` output rows per tile; `x` and `y` are byte addresses.
Kernel lowerMaxPool(const PoolLayer& l, int64_t rows, const hwspec::HwSpec& hw, uint64_t x, uint64_t y);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_POOL_H_
