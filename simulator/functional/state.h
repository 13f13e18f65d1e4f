// simulator/functional/state.h — the architectural state: on-chip SRAMs (DRAM
// is an isa::DramImage).
//
// Shared by every simulator that reuses the functional datapath (fsim, and
// the cycle model later), so that the arithmetic exists once.
#ifndef ACCELC_SIMULATOR_FUNCTIONAL_STATE_H_
#define ACCELC_SIMULATOR_FUNCTIONAL_STATE_H_

#include <cstdint>
#include <vector>

#include "hwspec/hwspec.h"
#include "isa/dram_image.h"
#include "support/status.h"

namespace accelc::simulator {

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

  /// The --check-defined mode: from now on, remember which entries of each
  /// buffer were written since the state was made (reset), so that a read
  /// of any other entry is an error.
  void trackDefined();
  bool tracksDefined() const { return !defined[0].empty(); }
  void setDefined(hwspec::BufferKind k, int64_t i) { defined[static_cast<int>(k)][static_cast<size_t>(i)] = true; }
  bool isDefined(hwspec::BufferKind k, int64_t i) const { return defined[static_cast<int>(k)][static_cast<size_t>(i)]; }

 private:
  std::vector<bool> defined[hwspec::kNumBuffers];  ///< per buffer entry: written since reset (when tracking)
};

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_FUNCTIONAL_STATE_H_
