// runtime/layout.h — the blocked activation layout the accelerator reads and writes.
//
// An int8 tensor [N, C, H, W] is stored as [N][Hp][CB][Wp] entries of `block`
// bytes: CB = ceil(C / block) channel blocks, and a border of (top, left,
// bottom, right) entries around every image so that a convolution reading it
// needs no padding of its own (Hp = top + H + bottom, Wp = left + W + right).
// Entry (n, h, cb, w) holds channels cb·block .. cb·block + block - 1 of pixel
// (h - top, w - left); the border and the channels past C hold `fill` (the
// tensor's zero point: what padding stands for). Host steps pack and unpack.
//
// A view stores its rows inside a wider tensor: each row of entries holds
// `pitch` channel blocks, of which the view's CB are its own (its slot's
// address is where its first block lies). A producer of one input of a
// channel Concat writes such a view of the Concat's output in place.
#ifndef ACCELC_RUNTIME_LAYOUT_H_
#define ACCELC_RUNTIME_LAYOUT_H_

#include <cstdint>
#include <optional>

#include "runtime/tensor.h"

namespace accelc::runtime {

/// A blocked, bordered layout of an [N, C, H, W] int8 tensor.
struct BlockedLayout {
  int64_t n = 1, c = 1, h = 1, w = 1;               ///< logical shape
  int64_t block = 1;                                ///< channels per entry
  int64_t top = 0, left = 0, bottom = 0, right = 0; ///< border, in entries
  int8_t fill = 0;                                  ///< border and padding-channel value
  int64_t pitch = 0;  ///< channel blocks per stored row: 0 = blocks(); more in a view of a wider tensor

  int64_t blocks() const { return (c + block - 1) / block; }
  /// Channel blocks per stored row (the view's own and those of the tensor around it).
  int64_t rowBlocks() const { return pitch ? pitch : blocks(); }
  int64_t rows() const { return top + h + bottom; }   ///< Hp
  int64_t cols() const { return left + w + right; }   ///< Wp
  /// Entries from the first to the last of the tensor (a view's span skips the wider tensor's last blocks).
  int64_t entries() const {
    const int64_t all = n * rows() * rowBlocks() * cols();
    return all ? all - (rowBlocks() - blocks()) * cols() : 0;
  }
  int64_t bytes() const { return entries() * block; }
  /// Entry index of (image, padded row, channel block, padded column).
  int64_t entry(int64_t img, int64_t row, int64_t cb, int64_t col) const {
    return ((img * rows() + row) * rowBlocks() + cb) * cols() + col;
  }
  bool operator==(const BlockedLayout& o) const {
    return n == o.n && c == o.c && h == o.h && w == o.w && block == o.block && top == o.top && left == o.left &&
           bottom == o.bottom && right == o.right && fill == o.fill && rowBlocks() == o.rowBlocks();
  }
};

/// How a slot's logical tensor maps onto the [N, C, H, W] tensor its blocked layout stores.
enum class BlockedForm : uint8_t {
  kImage = 0,  ///< [N, C, H, W] itself
  /// Rows [..., M, K] as [B, K, 1, M] (B: the product of the leading dimensions): each matrix a row of M
  /// pixels of K channels, as a dense layer and a matrix product read and write them.
  kRows = 1,
  /// A matrix product's right operand [..., K, N] as [B, K, 1, N rounded up to whole blocks]: its transpose
  /// stored as rows, so that each run of `block` columns of one channel block is a GEMM weight entry of
  /// block × block int8 in [n][k] order, the entries of a matrix [K/block][N/block] (channel block first).
  /// Columns past N hold 0. Where K's rows [..., N, K] are stored, their blocks are these entries already.
  kWeights = 2,
};
inline constexpr int kBlockedForms = 3;

/// The [N, C, H, W] shape that form `f` stores logical `shape` as (`block` channels per entry), or nothing when
/// the rank does not suit the form (kImage: 4; the others: at least 2).
std::optional<Shape> blockedShape(const Shape& shape, BlockedForm f, int64_t block);
/// Int8 tensor `t`, its elements read in logical `shape` (as many as it holds: a Reshape's output may come in
/// another shape), as the [N, C, H, W] tensor form `f` stores (what packBlocked takes).
Tensor toBlockedShape(const Tensor& t, const Shape& shape, BlockedForm f, int64_t block);
/// The inverse of toBlockedShape: the logical int8 tensor of `shape` that [N, C, H, W] `nchw` holds.
Tensor fromBlockedShape(Tensor nchw, BlockedForm f, const Shape& shape);

/// Packs an int8 [N, C, H, W] tensor into `l` (bytes() bytes).
std::vector<uint8_t> packBlocked(const Tensor& t, const BlockedLayout& l);
/// The same into `out`, whose memory is reused (a run packs into the pages of the last).
void packBlockedInto(const Tensor& t, const BlockedLayout& l, std::vector<uint8_t>& out);
/// The same into the l.bytes() bytes at `out` (a device's DRAM, written in place). Every byte of the span is
/// written: a view's span holds the other blocks of the rows between its own, which take the fill.
void packBlockedTo(const Tensor& t, const BlockedLayout& l, uint8_t* out);
/// Unpacks bytes in layout `l` into an int8 [N, C, H, W] tensor: `reuse`'s
/// memory when it already has that type and shape, else a new tensor.
Tensor unpackBlocked(const uint8_t* data, const BlockedLayout& l, Tensor reuse = Tensor());

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_LAYOUT_H_
