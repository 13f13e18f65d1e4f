// runtime/layout.cc — packing to and from the blocked activation layout.
#include "runtime/layout.h"

#include <algorithm>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include "runtime/internal/tiles_avx2.h"
#endif

namespace accelc::runtime {

namespace {

/// The leading dimensions' product and the last two of `s` (rank at least 2).
struct Matrices {
  int64_t count = 1, rows = 1, cols = 1;
  explicit Matrices(const Shape& s) : rows(s[s.size() - 2]), cols(s.back()) {
    for (size_t i = 0; i + 2 < s.size(); ++i) count *= s[i];
  }
};

}  // namespace

std::optional<Shape> blockedShape(const Shape& shape, BlockedForm f, int64_t block) {
  switch (f) {
    case BlockedForm::kImage:
      return shape.size() == 4 ? std::optional<Shape>(shape) : std::nullopt;
    case BlockedForm::kRows:
    case BlockedForm::kWeights: {
      if (shape.size() < 2 || block <= 0) return std::nullopt;
      const Matrices m(shape);
      if (f == BlockedForm::kRows) return Shape{m.count, m.cols, 1, m.rows};
      return Shape{m.count, m.rows, 1, (m.cols + block - 1) / block * block};
    }
  }
  return std::nullopt;
}

Tensor toBlockedShape(const Tensor& t, const Shape& shape, BlockedForm f, int64_t block) {
  if (f == BlockedForm::kImage) return t;
  const Matrices m(shape);
  Tensor out(support::DType::kInt8, *blockedShape(shape, f, block));  // zero: kWeights' columns past N
  const int8_t* src = t.data<int8_t>();
  int8_t* dst = out.data<int8_t>();
  const int64_t stride = f == BlockedForm::kRows ? m.rows : out.shape()[3];
  for (int64_t b = 0; b < m.count; ++b) {
    const int8_t* from = src + b * m.rows * m.cols;
    if (f == BlockedForm::kRows) {  // [M, K] -> [K, M]
      for (int64_t r = 0; r < m.rows; ++r)
        for (int64_t c = 0; c < m.cols; ++c) dst[(b * m.cols + c) * stride + r] = from[r * m.cols + c];
    } else {  // [K, N] -> [K, N rounded up to blocks]
      for (int64_t r = 0; r < m.rows && m.cols; ++r)
        std::memcpy(dst + (b * m.rows + r) * stride, from + r * m.cols, m.cols);
    }
  }
  return out;
}

Tensor fromBlockedShape(Tensor nchw, BlockedForm f, const Shape& shape) {
  if (f == BlockedForm::kImage) return nchw;  // the same tensor, moved
  const Matrices m(shape);
  Tensor out(support::DType::kInt8, shape);
  const int8_t* src = nchw.data<int8_t>();
  int8_t* dst = out.data<int8_t>();
  const int64_t stride = f == BlockedForm::kRows ? m.rows : nchw.shape()[2] * nchw.shape()[3];
  for (int64_t b = 0; b < m.count; ++b) {
    int8_t* to = dst + b * m.rows * m.cols;
    if (f == BlockedForm::kRows) {
      for (int64_t r = 0; r < m.rows; ++r)
        for (int64_t c = 0; c < m.cols; ++c) to[r * m.cols + c] = src[(b * m.cols + c) * stride + r];
    } else {
      for (int64_t r = 0; r < m.rows && m.cols; ++r) std::memcpy(to + r * m.cols, src + (b * m.rows + r) * stride, m.cols);
    }
  }
  return out;
}

namespace {

// Packing moves each image row of a channel block between the plain layout
// (lane·laneStride + w) and its entries (w·block + lane): a transpose. Lane by
// lane, the entries side is touched one byte in `block`; in tiles of 16 lanes
// by 16 columns, every load and store is 16 consecutive bytes, and with SSE2 a
// tile is transposed in registers (the move was the costliest host step of
// small models).
constexpr int64_t kTile = 16;

#if defined(__SSE2__)
/// One round of the transpose: y[2k] and y[2k + 1] interleave the bytes of x[k] and x[k + kTile / 2]. The
/// indices are a parameter pack, so that the round is unrolled and x and y stay in registers (a loop kept
/// them on the stack, and a tile cost six times as long).
template <int... K>
inline void interleaveRound(const __m128i* x, __m128i* y, std::integer_sequence<int, K...>) {
  ((y[2 * K] = _mm_unpacklo_epi8(x[K], x[K + kTile / 2]), y[2 * K + 1] = _mm_unpackhi_epi8(x[K], x[K + kTile / 2])),
   ...);
}

/// out[j·os + i] = in[i·is + j] for i < kTile and j < cols, where rows i >= `rows` of in read as `fill`. Four
/// rounds of interleaving rows k and k + 8 rotate the 8 bits of (row, column) by one each: by four, a
/// transpose. Every row of in below `rows` is read for kTile bytes.
template <int... I>
inline void transposeRegisters(const uint8_t* in, int64_t is, int64_t rows, uint8_t fill, uint8_t* out, int64_t os,
                               int64_t cols, std::integer_sequence<int, I...>) {
  const __m128i f = _mm_set1_epi8(static_cast<char>(fill));
  __m128i x[kTile], y[kTile];
  ((x[I] = I < rows ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + I * is)) : f), ...);
  constexpr auto half = std::make_integer_sequence<int, kTile / 2>();
  interleaveRound(x, y, half);
  interleaveRound(y, x, half);
  interleaveRound(x, y, half);
  interleaveRound(y, x, half);
  ((I < cols ? _mm_storeu_si128(reinterpret_cast<__m128i*>(out + I * os), x[I]) : void()), ...);
}
#endif

