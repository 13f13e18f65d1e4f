// compiler/lower/row_tiles.h — the loop nest the ALU kernels (pooling,
// residual add) share: images × channel blocks × tiles of output rows, each
// tile in one accumulator half chosen by a linear tile counter, its output
// rows stored with the tokens that keep the halves from being overwritten
// early. Also the micro-op table load every kernel starts with.
#ifndef ACCELC_COMPILER_LOWER_ROW_TILES_H_
#define ACCELC_COMPILER_LOWER_ROW_TILES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/lower/loop_ir.h"
#include "isa/instruction.h"
#include "runtime/layout.h"

namespace accelc::compiler::lower {

/// LOAD of the kernel's whole micro-op table of `entries` (the code generator places it).
Stmt uopTableLoad(int64_t entries);

/// Tiles of `th` output rows over `n` images of `cb` channel blocks and `h` rows.
class RowTiles {
 public:
  /// Declares the image and channel-block loop variables of `k`.
  RowTiles(Kernel& k, int64_t n, int64_t cb, int64_t h, int64_t th);
  int vn() const { return vn_; }  ///< image loop variable
  int vb() const { return vb_; }  ///< channel-block loop variable
  int64_t full() const { return full_; }  ///< tiles of th rows
  int64_t last() const { return last_; }  ///< rows of the shorter last tile (0: none)
  /// The linear counter of the tile at tile row `t` (0, 1, 2, ... in program order).
  Expr counter(const Expr& t) const;
  /// LOAD into `buffer` at `sram` of the tile's `rows` × `cols` pixels of
  /// `x` (one DMA row per image row) at byte address `addr` (entries of
  /// `entryBytes`), for the tile at tile row `t`.
  Stmt load(const runtime::BlockedLayout& x, uint64_t addr, int64_t entryBytes, isa::Buffer buffer, const Expr& sram,
            const Expr& t, int64_t rows, int64_t cols, const std::string& comment) const;
  /// STORE of the tile's `rows` × `cols` output pixels from accumulator rows
  /// at `base` into `y` at byte address `addr` (entries of `entryBytes`); it
  /// pops the compute unit's token and, but for the last two tiles, returns one.
  Stmt store(const runtime::BlockedLayout& y, uint64_t addr, int64_t entryBytes, const Expr& base, const Expr& t,
             int64_t rows, int64_t cols) const;
  /// Appends the loop nest to `k`; `tile(body, kind, t)` appends the
  /// statements of one tile (kind 0: th rows, 1: the last tile's rows).
  void emit(Kernel& k, const std::function<void(std::vector<Stmt>&, int, const Expr&)>& tile) const;

 private:
  int vn_, vb_;
  int64_t n_, cb_, th_, full_, last_;
  int64_t tiles() const { return full_ + (last_ > 0); }
  /// The DRAM entry of the tile's first pixel in `x` at byte address `addr`.
  Expr dramEntry(const runtime::BlockedLayout& x, uint64_t addr, int64_t entryBytes, const Expr& t) const;
};

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_ROW_TILES_H_
