// simulator/functional/gemm_vnni.cc — the AVX-512 VNNI GEMM kernel.
//
// Compiled with -mavx512f -mavx512bw -mavx512vnni and called only after
// gemmVnniUsable(): it includes nothing but the kernel header and the
// intrinsics, so no inline function compiled here can leak into other code.
// Each micro-op adds, for every 16 output lanes, blockIn/2 vpdpwssd steps of
// (broadcast input int16 pair) x (weight int16 pairs), wrapping like
// isa::arith::gemmAccumulate, then narrows with saturation (vpmovsdb).
#include <immintrin.h>

#include "simulator/functional/gemm_kernel.h"

namespace accelc::simulator {

namespace {

/// acc[og..og+16) += in . w for one batch row; four independent partial sums
/// hide the latency of vpdpwssd (the sum is exact: integer addition wraps the
/// same way in any order).
inline void accumulateRow(int32_t* acc, int8_t* out, const int32_t* in, const int32_t* w, int64_t pairs,
                          int64_t blockOut) {
  for (int64_t og = 0; og < blockOut; og += 16) {
    __m512i s0 = _mm512_loadu_si512(acc + og), s1 = _mm512_setzero_si512(), s2 = s1, s3 = s1;
    int64_t k = 0;
    for (; k + 4 <= pairs; k += 4) {
      s0 = _mm512_dpwssd_epi32(s0, _mm512_set1_epi32(in[k]), _mm512_loadu_si512(w + k * blockOut + og));
      s1 = _mm512_dpwssd_epi32(s1, _mm512_set1_epi32(in[k + 1]), _mm512_loadu_si512(w + (k + 1) * blockOut + og));
      s2 = _mm512_dpwssd_epi32(s2, _mm512_set1_epi32(in[k + 2]), _mm512_loadu_si512(w + (k + 2) * blockOut + og));
      s3 = _mm512_dpwssd_epi32(s3, _mm512_set1_epi32(in[k + 3]), _mm512_loadu_si512(w + (k + 3) * blockOut + og));
    }
    for (; k < pairs; ++k)
      s0 = _mm512_dpwssd_epi32(s0, _mm512_set1_epi32(in[k]), _mm512_loadu_si512(w + k * blockOut + og));
    const __m512i sum = _mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3));
    _mm512_storeu_si512(acc + og, sum);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + og), _mm512_cvtsepi32_epi8(sum));
  }
}

inline void zeroRow(int32_t* acc, int8_t* out, int64_t n) {
  for (int64_t i = 0; i < n; i += 16) {
    _mm512_storeu_si512(acc + i, _mm512_setzero_si512());
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_setzero_si128());
  }
}

}  // namespace

void gemmVnni(const GemmArgs& a) {
  const int64_t pairs = (a.blockIn + 1) / 2, accRow = a.batch * a.blockOut;
  for (int64_t i0 = 0; i0 < a.iterOut; ++i0)
    for (int64_t i1 = 0; i1 < a.iterIn; ++i1) {
      const int64_t dOff = i0 * a.dstOut + i1 * a.dstIn, sOff = i0 * a.srcOut + i1 * a.srcIn,
                    wOff = i0 * a.wgtOut + i1 * a.wgtIn;
      for (int64_t u = a.uopBgn; u < a.uopEnd; ++u) {
        const uint32_t* op = a.uops + 3 * u;
        const int64_t dst = op[0] + dOff;
        int32_t* acc = a.acc + dst * accRow;
        int8_t* out = a.out + dst * accRow;
        if (a.reset) {
          zeroRow(acc, out, accRow);
          continue;
        }
        const int32_t* in = a.inpPairs + (op[1] + sOff) * a.batch * pairs;
        const int32_t* w = a.wgtPairs + (op[2] + wOff) * pairs * a.blockOut;
        for (int64_t b = 0; b < a.batch; ++b)
          accumulateRow(acc + b * a.blockOut, out + b * a.blockOut, in + b * pairs, w, pairs, a.blockOut);
      }
    }
}

}  // namespace accelc::simulator
