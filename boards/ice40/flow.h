// boards/ice40/flow.h — the open FPGA flow of the UP5K board: Yosys
// (synth_ice40 -dsp -spram), nextpnr-ice40 (--up5k, package sg48, a fixed
// seed so that the routed clock compares between runs) and icepack. Each
// tool runs in the board's folder and writes its log there.
#ifndef ACCELC_BOARDS_ICE40_FLOW_H_
#define ACCELC_BOARDS_ICE40_FLOW_H_

#include <string>

#include "boards/ice40/board.h"

namespace accelc::boards {

/// The placement seed nextpnr-ice40 runs with.
inline constexpr int kNextpnrSeed = 1;

/// What place and route gave.
struct PlacedBoard {
  PnrReport report;  ///< nextpnr's utilization and achieved clock
  std::string log;   ///< nextpnr's log file
  bool routed = false;  ///< nextpnr ended without an error
};

/// Writes the board for `p` into `dir` (writeIce40Board), synthesizes it
/// with Yosys and places and routes it with nextpnr at the hwspec's clock
/// (a missed clock is reported, not an error). An error when a tool fails
/// before nextpnr's utilization can be read.
support::Expected<PlacedBoard> placeAndRoute(const isa::Target& t, const isa::Program& p, const std::string& name,
                                             const std::string& dir);

/// Why a placed board cannot become a bitstream: what does not fit the UP5K,
/// or nextpnr's failure; ok otherwise.
support::Status checkPlaced(const PlacedBoard& b);

/// icepack: `dir`/accelc_board.asc to `dir`/accelc_board.bin.
support::Status packBitstream(const std::string& dir);

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_ICE40_FLOW_H_
