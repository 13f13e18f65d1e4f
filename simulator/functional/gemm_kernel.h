// simulator/functional/gemm_kernel.h — executing one GEMM instruction's loop.
//
// The checks (bounds, hazards, races) are done before a kernel runs; a kernel
// only computes. Two kernels give identical results: a portable one, and one
// using AVX-512 VNNI (vpdpwssd on the pair-packed int16 layouts of Srams),
// chosen at run time when the CPU has it and block_out is a multiple of 16.
// Accumulation wraps modulo 2^32 (isa/arith.h).
#ifndef ACCELC_SIMULATOR_FUNCTIONAL_GEMM_KERNEL_H_
#define ACCELC_SIMULATOR_FUNCTIONAL_GEMM_KERNEL_H_

#include <cstdint>

namespace accelc::simulator {

/// Everything a GEMM kernel needs, as plain pointers and integers.
struct GemmArgs {
  const uint32_t* uops = nullptr;  ///< (dst, src, wgt) triples of the micro-op buffer
  int64_t uopBgn = 0, uopEnd = 0;  ///< micro-op range
  int64_t iterOut = 0, iterIn = 0;  ///< loop extents
  int64_t dstOut = 0, dstIn = 0, srcOut = 0, srcIn = 0, wgtOut = 0, wgtIn = 0;  ///< index factors
  bool reset = false;              ///< write zeros instead
  int32_t* acc = nullptr;          ///< [depth][batch][blockOut]
  int8_t* out = nullptr;           ///< [depth][batch][blockOut]
  const int8_t* inp = nullptr;     ///< [depth][batch][blockIn]
  const int8_t* wgt = nullptr;     ///< [depth][blockOut][blockIn]
  const int32_t* inpPairs = nullptr;  ///< [depth][batch][blockIn/2]
  const int32_t* wgtPairs = nullptr;  ///< [depth][blockIn/2][blockOut]
  int64_t batch = 0, blockIn = 0, blockOut = 0;  ///< core shape
};

/// Portable kernel.
void gemmPortable(const GemmArgs& a);
/// Whether gemmVnni can run `a` on this CPU.
bool gemmVnniUsable(const GemmArgs& a);
/// AVX-512 VNNI kernel (only when gemmVnniUsable).
void gemmVnni(const GemmArgs& a);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_FUNCTIONAL_GEMM_KERNEL_H_
