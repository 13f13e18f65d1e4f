// simulator/functional/state.h — the architectural state: DRAM and on-chip SRAMs.
//
// Shared by every simulator that reuses the functional datapath (fsim, and
// the cycle model later), so that the arithmetic exists once.
#ifndef ACCELC_SIMULATOR_FUNCTIONAL_STATE_H_
#define ACCELC_SIMULATOR_FUNCTIONAL_STATE_H_

#include <cstdint>
#include <vector>

#include "hwspec/hwspec.h"
#include "support/status.h"

namespace accelc::simulator {

/// The device's DRAM window: bytes addressed from 0 (the base register).
class Dram {
 public:
  /// Grows the window to at least `bytes` (new bytes are zero).
  void ensure(uint64_t bytes) {
    if (bytes > mem_.size()) mem_.resize(bytes, 0);
  }
  uint64_t size() const { return mem_.size(); }
  /// Whether [addr, addr + n) lies inside the window.
  bool contains(uint64_t addr, uint64_t n) const { return addr <= mem_.size() && n <= mem_.size() - addr; }
  uint8_t* at(uint64_t addr) { return mem_.data() + addr; }
  const uint8_t* at(uint64_t addr) const { return mem_.data() + addr; }

 private:
  std::vector<uint8_t> mem_;  ///< the window's contents
};

/// A decoded micro-op as the micro-op buffer holds it.
struct UopEntry {
  uint32_t dst = 0;  ///< accumulator row
  uint32_t src = 0;  ///< input row (GEMM) or accumulator row (ALU)
  uint32_t wgt = 0;  ///< weight entry
};

/// The on-chip buffers, entry-major. Weights and inputs are also kept in the
/// pair-packed int16 layouts the vectorized GEMM kernel reads; they are
/// refreshed whenever LOAD writes the int8 originals.
struct Srams {
  explicit Srams(const hwspec::HwSpec& s);

  int64_t batch, blockIn, blockOut;  ///< GEMM shape (copied from the HwSpec)
  std::vector<UopEntry> uop;         ///< [uop depth]
  std::vector<int8_t> inp;           ///< [inp depth][batch][blockIn]
  std::vector<int8_t> wgt;           ///< [wgt depth][blockOut][blockIn]
  std::vector<int32_t> acc;          ///< [acc depth][batch][blockOut]
  std::vector<int8_t> out;           ///< [out depth][batch][blockOut]
  std::vector<int32_t> inpPairs;     ///< [inp depth][batch][blockIn/2] int16 pairs
  std::vector<int32_t> wgtPairs;     ///< [wgt depth][blockIn/2][blockOut] int16 pairs
  int64_t depth[hwspec::kNumBuffers];  ///< entries per buffer

  /// Rebuilds the packed forms of input row `i` / weight entry `i`.
  void packInput(int64_t i);
  void packWeight(int64_t i);
};

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_FUNCTIONAL_STATE_H_
