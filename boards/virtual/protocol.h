// boards/virtual/protocol.h — the messages between a VirtualBus (the
// driver's side, virtual_bus.h) and accelc-vboard (the simulated IP, in its
// own process): fixed-size requests and replies over a socket; the DMA pool
// is shared memory both map.
#ifndef ACCELC_BOARDS_VIRTUAL_PROTOCOL_H_
#define ACCELC_BOARDS_VIRTUAL_PROTOCOL_H_

#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
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

/// The file descriptors the server finds its socket and the pool on.
inline constexpr int kSocketFd = 3, kPoolFd = 4;

/// Reads exactly `n` bytes; false when the other side has gone.
inline bool readAll(int fd, void* out, size_t n) {
  auto* p = static_cast<char*>(out);
  while (n) {
    const ssize_t got = ::read(fd, p, n);
    if (got <= 0) return false;
    p += got, n -= static_cast<size_t>(got);
  }
  return true;
}

/// Sends exactly `n` bytes; false when the other side has gone (no SIGPIPE).
inline bool sendAll(int fd, const void* data, size_t n) {
  auto* p = static_cast<const char*>(data);
  while (n) {
    const ssize_t sent = ::send(fd, p, n, MSG_NOSIGNAL);
    if (sent <= 0) return false;
    p += sent, n -= static_cast<size_t>(sent);
  }
  return true;
}

}  // namespace accelc::boards::vboard

#endif  // ACCELC_BOARDS_VIRTUAL_PROTOCOL_H_
