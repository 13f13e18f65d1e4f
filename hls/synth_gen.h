// hls/synth_gen.h — Yosys scripts for the RTL, and their resource reports read back.
//
// The open synthesis flow: `synth_ice40` for Lattice iCE40 parts and
// `synth_xilinx -family xc7 -flatten` for Zynq-7000-class parts, each ending in a
// `stat` report that resourcesOf() turns into LUTs, flip-flops, DSPs and
// block RAMs.
#ifndef ACCELC_HLS_SYNTH_GEN_H_
#define ACCELC_HLS_SYNTH_GEN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "isa/target.h"
#include "support/status.h"

namespace accelc::hls {

/// A synthesis target family.
enum class FpgaFamily { kIce40, kXilinx7 };

/// The family named `name` ("ice40" or "xilinx").
support::Expected<FpgaFamily> fpgaFamily(const std::string& name);
/// The name fpgaFamily reads: "ice40" or "xilinx".
const char* fpgaFamilyName(FpgaFamily family);

/// A Yosys script that reads `files` (in order), synthesizes `top` for
/// `family` and writes its statistics to `statFile`. Without `share` (iCE40
/// only) it skips Yosys's SAT-based resource sharing, which does not finish
/// in reasonable time on the big presets' ALUs: the counts are then an upper
/// bound.
std::string yosysScript(const std::vector<std::string>& files, const std::string& top, FpgaFamily family,
                        const std::string& statFile, bool share = true);

/// Cells of a synthesized design, by kind.
struct Resources {
  int64_t luts = 0;    ///< look-up tables (SB_LUT4; LUT1..LUT6)
  int64_t ffs = 0;     ///< flip-flops (SB_DFF*; FD*)
  int64_t dsps = 0;    ///< multipliers (SB_MAC16; DSP48E1)
  int64_t brams = 0;   ///< block RAMs (SB_RAM40_4K, SB_SPRAM256KA; RAMB18E1, RAMB36E1)
  int64_t lutrams = 0; ///< memories in LUTs (RAM32M, RAM64X1D, ...; none on iCE40)
  int64_t carries = 0; ///< carry cells (SB_CARRY; CARRY4)
  int64_t cells = 0;   ///< every cell
};

/// What the RTL for `t` takes on iCE40 by the hwspec and the ISA alone: the
/// block RAMs of every memory built from the memory template (each bank of
/// each buffer, once per read port; the three command queues and fetch's
/// text memory of two bursts, in the instruction bits their readers use; the
/// RTL keeps queues shallower than kQueueRamMinDepth in registers, and Yosys
/// a text memory of fewer than 8 in flip-flops) in the fewest SB_RAM40_4K of one
/// shape (256 x 16, 512 x 8, 1024 x 4, 2048 x 2), and the multipliers: the GEMM
/// core's int8 products, and per ALU lane four 16 x 16 pieces of mulq's 32 x
/// 32 product, or without mulq three of mul's low 32 bits (with mulq, Yosys
/// shares it). Other fields are zero.
Resources estimateIce40(const isa::Target& t);

/// Memories shallower than this go to LUT RAM on 7-series parts (Yosys's
/// choice for the command queues and the text memory of the small presets).
inline constexpr int64_t kXilinxBramMinDepth = 128;
/// RAMB18E1 blocks for `depth` words of `width` bits, in the fewest blocks of
/// one shape (16K x 1 to 512 x 36).
int64_t xilinxBram18(int64_t depth, int64_t width);

/// The same for a Zynq-7000-class part (synth_xilinx): block RAMs as
/// RAMB18E1 (each buffer bank once per read port, and command queues of
/// kXilinxBramMinDepth or more at whole instructions, in the fewest blocks of
/// one shape, 16K x 1 to 512 x 36), and DSP48E1s: one per int8 product, and
/// per ALU lane four for mulq's 32 x 32 product or, without mulq, three for
/// mul's low 32 bits. Other fields are zero.
Resources estimateXilinx7(const isa::Target& t);

/// Reads the cell counts from a Yosys `stat` report of a flattened design; an
/// error names `where` when the report has no cell count or several modules.
support::Expected<Resources> resourcesOf(const std::string& statText, FpgaFamily family, const std::string& where);

/// Writes the RTL for `t` and a Yosys script for `family` into `dir`, runs
/// Yosys on module `top` (its log: yosys_<family>.log) and reads back what it
/// used (files named by fpgaFamilyName); `share` keeps Yosys's SAT-based resource sharing (slow on large ALUs).
support::Expected<Resources> synthesize(const isa::Target& t, FpgaFamily family, const std::string& top,
                                        const std::string& dir, bool share);

}  // namespace accelc::hls

#endif  // ACCELC_HLS_SYNTH_GEN_H_
