// hls/hls_gen.h — the accelerator's Vitis HLS C++ for one target.
//
// The sources under hls/cpp/ are written once and take every number from
// accelc_params.h, generated here from the HwSpec and the resolved ISA
// layout (the same layout the C++ decoder and the SystemVerilog package use):
// sizes and depths, opcode and enumeration codes, and one decoder per
// instruction format. The arithmetic is isa/arith_ops.h itself, copied into
// the project as accelc_arith_ops.h. writeHls() puts all of it into a folder.
//
// The C-simulation sources (hls/csim/: ap_int.h, hls_stream.h, hls_task.h
// and the harness of the HLS engine) are kept apart: a Vitis project uses
// the vendor's headers, the HLS engine compiles these with g++.
#ifndef ACCELC_HLS_HLS_GEN_H_
#define ACCELC_HLS_HLS_GEN_H_

#include <string>
#include <utility>
#include <vector>

#include "hls/hls_estimate.h"
#include "hwspec/hwspec.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::hls {

/// The text of accelc_params.h for `t`, with the binding of its multipliers
/// and buffers on the part it is built for (hls_estimate.h; by default every
/// multiplier on a DSP and every buffer in block RAM).
std::string hlsParams(const isa::Target& t, const HlsBinding& binding);
std::string hlsParams(const isa::Target& t);

/// Whether the HLS C++ implements `hw`: int8 inputs, weights and outputs
/// with int32 accumulators. The error names the hwspec key.
support::Status hlsSupports(const hwspec::HwSpec& hw);

/// The HLS sources of a project, in the order a tool reads them: the
/// generated parameters, the arithmetic, the accelerator's header and source.
std::vector<std::string> hlsFiles();

/// Writes hlsFiles() for `t` into `dir` (created if missing), after hlsSupports.
support::Status writeHls(const isa::Target& t, const std::string& dir, const HlsBinding& binding);
support::Status writeHls(const isa::Target& t, const std::string& dir);

/// The C-simulation sources as (file name, text): the shim headers and the
/// HLS engine's harness (accelc_csim.cpp, whose ABI is hls/csim/csim_abi.h).
const std::vector<std::pair<std::string, std::string>>& csimSources();

/// Every fixed source's text (HLS and C-simulation), concatenated: what a
/// cache of compiled models keys on besides the target.
std::string hlsSourceTexts();

}  // namespace accelc::hls

#endif  // ACCELC_HLS_HLS_GEN_H_
