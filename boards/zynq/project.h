// boards/zynq/project.h — the whole Vitis HLS and Vivado project of the HLS
// IP for one Zynq board: `accelc hls --hw F --board B -o DIR`.
//
// The accelerator must fit the board (checkFit: the refusal names the
// resource); the HLS sources then carry the board's binding (bindingOn), the
// flow scripts its part, processing system, ports, clock and control address
// (hls/flow_gen.h), and the test bench its data: a random program of the
// hwspec (seed 1) and the DRAM window the functional simulator leaves after
// it, so that the vendor's C-simulation and co-simulation check the IP
// against accelc's own engines.
#ifndef ACCELC_BOARDS_ZYNQ_PROJECT_H_
#define ACCELC_BOARDS_ZYNQ_PROJECT_H_

#include <string>
#include <vector>

#include "boards/board_fit.h"
#include "hls/flow_gen.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::boards {

/// The flow's view of `b` for `t`: the first DRAM port wide enough for a beat.
hls::FlowBoard flowBoard(const BoardSpec& b, const isa::Target& t);

/// Writes the project into `dir`, with the RTL's IP in rtl/ when the AXI wrapper implements
/// the hwspec (hls::axiSupports); returns the files written, in order.
support::Expected<std::vector<std::string>> writeZynqProject(const BoardSpec& b, const isa::Target& t,
                                                             const std::string& dir);

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_ZYNQ_PROJECT_H_