/// out[j·os + i] = in[i·is + j] for i < rows, j < cols (at most kTile each), and `fill` for rows <= i < outRows
/// (at most kTile). With SSE2 the tile is transposed in registers where each input row may be read for kTile
/// bytes (`wholeRows`; a partial channel block's missing rows read as the fill), and stored straight where each
/// output row is a whole tile's (outRows kTile); narrower output rows (an image's last columns) are staged, and
/// so are narrower input rows.
void transposeTile(const uint8_t* in, int64_t is, uint8_t* out, int64_t os, int64_t rows, int64_t cols, int64_t outRows,
                   uint8_t fill, bool wholeRows) {
#if defined(__SSE2__)
  constexpr auto all = std::make_integer_sequence<int, kTile>();
  if (wholeRows && outRows == kTile) return transposeRegisters(in, is, rows, fill, out, os, cols, all);
  alignas(16) uint8_t a[kTile * kTile], b[kTile * kTile];
  if (wholeRows) {  // only the output rows are staged
    transposeRegisters(in, is, rows, fill, b, kTile, cols, all);
    for (int64_t j = 0; j < cols; ++j) std::memcpy(out + j * os, b + j * kTile, static_cast<size_t>(outRows));
    return;
  }
  std::memset(a, fill, sizeof a);
  for (int64_t i = 0; i < rows; ++i) std::memcpy(a + i * kTile, in + i * is, static_cast<size_t>(cols));
  transposeRegisters(a, kTile, kTile, fill, b, kTile, kTile, all);
  for (int64_t j = 0; j < cols; ++j) std::memcpy(out + j * os, b + j * kTile, static_cast<size_t>(outRows));
#else
  (void)wholeRows;
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < outRows; ++i) out[j * os + i] = i < rows ? in[i * is + j] : fill;
#endif
}

/// The columns of a row one tile call covers: two tiles where the CPU transposes two at once (AVX2, whose
/// loads and interleaves of two tiles' rows halve the instructions: 147 channels at 112x112 pack in
/// 0.122-0.126 ms instead of 0.174-0.210 and unpack in 0.153-0.160 instead of 0.200-0.244, bench/layout_bench).
int64_t tileColumns() {
#if defined(__x86_64__)
  if (tiles::avx2Tiles()) return 2 * kTile;
#endif
  return kTile;
}

