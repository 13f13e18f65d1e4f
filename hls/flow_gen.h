// hls/flow_gen.h — the Vitis HLS and Vivado flow of the HLS IP for one Zynq
// board: a Vitis HLS script (C-simulation, synthesis, co-simulation, IP
// export), a Vivado script (a block design with the board's processing
// system, the IP on its DRAM and control ports, clock and reset; synthesis,
// implementation, bitstream, and the .xsa and .hwh a board image needs), a
// C-simulation test bench, and a Makefile that runs them in order on a machine
// with the Xilinx tools. Board parameters arrive as plain values (FlowBoard):
// board descriptions live above this folder.
#ifndef ACCELC_HLS_FLOW_GEN_H_
#define ACCELC_HLS_FLOW_GEN_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "isa/target.h"
#include "support/status.h"

namespace accelc::hls {

/// What the flow needs of a board.
struct FlowBoard {
  std::string name, part;
  bool mpsoc = false;        ///< Zynq UltraScale+ (zynq_ultra_ps_e), else Zynq-7000 (processing_system7)
  std::string dramPort;      ///< the PS slave port of the IP's DRAM master, e.g. S_AXI_HP0
  int64_t dramPortBits = 0;  ///< its data width
  std::string controlPort;   ///< the PS master that reaches the control registers, e.g. M_AXI_GP0
  int64_t fabricClockMhz = 0;
  uint64_t controlBase = 0;  ///< the control registers' address
  /// The project also has the RTL's IP (accelc rtl --axi in rtl/): `make
  /// bitstream-rtl` packages it and builds the same block design around it.
  bool rtlIp = false;
};

/// The oldest Vitis HLS release whose hls::task takes m_axi pointers and
/// s_axilite scalars (UG1399 2023.2, "Un-synchronized I/O in Data-Driven TLP").
inline constexpr const char* kVitisRelease = "2023.2";

/// The files of the flow that `accelc hls --board` writes (beside hlsFiles()).
std::vector<std::string> flowFiles();
/// The files the flow's steps produce, each with the make target that does.
std::vector<std::pair<std::string, std::string>> flowProducts();

/// The text of each flow file for `t` on `b`, by flowFiles() name (the test
/// bench is hls/flow/accelc_tb.cpp as written; its data, tb/, is the
/// caller's: it comes from running a program).
std::string vitisScript(const isa::Target& t, const FlowBoard& b);
std::string vivadoScript(const isa::Target& t, const FlowBoard& b);
std::string makefile(const isa::Target& t, const FlowBoard& b);
std::string testBench();

/// Writes the flow files into `dir` (created if missing).
support::Status writeFlow(const isa::Target& t, const FlowBoard& b, const std::string& dir);

}  // namespace accelc::hls

#endif  // ACCELC_HLS_FLOW_GEN_H_
