// boards/virtual/virtual_bus.h — a virtual board: the verilated Zynq IP
// (accelc rtl --axi) in another process, accelc-vboard, behind the Bus the
// board driver uses (boards/driver/bus.h). The DMA pool is shared memory
// that the IP's AXI memory serves at the board's physical address; register
// accesses are AXI4-Lite transactions the IP clocks through; a wait runs
// the IP's clock for that long at the board's clock, or until the IP's
// interrupt, so that the driver's timeouts count simulated time. On-chip buffers power on random, as block
// RAM on a board holds what it held.
#ifndef ACCELC_BOARDS_VIRTUAL_VIRTUAL_BUS_H_
#define ACCELC_BOARDS_VIRTUAL_VIRTUAL_BUS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "boards/driver/bus.h"
#include "support/status.h"

namespace accelc::boards {

struct VirtualBoardOptions {
  std::string board;            ///< the board's name, for messages
  std::string hwspec;           ///< the hwspec whose IP is on it: a preset or a file
  std::string hwspecYaml;       ///< else its YAML itself (HwSpec::canonicalYaml)
  std::string isaYaml;          ///< with hwspecYaml: its ISA's YAML (IsaLayout::yamlText)
  int64_t clockMhz = 100;       ///< the IP's clock, for waits
  uint64_t poolPhysical = 0;    ///< where the pool lies
  uint64_t poolBytes = 0;
  uint64_t randomSeed = 1;      ///< on-chip buffers at power-on; 0: zeros
  uint64_t errorLo = 0, errorHi = 0;  ///< physical bytes the memory answers SLVERR for
};

/// Starts accelc-vboard (ACCELC_VBOARD, or the one this build made) with the IP
/// of `o.hwspec` (or `o.hwspecYaml`): the one the build verilated for a preset,
/// else one verilated now into the cache of verilated models (once per
/// hwspec; minutes). An error when it cannot start, or the AXI wrapper does
/// not implement the hwspec.
support::Expected<std::unique_ptr<Bus>> openVirtualBoard(const VirtualBoardOptions& o);

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_VIRTUAL_VIRTUAL_BUS_H_
