// compiler/lower/row_tiles.cc — the row-tile loop nest of the ALU kernels.
#include "compiler/lower/row_tiles.h"

#include <climits>

#include "isa/instruction.h"

namespace accelc::compiler::lower {

using isa::Buffer;
using isa::Opcode;

Stmt uopTableLoad(int64_t entries) {
  return Stmt::intrinsic(Opcode::kLoad, "the micro-op table")
      .set("buffer", static_cast<int64_t>(Buffer::kUop))
      .set("sram_base", 0)
      .set("dram_base", 0)  // the code generator places the table
      .set("y_size", 1)
      .set("x_size", entries)
      .set("x_stride", entries);
}

RowTiles::RowTiles(Kernel& k, int64_t n, int64_t cb, int64_t h, int64_t th)
    : vn_(k.newVar("n")), vb_(k.newVar("cb")), n_(n), cb_(cb), th_(th), full_(h / th), last_(h - (h / th) * th) {}

Expr RowTiles::counter(const Expr& t) const {
  Term tt{0, {{vn_, cb_ * tiles()}, {vb_, tiles()}}, 0, 1};
  for (const Term& e : t.terms) {
    tt.constant += e.constant;
    tt.coeffs.insert(tt.coeffs.end(), e.coeffs.begin(), e.coeffs.end());
  }
  Expr c;
  c.terms = {tt};
  return c;
}

Expr RowTiles::dramEntry(const runtime::BlockedLayout& x, uint64_t addr, int64_t entryBytes, const Expr& t) const {
  return Expr(static_cast<int64_t>(addr / static_cast<uint64_t>(entryBytes)) + x.left) +
         Expr::var(vn_, x.rows() * x.rowBlocks() * x.cols()) + (Expr(x.top) + t * th_) * (x.rowBlocks() * x.cols()) +
         Expr::var(vb_, x.cols());
}

Stmt RowTiles::load(const runtime::BlockedLayout& x, uint64_t addr, int64_t entryBytes, Buffer buffer, const Expr& sram,
                    const Expr& t, int64_t rows, int64_t cols, const std::string& comment) const {
  return Stmt::intrinsic(Opcode::kLoad, comment)
      .set("buffer", static_cast<int64_t>(buffer))
      .set("sram_base", sram)
      .set("dram_base", dramEntry(x, addr, entryBytes, t))
      .set("y_size", rows)
      .set("x_size", cols)
      .set("x_stride", x.rowBlocks() * x.cols());
}

Stmt RowTiles::store(const runtime::BlockedLayout& y, uint64_t addr, int64_t entryBytes, const Expr& base,
                     const Expr& t, int64_t rows, int64_t cols) const {
  return Stmt::intrinsic(Opcode::kStore, "the tile's output rows")
      .set("buffer", static_cast<int64_t>(Buffer::kOut))
      .set("sram_base", base)
      .set("dram_base", dramEntry(y, addr, entryBytes, t))
      .set("y_size", rows)
      .set("x_size", cols)
      .set("x_stride", y.rowBlocks() * y.cols())
      .flag("pop_prev")
      .flag("push_prev", counter(t), INT64_MIN, n_ * cb_ * tiles() - 2);
}

void RowTiles::emit(Kernel& k, const std::function<void(std::vector<Stmt>&, int, const Expr&)>& tile) const {
  Stmt images = Stmt::loop(vn_, n_), blocks = Stmt::loop(vb_, cb_);
  if (full_ > 0) {
    const int vt = k.newVar("t");
    Stmt rows = Stmt::loop(vt, full_);
    tile(rows.body, 0, Expr::var(vt));
    blocks.body.push_back(rows);
  }
  if (last_) tile(blocks.body, 1, Expr(full_));
  images.body.push_back(blocks);
  k.body.push_back(images);
  k.body.push_back(Stmt::intrinsic(Opcode::kFinish, ""));
}

}  // namespace accelc::compiler::lower
