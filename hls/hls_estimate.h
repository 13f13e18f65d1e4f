// hls/hls_estimate.h — what the generated HLS C++ takes on a Xilinx part, and
// how it binds its multipliers and buffers there.
//
// The binding is decided here once, from the hwspec and the part's DSP and
// URAM counts (plain values: board descriptions live above this folder), and
// the generated sources carry it as pragmas (bind_op on the multipliers,
// bind_storage on the buffers), so the estimate and the sources agree:
//   - multipliers: the ALU's 16 x 16 pieces of mulq's 32 x 32 product (four
//     per lane) take DSPs first, as each costs the most fabric, then the GEMM
//     core's int8 products; the rest are built in LUTs;
//   - buffers: each is one memory of whole entries (array_reshape), in
//     RAMB18 blocks of the best shape, or in URAM288 (4K x 72) on a part that
//     has them, largest buffer first, when it holds 64 KiB or more. The
//     accumulator keeps a second copy when the ALU runs at an initiation
//     interval of 1 (two reads and a write a cycle; a block RAM has two ports).
// LUTs and flip-flops are analytic, not calibrated against Vivado: multipliers
// in fabric (Yosys's count for one of each), the GEMM adder trees, the ALU's
// operations per lane, and a fixed allowance for fetch, decode, the DMA
// engines and the AXI adapters. docs/boards.md shows the arithmetic.
#ifndef ACCELC_HLS_HLS_ESTIMATE_H_
#define ACCELC_HLS_HLS_ESTIMATE_H_

#include <array>
#include <cstdint>
#include <string>

#include "hwspec/hwspec.h"
#include "isa/target.h"

namespace accelc::hls {

/// Look-up tables that Yosys 0.23 (`synth_xilinx -family xc7 -nodsp`) takes
/// for one multiplier without a DSP: a signed 8 x 8 product of the GEMM core,
/// and a 16 x 16 piece of the ALU's 32 x 32 mulq.
inline constexpr int64_t kLutsPerProduct = 166, kLutsPerPiece = 539;

/// How the HLS C++ binds its operations and memories on one part.
struct HlsBinding {
  int64_t products = 0, dspProducts = 0;  ///< GEMM int8 products; of them on DSPs
  int64_t pieces = 0, dspPieces = 0;      ///< ALU 16 x 16 pieces; of them on DSPs
  std::array<bool, hwspec::kNumBuffers> uram{};  ///< per buffer kind: in URAM
};

/// The binding on a part of `dsps` DSP slices and `urams` URAM288 blocks;
/// unbounded (-1) puts every multiplier on a DSP and no buffer in URAM.
HlsBinding bindOnPart(const hwspec::HwSpec& hw, int64_t dsps = -1, int64_t urams = 0);

/// What the HLS IP takes with `binding`, with one line on how each is counted.
struct HlsResources {
  int64_t dsps = 0, bram18 = 0, urams = 0, luts = 0, ffs = 0;
  std::string dspNote, bramNote, lutNote, ffNote;
};
HlsResources estimateHls(const isa::Target& t, const HlsBinding& binding);

}  // namespace accelc::hls

#endif  // ACCELC_HLS_HLS_ESTIMATE_H_
