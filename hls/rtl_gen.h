// hls/rtl_gen.h — the accelerator's SystemVerilog sources for one HwSpec.
//
// The RTL under hls/rtl/ is written once and takes every number from a
// package, accelc_hw_pkg, generated here from the HwSpec, and decodes
// instructions with accelc_isa_pkg, generated from the resolved ISA layout;
// writeRtl() puts the packages and the sources (embedded into the binary at
// build time) into a folder, ready for Verilator or Yosys. Each source is written in the
// SystemVerilog subset both read: packages used with qualified names, no
// `import pkg::*`, packed-vector ports.
#ifndef ACCELC_HLS_RTL_GEN_H_
#define ACCELC_HLS_RTL_GEN_H_

#include <string>
#include <vector>

#include "hwspec/hwspec.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::hls {

/// Bits of a burst's beat count: the port's `BEAT_BITS`.
int64_t beatBits(const hwspec::HwSpec& hw);

/// Command queues at least this deep keep their commands in the memory
/// template (block RAM); shallower ones are registers
/// (accelc_hw_pkg::QUEUE_RAM_MIN_DEPTH).
constexpr int64_t kQueueRamMinDepth = 8;

/// The text of accelc_hw_pkg.sv: the HwSpec's parameters as localparams.
std::string hwPackage(const hwspec::HwSpec& hw);

/// The text of accelc_isa_pkg.sv: the instruction encoding of `t` — word
/// widths, opcode and enumeration codes, and per format and field its first
/// bit and width (MEM_SRAM_BASE_LO, MEM_SRAM_BASE_BITS, ...) — from the same
/// resolved ISA YAML as the C++ encoder and decoder.
std::string isaPackage(const isa::Target& t);

/// What accelc rtl writes besides the core.
struct RtlOptions {
  /// The Zynq IP: accelc_axi.sv (the engine on an AXI4 master, the control
  /// registers on an AXI4-Lite slave), its port and accelc_target_pkg.sv.
  bool axi = false;
};

/// The text of accelc_target_pkg.sv: TARGET_HASH, the target's hash that the
/// AXI wrapper's HWSPEC_HASH register reads, and the control registers'
/// offsets (REG_*) and STATUS bits (STATUS_*_BIT) from isa/control_regs.h.
std::string targetPackage(const isa::Target& t);

/// The text of package_ip.tcl (accelc rtl --axi): Vivado packages accelc_axi
/// from `files` (beside the script) as an IP whose AXI4-Lite slave maps the
/// 128-byte register window. Not run here: no Vivado.
std::string axiPackageTcl(const std::vector<std::string>& files);

/// The file names of the RTL sources, in compilation order (the packages first).
std::vector<std::string> rtlFiles(const RtlOptions& o = {});

/// Whether the RTL implements `hw`: int8 inputs, weights and outputs with
/// int32 accumulators; entries and DRAM beats of power-of-two bytes, output
/// and acc8 entries at least a beat, bursts a whole number of beats; and a
/// pipeline deep enough for its three stages (docs/microarchitecture.md,
/// "GEMM and ALU"). The error names the hwspec key.
support::Status rtlSupports(const hwspec::HwSpec& hw);

/// Whether the AXI wrapper implements `hw`: rtlSupports, a DRAM latency of
/// at least 2 (the address register is one of its cycles), bursts of at
/// most 256 beats (AXI4) and beats of at most 64 bytes.
support::Status axiSupports(const hwspec::HwSpec& hw);

/// Writes the packages and every RTL source into `dir` (created if missing),
/// after rtlSupports (axiSupports with `o.axi`, and package_ip.tcl).
support::Status writeRtl(const isa::Target& t, const std::string& dir, const RtlOptions& o = {});

/// The RTL sources' texts, concatenated in rtlFiles(o) order (the generated
/// packages aside): what a cache of verilated models keys on besides the hwspec.
std::string rtlSourceTexts(const RtlOptions& o = {});

}  // namespace accelc::hls

#endif  // ACCELC_HLS_RTL_GEN_H_
