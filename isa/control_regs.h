// isa/control_regs.h — the control registers of the Zynq IPs
// (docs/microarchitecture.md, "The control registers of the Zynq IPs"): byte
// offsets in the AXI4-Lite window and the bits of AP_CTRL, ISR and STATUS,
// the hardware's interface to software beside the instruction set. The RTL's
// AXI wrapper takes them from accelc_target_pkg (hls/rtl_gen.h writes them
// from here), and the board driver (boards/driver) and the verilated
// wrapper's runner (simulator/rtl/axi_run.h) use them by these names.
#ifndef ACCELC_ISA_CONTROL_REGS_H_
#define ACCELC_ISA_CONTROL_REGS_H_

#include <cstdint>
#include <string>

namespace accelc::isa::regs {

inline constexpr uint32_t kApCtrl = 0x00;
inline constexpr uint32_t kGie = 0x04;
inline constexpr uint32_t kIer = 0x08;
inline constexpr uint32_t kIsr = 0x0C;
inline constexpr uint32_t kInsnAddr = 0x10;
inline constexpr uint32_t kInsnCount = 0x18;
inline constexpr uint32_t kDramBaseLo = 0x20;
inline constexpr uint32_t kDramBaseHi = 0x24;
inline constexpr uint32_t kCyclesLo = 0x28;
inline constexpr uint32_t kCyclesHi = 0x2C;
inline constexpr uint32_t kStatus = 0x30;
inline constexpr uint32_t kStopPc = 0x34;
inline constexpr uint32_t kAbort = 0x38;
inline constexpr uint32_t kHashLo = 0x40;
inline constexpr uint32_t kHashHi = 0x44;
inline constexpr uint32_t kWindowLo = 0x48;
inline constexpr uint32_t kWindowHi = 0x4C;
/// Bytes of the register window (offsets 0x00 to 0x7F).
inline constexpr uint32_t kWindowBytes = 0x80;

// AP_CTRL bits.
inline constexpr uint32_t kApStart = 1u << 0;
inline constexpr uint32_t kApDone = 1u << 1;
inline constexpr uint32_t kApIdle = 1u << 2;
inline constexpr uint32_t kApReady = 1u << 3;
inline constexpr uint32_t kAutoRestart = 1u << 7;

// ISR (and IER) bits.
inline constexpr uint32_t kIsrDone = 1u << 0;
inline constexpr uint32_t kIsrReady = 1u << 1;

// STATUS bits: why a run stopped (0 after FINISH).
inline constexpr uint32_t kStatusIllegal = 1u << 0;     ///< an instruction the ISA does not have
inline constexpr uint32_t kStatusWindow = 1u << 1;      ///< a burst past DRAM_WINDOW
inline constexpr uint32_t kStatusDeadlock = 1u << 2;    ///< token deadlock (the HLS IP)
inline constexpr uint32_t kStatusAxiError = 1u << 3;    ///< an R or B response of SLVERR or DECERR
inline constexpr uint32_t kStatusMisaligned = 1u << 4;  ///< a burst not on a beat boundary (the RTL's AXI wrapper)

/// What STATUS's set bits say, for a message ("an illegal instruction
/// (STATUS bit 0); ...").
inline std::string statusText(uint32_t status) {
  std::string s;
  auto add = [&](uint32_t bit, const char* what) {
    if (status & bit) s += std::string(s.empty() ? "" : "; ") + what;
  };
  add(kStatusIllegal, "an illegal instruction (STATUS bit 0)");
  add(kStatusWindow, "a DMA burst past the DRAM window (STATUS bit 1)");
  add(kStatusDeadlock, "a token deadlock (STATUS bit 2)");
  add(kStatusAxiError, "an AXI response on the DRAM port was SLVERR or DECERR (STATUS bit 3)");
  add(kStatusMisaligned, "a DMA burst did not start on a beat of the AXI port (STATUS bit 4)");
  if (status >> 5) s += std::string(s.empty() ? "" : "; ") + "STATUS bits " + std::to_string(status >> 5 << 5);
  return s;
}

}  // namespace accelc::isa::regs

#endif  // ACCELC_ISA_CONTROL_REGS_H_
