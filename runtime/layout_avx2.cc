// runtime/layout_avx2.cc — the AVX2 tile transposes (see internal/tiles_avx2.h).
// The same four rounds of byte interleaving as layout.cc's SSE2 transpose,
// on 256-bit registers: the interleaving stays within each 128-bit half, so
// each half transposes a tile of its own.
#include <immintrin.h>

#include <utility>

#include "runtime/internal/tiles_avx2.h"

namespace accelc::runtime::tiles {

namespace {

constexpr int kTile = 16;

/// One round: y[2k] and y[2k + 1] interleave the bytes of x[k] and x[k + 8], within each half.
template <int... K>
inline void interleaveRound(const __m256i* x, __m256i* y, std::integer_sequence<int, K...>) {
  ((y[2 * K] = _mm256_unpacklo_epi8(x[K], x[K + kTile / 2]),
    y[2 * K + 1] = _mm256_unpackhi_epi8(x[K], x[K + kTile / 2])),
   ...);
}

inline void transposeHalves(__m256i* x) {
  __m256i y[kTile];
  constexpr auto half = std::make_integer_sequence<int, kTile / 2>();
  interleaveRound(x, y, half);
  interleaveRound(y, x, half);
  interleaveRound(x, y, half);
  interleaveRound(y, x, half);
}

template <int... I>
inline void wide(const uint8_t* in, int64_t is, int64_t rows, uint8_t fill, uint8_t* out, int64_t os,
                 std::integer_sequence<int, I...>) {
  const __m256i f = _mm256_set1_epi8(static_cast<char>(fill));
  __m256i x[kTile];
  ((x[I] = I < rows ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + I * is)) : f), ...);
  transposeHalves(x);
  ((_mm_storeu_si128(reinterpret_cast<__m128i*>(out + I * os), _mm256_castsi256_si128(x[I])),
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (kTile + I) * os), _mm256_extracti128_si256(x[I], 1))),
   ...);
}

template <int... I>
inline void tall(const uint8_t* in, int64_t is, uint8_t* out, int64_t os, int64_t cols,
                 std::integer_sequence<int, I...>) {
  __m256i x[kTile];
  ((x[I] =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + I * is))),
                                _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (kTile + I) * is)), 1)),
   ...);
  transposeHalves(x);
  ((I < cols ? _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + I * os), x[I]) : void()), ...);
}

}  // namespace

bool avx2Tiles() {
  static const bool cpu = __builtin_cpu_supports("avx2");
  return cpu;
}

void transposeWide(const uint8_t* in, int64_t is, int64_t rows, uint8_t fill, uint8_t* out, int64_t os) {
  wide(in, is, rows, fill, out, os, std::make_integer_sequence<int, kTile>());
}

void transposeTall(const uint8_t* in, int64_t is, uint8_t* out, int64_t os, int64_t cols) {
  tall(in, is, out, os, cols, std::make_integer_sequence<int, kTile>());
}

}  // namespace accelc::runtime::tiles
