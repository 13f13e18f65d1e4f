// isa/dram_image.h — a device's DRAM window as bytes, with its bounds-checked
// I/O: every simulated device keeps its DRAM in one, so that the checks, the
// messages and program loading exist once.
//
// Addresses are byte offsets from the window's base register (docs/isa.md).
// The image grows as it is written, new bytes zero, up to the hwspec's
// `dram.window`; reads must lie inside what it holds.
#ifndef ACCELC_ISA_DRAM_IMAGE_H_
#define ACCELC_ISA_DRAM_IMAGE_H_

#include <cstdint>
#include <vector>

#include "isa/program.h"
#include "support/status.h"

namespace accelc::isa {

class DramImage {
 public:
  /// An empty window that may grow to `limit` bytes.
  explicit DramImage(uint64_t limit) : limit_(limit) {}

  /// Copies `n` bytes in at `addr`; an error when they pass the limit.
  support::Status write(uint64_t addr, const void* data, uint64_t n);
  /// Where `n` bytes at `addr` lie, for a caller to write in place of write(): the window grows to hold them; an
  /// error where write() would refuse them. The pointer lasts until the window grows again.
  support::Expected<uint8_t*> writable(uint64_t addr, uint64_t n);
  /// Where `n` bytes at `addr` lie, for a caller to read in place of read(); an error outside what the window
  /// holds. The pointer lasts until the window grows.
  support::Expected<const uint8_t*> readable(uint64_t addr, uint64_t n) const;
  /// Copies `n` bytes at `addr` out; an error outside what the window holds.
  support::Status read(uint64_t addr, void* out, uint64_t n) const;
  /// Grows the window to `p.window` and writes its segments.
  support::Status loadProgram(const Program& p);

  /// Grows the window to at least `bytes` (new bytes are zero).
  void ensure(uint64_t bytes) {
    if (bytes > mem_.size()) mem_.resize(bytes, 0);
  }
  uint64_t size() const { return mem_.size(); }
  /// Whether [addr, addr + n) lies inside the window.
  bool contains(uint64_t addr, uint64_t n) const { return addr <= mem_.size() && n <= mem_.size() - addr; }
  uint8_t* at(uint64_t addr) { return mem_.data() + addr; }
  const uint8_t* at(uint64_t addr) const { return mem_.data() + addr; }
  /// The bytes, for an engine that hands the window to a model whole.
  std::vector<uint8_t>& bytes() { return mem_; }

 private:
  uint64_t limit_;            ///< the hwspec's dram.window
  std::vector<uint8_t> mem_;  ///< the window's contents
};

}  // namespace accelc::isa

#endif  // ACCELC_ISA_DRAM_IMAGE_H_
