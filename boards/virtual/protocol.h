// boards/virtual/protocol.h — the messages between a VirtualBus (the
// driver's side, virtual_bus.h) and accelc-vboard (the simulated IP, in its
// own process): fixed-size requests and replies over a socket; the DMA pool
// is shared memory both map.
#ifndef ACCELC_BOARDS_VIRTUAL_PROTOCOL_H_
#define ACCELC_BOARDS_VIRTUAL_PROTOCOL_H_

#include <cstdint>

namespace accelc::boards::vboard {

enum Op : uint32_t {
  kRead32 = 1,   ///< an AXI4-Lite read of register `offset`
  kWrite32 = 2,  ///< a write of `value` to it
  kRun = 3,      ///< run the clock for `value` cycles, or until the interrupt when `offset` is 1
  kQuit = 4,
};

struct Request {
  uint32_t op = 0;
  uint32_t offset = 0;
  uint64_t value = 0;
};

struct Reply {
  uint32_t ok = 0;     ///< 0: `message` says why
  uint32_t value = 0;  ///< a read's word; for kRun, 1 when the interrupt ended it
  uint64_t now = 0;    ///< the IP's cycles since power-on
  char message[240] = {};
};

}  // namespace accelc::boards::vboard

#endif  // ACCELC_BOARDS_VIRTUAL_PROTOCOL_H_
