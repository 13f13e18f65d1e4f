// boards/driver/board_bus.h — a board's accelerator as a Bus (bus.h): the
// control registers mapped through UIO, the DMA pool from u-dma-buf, cache
// maintenance through u-dma-buf's sync interface where the AXI port is not
// coherent, and waits that end at the UIO interrupt (or sleep, without one).
//
// The register window is the UIO node named "accelc" (map 0); on the ARM
// builds, without one, /dev/mem at the board file's control base. The pool
// is the board file's u-dma-buf device, its size and physical address read
// from sysfs. Where those live is a parameter, so that the discovery and the
// sync protocol can be checked against a tree of plain files.
#ifndef ACCELC_BOARDS_DRIVER_BOARD_BUS_H_
#define ACCELC_BOARDS_DRIVER_BOARD_BUS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "boards/driver/bus.h"
#include "support/status.h"

namespace accelc::boards {

struct BoardBusOptions {
  std::string board;             ///< its name, for messages
  uint64_t controlBase = 0;      ///< the registers' physical address (/dev/mem)
  std::string dmaDevice;         ///< the u-dma-buf device, e.g. /dev/udmabuf0
  bool udmabuf = true;           ///< false: the board file names the CMA heap
  bool coherent = false;         ///< the DRAM port snoops the processor's caches (MPSoC HPC ports)
  std::string sysfs = "/sys";    ///< where sysfs is
  std::string dev = "/dev";      ///< where the UIO nodes are
};

/// The board's bus; an error that says what is missing when the machine has
/// no accelerator (no UIO node "accelc") or no usable DMA pool.
support::Expected<std::unique_ptr<Bus>> openBoardBus(const BoardBusOptions& o);

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_DRIVER_BOARD_BUS_H_
