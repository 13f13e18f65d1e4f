// hls/rtl_gen.h — the accelerator's SystemVerilog sources for one HwSpec.
//
// The RTL under hls/rtl/ is written once and takes every number from a
// package, accelc_hw_pkg, generated here from the HwSpec; writeRtl() puts
// that package and the sources (embedded into the binary at build time) into
// a folder, ready for Verilator or Yosys. Each source is written in the
// SystemVerilog subset both read: packages used with qualified names, no
// `import pkg::*`, packed-vector ports.
#ifndef ACCELC_HLS_RTL_GEN_H_
#define ACCELC_HLS_RTL_GEN_H_

#include <string>
#include <vector>

#include "hwspec/hwspec.h"
#include "support/status.h"

namespace accelc::hls {

/// Bits of a burst's beat count: the port's `BEAT_BITS`.
int64_t beatBits(const hwspec::HwSpec& hw);

/// The text of accelc_hw_pkg.sv: the HwSpec's parameters as localparams.
std::string hwPackage(const hwspec::HwSpec& hw);

/// The file names of the RTL sources, in compilation order (the package first).
std::vector<std::string> rtlFiles();

/// Writes accelc_hw_pkg.sv and every RTL source into `dir` (created if missing).
support::Status writeRtl(const hwspec::HwSpec& hw, const std::string& dir);

}  // namespace accelc::hls

#endif  // ACCELC_HLS_RTL_GEN_H_