/// Calls `tile(entry, plain, lanes, columns)` for every run of up to tileColumns() columns of a tile's lanes
/// in `l`: the byte offsets of its first entry lane and of its first plain element.
template <typename F>
void forEachTile(const BlockedLayout& l, F tile) {
  const int64_t step = tileColumns();
  for (int64_t n = 0; n < l.n; ++n)
    for (int64_t cb = 0; cb < l.blocks(); ++cb)
      for (int64_t h = 0; h < l.h; ++h)
        for (int64_t lane = 0; lane < std::min(l.block, l.c - cb * l.block); lane += kTile)
          for (int64_t w = 0; w < l.w; w += step)
            tile((l.entry(n, l.top + h, cb, l.left) + w) * l.block + lane,
                 ((n * l.c + cb * l.block + lane) * l.h + h) * l.w + w,
                 std::min({kTile, l.block - lane, l.c - cb * l.block - lane}), std::min(step, l.w - w));
}

}  // namespace

std::vector<uint8_t> packBlocked(const Tensor& t, const BlockedLayout& l) {
  std::vector<uint8_t> out;
  packBlockedInto(t, l, out);
  return out;
}

void packBlockedInto(const Tensor& t, const BlockedLayout& l, std::vector<uint8_t>& out) {
  out.resize(static_cast<size_t>(l.bytes()));  // keeps out's capacity and, at one size, its pages
  packBlockedTo(t, l, out.data());
}

void packBlockedTo(const Tensor& t, const BlockedLayout& l, uint8_t* out) {
  // Without a border or other blocks between the rows, the tiles write every byte when each covers its block's
  // lanes past C with the fill: the whole output need not be filled first (2 MB for ResNet's first layer). That
  // takes blocks of at most one tile or whole blocks only: the lane tiles of a wider block start below C.
  const bool tilesCoverAll = !l.top && !l.left && !l.bottom && !l.right && l.rowBlocks() == l.blocks() &&
                             (l.block <= kTile || l.c % l.block == 0);
  const auto fill = static_cast<uint8_t>(l.fill);
  if (!tilesCoverAll && l.bytes() > 0)
    std::memset(out, fill, static_cast<size_t>(l.bytes()));  // empty: out may be null
  const int64_t plane = l.h * l.w, size = static_cast<int64_t>(t.bytes().size());
  forEachTile(l, [&](int64_t entry, int64_t plain, int64_t lanes, int64_t cols) {
    const int64_t outLanes = tilesCoverAll ? std::min(kTile, l.block - entry % l.block) : lanes;
    const uint8_t* in = t.bytes().data() + plain;
#if defined(__x86_64__)
    if (cols == 2 * kTile && outLanes == kTile)
      return tiles::transposeWide(in, plane, lanes, fill, out + entry, l.block);
#endif
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      const int64_t c = std::min(kTile, cols - c0);
      // A row narrower than a tile (an image's last columns) is read whole where that stays inside the tensor:
      // the bytes past it land in output rows that are not stored.
      const bool wholeRows = c == kTile || plain + c0 + (lanes - 1) * plane + kTile <= size;
      transposeTile(in + c0, plane, out + entry + c0 * l.block, l.block, lanes, c, outLanes, fill, wholeRows);
    }
  });
}

Tensor unpackBlocked(const uint8_t* data, const BlockedLayout& l, Tensor reuse) {
  const Shape shape{l.n, l.c, l.h, l.w};
  Tensor t = reuse.dtype() == support::DType::kInt8 && reuse.shape() == shape ? std::move(reuse)
                                                                                : Tensor(support::DType::kInt8, shape);
  const int64_t plane = l.h * l.w;
  forEachTile(l, [&](int64_t entry, int64_t plain, int64_t lanes, int64_t cols) {
    // An entry holds `block` bytes: a tile's rows are whole where its lanes start a kTile below the block's end.
    const bool wholeRows = l.block - entry % l.block >= kTile;
    uint8_t* y = t.bytes().data() + plain;
#if defined(__x86_64__)
    if (cols == 2 * kTile && wholeRows) return tiles::transposeTall(data + entry, l.block, y, plane, lanes);
#endif
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      const int64_t c = std::min(kTile, cols - c0);
      transposeTile(data + entry + c0 * l.block, l.block, y + c0, plane, c, lanes, c, 0, wholeRows);
    }
  });
  return t;
}

}  // namespace accelc::runtime
