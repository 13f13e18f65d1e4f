// simulator/functional/gemm_portable.cc — the portable GEMM kernel and the
// run-time check for the VNNI one.
#include "simulator/functional/gemm_kernel.h"

#include "isa/arith.h"

namespace accelc::simulator {

static void narrowRow(const int32_t* acc, int8_t* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = isa::arith::saturateInt8(acc[i]);
}

void gemmPortable(const GemmArgs& a) {
  const int64_t accRow = a.batch * a.blockOut, inpRow = a.batch * a.blockIn, wgtRow = a.blockOut * a.blockIn;
  for (int64_t i0 = 0; i0 < a.iterOut; ++i0)
    for (int64_t i1 = 0; i1 < a.iterIn; ++i1)
      for (int64_t u = a.uopBgn; u < a.uopEnd; ++u) {
        const uint32_t* op = a.uops + 3 * u;
        int64_t dst = op[0] + i0 * a.dstOut + i1 * a.dstIn;
        int32_t* acc = a.acc + dst * accRow;
        if (a.reset) {
          for (int64_t i = 0; i < accRow; ++i) acc[i] = 0;
        } else {
          const int8_t* in = a.inp + (op[1] + i0 * a.srcOut + i1 * a.srcIn) * inpRow;
          const int8_t* w = a.wgt + (op[2] + i0 * a.wgtOut + i1 * a.wgtIn) * wgtRow;
          for (int64_t b = 0; b < a.batch; ++b)
            for (int64_t o = 0; o < a.blockOut; ++o) {
              uint32_t sum = 0;
              for (int64_t k = 0; k < a.blockIn; ++k)
                sum += static_cast<uint32_t>(int32_t{in[b * a.blockIn + k]} * int32_t{w[o * a.blockIn + k]});
              acc[b * a.blockOut + o] = isa::arith::gemmAccumulate(acc[b * a.blockOut + o], static_cast<int32_t>(sum));
            }
        }
        narrowRow(acc, a.out + dst * accRow, accRow);
      }
}

#if defined(__x86_64__)
bool gemmVnniUsable(const GemmArgs& a) {
  static const bool cpu = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vnni");
  return cpu && a.blockOut % 16 == 0;
}
#else
// Other CPUs build no gemm_vnni.cc: the portable kernel is the only one.
bool gemmVnniUsable(const GemmArgs&) { return false; }
void gemmVnni(const GemmArgs& a) { gemmPortable(a); }
#endif

}  // namespace accelc::simulator
