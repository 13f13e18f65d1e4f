// compiler/lower/pool.h — int8 MaxPool and QAveragePool on the accelerator's ALU.
//
// A tile of output rows of one channel block: its input rows are loaded into
// accumulator rows (LOAD acc8, sign-extending). MaxPool, when each window has
// a row no other window reads (stride at least half the window, as 3x3 with
// stride 2): a column pass folds the window's other rows into that row in
// place (ALU `max`, its loop over the rows), then a `mov` of each window's
// first column into the output rows and a `max` over its next kw - 1 columns
// — kh - 1 operations per input column and kw per output pixel. Otherwise
// one `mov` copies each window's corner into the output rows and one `max`
// whose loops walk the whole window folds the rest in. A clamp below (`lo`)
// ends with a `max` by an immediate. QAveragePool: `mov` of the immediate -KH·KW·zero_x, an `add` over
// the window, `shr` by -8 (x2^8, saturating), `mulq` by a multiplier row, `shrr`,
// the zero point and the clamp — exactly runtime/kernels/qops.cc. A global
// average whose window does not fit the accumulator's halves whole sums it in
// chunks of input rows into one row per channel block. The output rows are
// stored. Padding (pt, pl, and windows past the bottom and right
// edges) is read from x's border, which must be wide enough.
#ifndef ACCELC_COMPILER_LOWER_POOL_H_
#define ACCELC_COMPILER_LOWER_POOL_H_

#include <string>
#include <vector>

#include "compiler/lower/loop_ir.h"
#include "hwspec/hwspec.h"
#include "runtime/attrs.h"
#include "runtime/layout.h"
#include "support/status.h"

namespace accelc::compiler::lower {

/// A pooling layer to run on the accelerator.
struct PoolLayer {
  std::string name;             ///< layer name
  runtime::BlockedLayout x, y;  ///< input and output layouts
  int64_t kh = 1, kw = 1, sh = 1, sw = 1;  ///< window and strides
  int64_t pt = 0, pl = 0;       ///< top and left padding, read from x's border
  int64_t oh = 1, ow = 1;       ///< output size
  bool average = false;         ///< QAveragePool (else MaxPool)
  int64_t lo = -128;            ///< MaxPool: a clamp below on its maxima (its producer's, moved here)
  runtime::QPoolAttrs avg;      ///< the average's requantization
};

/// Whether tiles of `rows` output rows fit the accumulator's halves and the
/// micro-op buffer; the error names the layer and the buffer.
support::Status checkPoolRows(const PoolLayer& l, int64_t rows, const hwspec::HwSpec& hw);
/// Output rows per tile: the most that checkPoolRows accepts, or an error
/// naming the layer and the buffer.
support::Expected<int64_t> choosePoolRows(const PoolLayer& l, const hwspec::HwSpec& hw);
/// The multiplier row of an average (mult in every lane) as an accumulator entry.
std::vector<uint8_t> packPoolParams(const PoolLayer& l, const hwspec::HwSpec& hw);
/// The loop IR with `rows` output rows per tile; `x`, `y` and `params` (averages
/// only) are byte addresses.
Kernel lowerPool(const PoolLayer& l, int64_t rows, const hwspec::HwSpec& hw, uint64_t x, uint64_t y, uint64_t params = 0);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_POOL_H_
