// compiler/host/plan_util.h — the pieces the loop kernels' builders share:
// affine expressions, bounds, the product and transpose stages, and the two
// schedule shapes (the register-tiled product, and rows in vector lanes).
#ifndef ACCELC_COMPILER_HOST_PLAN_UTIL_H_
#define ACCELC_COMPILER_HOST_PLAN_UTIL_H_

#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "compiler/host/loop_ir.h"
#include "compiler/host/nn_kernels.h"
#include "runtime/geometry.h"
#include "runtime/tensor.h"

namespace accelc::compiler::host {

/// An affine expression from (axis, coefficient) pairs.
Affine aff(int64_t c, std::initializer_list<std::pair<int, int64_t>> terms);
int64_t elements(const runtime::Shape& s);
/// Bounds 0 <= e < size for an input coordinate.
Bound inside(Affine e, int64_t size);

/// The register-tiled product schedule over spatial axes m and n and
/// reduction axis k: an MR x NV-vector block of the output in registers
/// across the k loop, n blocks outermost, divided by a thread pool.
StageSchedule productSchedule(const LoopStage& s, int m, int n, int k, const CpuShape& cpu);
/// The columns of the panels a constant B is packed into for an m x n
/// product: the register tile's vectors, fewer where they do not divide n (a
/// row or two take up to six); 0 when no whole number of vectors divides n,
/// and for vectors of 4 (NEON, PTX), where panels were never measured.
int64_t panelWidth(int64_t m, int64_t n, const CpuShape& cpu);
/// The product's schedule over packed panels, axes (m, panel, column in the
/// panel, k): the register tile is MR rows by the panel's vectors, panels
/// outermost (m blocks, with fewer panels than m blocks), divided by a pool.
/// With panels outermost, each pass over a panel prefetches the next one;
/// a float product of several m blocks that MR divides walks the depth in
/// slices of about 32 KB of panel, outside the m blocks, so its sums fold in
/// the output (read back between slices) and each slice is prefetched in
/// turn.
StageSchedule panelSchedule(const LoopStage& s, const CpuShape& cpu);
/// Sets how `sc`'s sum of Dot4 folds on `cpu`: vpdpbusd where it has VNNI and
/// the vector has 8 or 16 lanes, else vpmaddwd on x86 (else lane by lane).
void foldWords(StageSchedule& sc, const CpuShape& cpu);
/// A schedule that vectorizes spatial axis `v` and unrolls spatial axis `u` (or
/// none, -1) by `ur`, the reduction loops sitting between them and the tile.
/// With `byteRows` (a stage that only moves bytes, byteCopy, or one that
/// narrows floats to bytes, a quantization), a vector holds up to four
/// registers' worth of lanes, so that its stores move whole registers of
/// bytes, and no more lanes than the row has.
StageSchedule rowSchedule(const LoopStage& s, int v, int u, int64_t ur, const CpuShape& cpu, bool byteRows = false);
/// (x86's vectors only; a row shorter than a register keeps one register's lanes.)
/// Whether stage `s` of `k` only moves bytes: 8-bit loads (bounded or not)
/// into an 8-bit output, with no arithmetic but a last Xor of a load with a
/// constant of four equal bytes, and no epilogue.
bool byteCopy(const LoopKernel& k, const LoopStage& s);

/// One product stage y[m][n] = Σ_k a·b; `aAt` and `bAt` index A and B by (m, k) and (k, n).
LoopStage productStage(int a, Affine aAt, int b, Affine bAt, int y, int64_t m, int64_t n, int64_t kk);
/// A stage copying B [N][K] into bt [K][N].
LoopStage transposeStage(int b, int bt, int64_t n, int64_t kk);
/// transposeStage into kp rows of np (kp >= kk, np >= n), 0 past the transposed matrix.
LoopStage paddedTransposeStage(int b, int bt, int64_t n, int64_t kk, int64_t np, int64_t kp);

/// The im2col copy of `channels` channels of x into col [channels·KH·KW][OH·OW]
/// (axes ci, kh, kw, oh, ow; `pad` outside the input), as the Im2col op lays it out.
LoopStage im2colStage(const runtime::ConvGeometry& g, int64_t channels, int x, int col, float pad);
/// The rows and columns of a padded image that every window of `g` reaches.
std::pair<int64_t, int64_t> paddedExtent(const runtime::ConvGeometry& g);
/// The stages of the Im2col copy of x into col (as im2colStage lays it out) over a padded copy of x, a
/// temp buffer added to k: the copy (axes c, y, r, i; vectorize i), `pad` around x, then the windows (axes
/// ci, kh, q, oh, ow; vectorize ow), whose loads need no bounds. At a column stride of 2 to 4 the copy's rows
/// are split into column planes and the windows take one stage per plane, each row of theirs a contiguous
/// run of the copy.
std::vector<LoopStage> paddedIm2colStages(LoopKernel& k, const runtime::ConvGeometry& g, int x, int col, float pad);

/// What a convolution's im2col-and-product form computes in: the element
/// type of x, w and the im2col copy (float32 or int8), the output's, the
/// value padding reads as, the inputs after w that hold one value per output
/// channel, and the epilogue over the folded value and those inputs' loads
/// (none: the folded value itself).
struct ConvForm {
  support::DType data = support::DType::kFloat32, out = support::DType::kFloat32;
  float pad = 0.0f;
  bool vnni = false;  ///< int8: the product over 4-byte words (vpdpbusd where the CPU has VNNI, else vpmaddwd pairs)
  bool constWeights = false;  ///< w never changes: what is computed from it alone is computed once (LoopStage::constant)
  /// Per-channel inputs of the epilogue; the first, where there is one, is a bias added to the sum first (a
  /// kernel may fold a per-channel offset of its own into it).
  std::vector<std::pair<std::string, support::DType>> perChannel;
  std::function<void(LoopExpr& e, int acc, const std::vector<int>& channel)> epilogue;
};
/// A grouped or dense convolution: per (image, group) an im2col copy (none
/// for a 1x1 convolution without stride or padding) and a register-tiled
/// product of the weights and the copy. With `ConvForm::vnni` the product runs
/// over words: 4 bytes with VNNI (vpdpbusd), else pairs of 16-bit halves
/// (vpmaddwd), packed straight from the input's windows (no im2col copy) when
/// each group's channels come in whole words. A dense one with constant
/// weights and an output under 28x28 (float, int8 in pairs, or int8 in words of
/// four with VNNI at 16 lanes and without AMX) puts the
/// output's pixels in rows and its channels in lanes instead; a dense float
/// one (wider than 1x1) or int8 one in pairs at stride 1 and 28x28 or more
/// reads its windows in place from a padded image of the input or of channel
/// pairs (no copy of the windows). Int8 with `CpuShape::amx` and at least 16
/// output channels and pixels per group runs its product on AMX tiles: at
/// stride 1 over blocks of 64 channels straight from a padded image of words
/// (tdpbssd), otherwise from the words above padded to tiles (tdpbusd).
KernelPlan im2colProduct(const runtime::ConvGeometry& g, const ConvForm& f, const CpuShape& cpu);
/// A depthwise convolution (one input channel per group) as one direct stage
/// over the output rows, the row in vector lanes. Int8 data with word products
/// on x86 without VNNI, at stride 1 along the row and with an image of pairs of
/// at most 512 KiB, is moved once into a padded image of words whose signed
/// 16-bit halves are adjacent taps, and each kernel row's taps are read from it
/// as ⌈KW/2⌉ words (vpmaddwd); otherwise (and no column dilation) it is copied
/// once into a padded byte image, and each kernel row's taps are read from it
/// as 4-byte words (offset to unsigned); either way the weights are packed into
/// words once. Both images start from a padded byte image whose padding is
/// filled on the kernel's first run, x's rows copied in at each run. Float data is copied once into a padded
/// image, and other integer data converted once into a padded float image (so
/// the taps need no bounds) and summed in float, where every partial sum of
/// at most 1024 int8 products is exact; the epilogue gets it back as int32
/// (callers keep KH·KW within that). At a column stride s of 2 to 4 (no
/// column dilation, KW at least s) that image's rows are split into s planes
/// of every s-th column and the kernel's rows padded with zero taps (which
/// read 0) to a multiple of s, so that every tap is a contiguous load.
KernelPlan depthwiseConv(const runtime::ConvGeometry& g, const ConvForm& f, const CpuShape& cpu);

/// The word of four bytes, byte t from `load(t)` (an int32 node of int8
/// values): the values' own bytes with `signedBytes`, else each xor 0x80,
/// v + 128 as an unsigned byte.
int packWord(LoopExpr& e, const std::function<int(int)>& load, bool signedBytes);
/// The word of two signed 16-bit halves, half t from `load(t)` (an int32 node
/// of int8 values): (v_0 & 0xFFFF) + v_1·2^16, vpmaddwd's operand.
int packPair(LoopExpr& e, const std::function<int(int)>& load);
/// packPair where `per` is 2, else packWord.
int packValues(LoopExpr& e, int per, const std::function<int(int)>& load, bool signedBytes);

/// Packs the k axis of an int8 matrix into words of `per` values (4 bytes, or
/// 2 signed halves: then past k every half reads 0): dst[r·dstRow + q·dstK] =
/// the word of src[r·srcRow + (per·q + t)·srcK] for t < per, bytes past
/// k = kk reading `pad` (0 for the signed operand, -128 for the unsigned one:
/// either way a zero byte, so a word's padding adds nothing).
struct WordPack {
  std::string name;
  int src, dst;
  int64_t rows, srcRow, dstRow, srcK, dstK, kk;
  bool signedBytes;
  int per = 4;  ///< values per word: 4 bytes (packWord), or 2 with halves of 16 bits (packPair, both signed)
};
LoopStage packStage(const WordPack& w);
/// The packing's schedule: vector lanes along the packed words' contiguous axis.
StageSchedule packSchedule(const LoopStage& s, const CpuShape& cpu);
/// out[r] = factor · Σ_q Dot4(bytes, words[r·rowStride + q·qStride]) over q < kq,
/// r in vector lanes (vpdpbusd where the CPU has it): the sums that undo the
/// unsigned operand's offset of 128 (bytes 0x80808080 against the signed
/// weights, or 0x01010101 and factor 128 against the signed activations).
struct PlannedStage {
  LoopStage stage;
  StageSchedule schedule;
};
PlannedStage wordSumStage(int words, int out, int64_t rows, int64_t kq, int64_t rowStride, int64_t qStride,
                               uint32_t bytes, int32_t factor, const CpuShape& cpu);

/// A stage over `dst`'s elements, packed as `axes` (the last one contiguous), each read from `src` at
/// Σ index·srcStrides: what drops a product's padded rows and columns (a byte copy where both hold bytes),
/// with whatever epilogue the caller gives it.
LoopStage unpadStage(const std::string& name, int src, int dst, const std::vector<LoopAxis>& axes,
                     const std::vector<int64_t>& srcStrides);
/// n rounded up to a multiple of TileProduct::kSide (16): an extent of a product on AMX tiles.
int64_t tileExtent(int64_t n);
/// `n` rounded up to two tiles' side (32) where it exceeds one (16): a block of 2 x 2 tiles loads each
/// operand's tile for two products, where a block one tile wide loads one of them for each.
int64_t tileBlockExtent(int64_t n);
/// The schedule of a TileProduct stage whose rows are axis `rows` (StageSchedule::amx): blocks of two tiles'
/// rows where they divide the rows, else one tile's, divided among threads.
StageSchedule tileSchedule(const LoopStage& s, int rows);
/// acc[i·cols + j] = Σ_k Dot4(a[i·depth + k], b[k·cols + j]) for i < rows, j < cols, k < depth (int32 words;
/// each extent a multiple of 16), on AMX tiles (loop_ir.h's TileProduct). The operands' padding past the
/// product they hold must add nothing: where a row of one reads past its depth, the other reads 0 there.
PlannedStage tileProductStage(int a, int b, int acc, int64_t rows, int64_t cols, int64_t depth);
/// buf[r·row + q] = 0 for r < rows and from <= q < to: the depth's padding of a tile product's operand.
LoopStage zeroWordsStage(int buf, int64_t rows, int64_t row, int64_t from, int64_t to);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_PLAN_UTIL_H_
