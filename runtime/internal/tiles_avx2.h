// runtime/internal/tiles_avx2.h — two 16 x 16 byte tiles transposed at once
// with AVX2, for packing to and from the blocked layout (layout.cc). x86-64
// only: layout_avx2.cc is compiled for AVX2, and these run only where
// avx2Tiles() says the CPU has it.
#ifndef ACCELC_RUNTIME_INTERNAL_TILES_AVX2_H_
#define ACCELC_RUNTIME_INTERNAL_TILES_AVX2_H_

#include <cstdint>

namespace accelc::runtime::tiles {

/// Whether this CPU runs the functions below.
bool avx2Tiles();
/// Two tiles side by side: out[j·os + i] = in[i·is + j] for i < 16 and j < 32, where rows i >= `rows` of in
/// read as `fill`. Each row of in below `rows` is read for 32 bytes; each row of out gets 16.
void transposeWide(const uint8_t* in, int64_t is, int64_t rows, uint8_t fill, uint8_t* out, int64_t os);
/// Two tiles one above the other: out[j·os + i] = in[i·is + j] for i < 32 and j < cols (at most 16). Each
/// of the 32 rows of in is read for 16 bytes; each row of out gets 32.
void transposeTall(const uint8_t* in, int64_t is, uint8_t* out, int64_t os, int64_t cols);

}  // namespace accelc::runtime::tiles

#endif  // ACCELC_RUNTIME_INTERNAL_TILES_AVX2_H_
