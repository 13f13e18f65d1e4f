// boards/ice40/board.h — the whole accelerator as an iCE40 UP5K bitstream.
//
// The top level (boards/ice40/accelc_ice40_top.sv) keeps DRAM on chip: the UP5K's
// four SPRAMs back a DRAM window of up to 128 KiB, and a ROM in the block RAM
// the buffers leave free holds one program's DRAM image, copied into SPRAM
// after reset; the core then runs the program once and raises `done`. Only a
// clock, a reset button and `done` are pins. The open flow: Yosys
// (synth_ice40 -dsp -spram), nextpnr-ice40 (--up5k, package sg48) and
// icepack; nextpnr's log gives the utilization and the achieved clock.
#ifndef ACCELC_BOARDS_ICE40_BOARD_H_
#define ACCELC_BOARDS_ICE40_BOARD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::boards {

/// The UP5K's block RAMs (SB_RAM40_4K, 512 bytes each).
inline constexpr int64_t kUp5kBrams = 30;
/// Bytes of the UP5K's SPRAM: the largest DRAM window the board holds.
inline constexpr int64_t kUp5kSpramBytes = 128 * 1024;

/// Why `p` cannot run on the board for `t`, or ok: the port must move one
/// SPRAM word (2 bytes) per beat, the window fit the SPRAM, and the image (up
/// to its last segment) fit the block RAM the accelerator leaves (hls::estimateIce40). `name` (the
/// program's file) locates diagnostics.
support::Status checkIce40Board(const isa::Target& t, const isa::Program& p, const std::string& name);

/// Writes the RTL (hls::writeRtl), accelc_ice40_top.sv, accelc_image_pkg.sv (the
/// image's and the window's words, the text's place), accelc_image.hex (the
/// DRAM image up to the end of its last segment, one 16-bit word per line),
/// accelc_ice40.pcf (pins) and the Yosys script synth_board.ys into `dir`.
support::Status writeIce40Board(const isa::Target& t, const isa::Program& p, const std::string& name,
                                const std::string& dir);

/// One line of nextpnr's utilization table.
struct BelUse {
  std::string bel;        ///< e.g. ICESTORM_LC, ICESTORM_RAM, ICESTORM_DSP, ICESTORM_SPRAM
  int64_t used = 0;
  int64_t available = 0;
};

/// What nextpnr reported.
struct PnrReport {
  std::vector<BelUse> utilization;  ///< the first utilization table of the log
  double fmaxMhz = 0.0;             ///< the last "Max frequency" of the clock, 0 when not routed
  bool fits = false;                ///< every BEL type within what the part has
  const BelUse* find(const std::string& bel) const;
};

/// Reads nextpnr-ice40's log; an error names `where` when it has no utilization table.
support::Expected<PnrReport> pnrReportOf(const std::string& log, const std::string& where);

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_ICE40_BOARD_H_
