// simulator/rtl/axi_model.h — the verilated Zynq IP (hls/rtl/accelc_axi.sv)
// as a C++ object: its clock, its AXI4-Lite registers and its interrupt,
// with an AxiMemory (axi_memory.h) on its AXI4 master.
//
// simulator/rtl/axi_harness.cc implements it for each model the build
// verilates (builtin_models.h); the virtual board (boards/virtual) and
// runOnAxi (axi_run.h) drive it through the registers only, as a processor
// drives the IP. This header is all the two sides share.
#ifndef ACCELC_SIMULATOR_RTL_AXI_MODEL_H_
#define ACCELC_SIMULATOR_RTL_AXI_MODEL_H_

#include <cstdint>
#include <optional>

#include "simulator/rtl/axi_memory.h"

namespace accelc::simulator {

/// How the IP starts.
struct AxiPowerOn {
  /// On a board, block RAM is not cleared at configuration: nonzero fills
  /// every register and memory the reset does not set (the on-chip
  /// buffers, the queues' storage) with values drawn from this seed.
  uint64_t randomSeed = 0;
};

class AxiModel {
 public:
  /// Cycles an AXI4-Lite access may take (the IP answers in two).
  static constexpr uint64_t kLiteCycles = 64;

  virtual ~AxiModel() = default;
  /// Powers the IP on (a fresh model) and holds ap_rst_n low for a cycle;
  /// `mem` (`size` bytes at physical address `base`) answers its master.
  virtual void powerOn(uint8_t* mem, uint64_t base, uint64_t size, const AxiMemoryOptions& memory,
                       const AxiPowerOn& how) = 0;
  /// One AXI4-Lite read of the register at `offset`; the clock runs
  /// meanwhile. Nothing when the IP does not answer within kLiteCycles.
  virtual std::optional<uint32_t> read(uint32_t offset) = 0;
  /// One AXI4-Lite write; false when the IP does not answer within kLiteCycles.
  virtual bool write(uint32_t offset, uint32_t value) = 0;
  /// Runs the clock for `cycles` cycles, or until the interrupt is raised
  /// when `untilInterrupt`; returns the cycles it ran.
  virtual uint64_t run(uint64_t cycles, bool untilInterrupt) = 0;
  /// Cycles since power-on.
  virtual uint64_t now() const = 0;
  /// The memory on the master.
  virtual const AxiMemory& memory() const = 0;
  /// Bytes of one data beat of the master.
  virtual unsigned beatBytes() const = 0;
};

/// The factory a model's library exports (extern "C"); the caller owns the model.
using AxiModelFactory = AxiModel* (*)();

/// The name of that factory in a shared library the runtime verilates.
inline constexpr const char* kAxiModelFactorySymbol = "accelc_axi_create_Vaccelc_model";

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_RTL_AXI_MODEL_H_
