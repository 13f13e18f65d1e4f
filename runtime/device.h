// runtime/device.h — where accelerator programs run: a simulator or a board.
//
// A device owns a DRAM window for one HwSpec; what is written stays across
// runs, so a bundle's constants and programs are written once. A run returns
// what the engine measured (RunResult): the functional simulator counts
// events, the cycle model counts events and cycles, the RTL counts cycles,
// and a board reports what its counters hold; what an engine cannot measure
// stays empty, never zero. This library links only the devices a deployed
// board can have (runtime/fsim_device.h); runtime/sim_devices adds the cycle
// model and the RTL, and makeDevice over every engine.
#ifndef ACCELC_RUNTIME_DEVICE_H_
#define ACCELC_RUNTIME_DEVICE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/counters.h"
#include "isa/program.h"
#include "isa/semantics.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::runtime {

/// How one unit spent a timed run, in cycles.
struct UnitTime {
  uint64_t busy = 0;       ///< executing
  uint64_t tokenWait = 0;  ///< a visible command waited on tokens
  uint64_t dramStall = 0;  ///< its DMAs took beyond their time alone on the DRAM port
};

/// The span of one label of a program (a layer), in cycles from the run's
/// start: from the first cycle one of its instructions started to the cycle
/// the last one ended (last == first when none ran).
struct LabelSpan {
  std::string name;
  uint64_t first = 0, last = 0;
};

/// What one program run measured. Each field is there when the engine measures it.
struct RunResult {
  std::optional<uint64_t> cycles;                             ///< the cycle FINISH retired in, plus one
  std::optional<isa::Counters> events;                        ///< instructions, bytes moved, MACs, tokens
  std::optional<std::array<UnitTime, isa::kNumUnits>> units;  ///< per unit (load, compute, store)
  std::optional<uint64_t> fetchWait;                          ///< cycles fetch waited for instruction data from DRAM
  std::vector<LabelSpan> labels;                              ///< per label of the program, on engines that time them
  std::optional<double> simSeconds;  ///< wall time of the simulation alone, where it differs from the run's
};

/// A place to run programs.
class Device {
 public:
  virtual ~Device() = default;
  virtual const isa::Target& target() const = 0;
  virtual support::Status write(uint64_t addr, const void* data, uint64_t n) = 0;
  virtual support::Status read(uint64_t addr, void* out, uint64_t n) = 0;
  /// Where `n` bytes at `addr` of the device's DRAM lie in this process, for the host to write in place instead
  /// of through write() (one copy less); an error where write() would refuse them. Null on a device whose DRAM
  /// only write() may change (a board's DMA buffers need their caches flushed). The pointer lasts until the
  /// next call on the device.
  virtual support::Expected<uint8_t*> writable(uint64_t /*addr*/, uint64_t /*n*/) { return nullptr; }
  /// The same for reading in place of read(): null where only read() may (a board's DMA buffers need their
  /// caches invalidated first).
  virtual support::Expected<const uint8_t*> readable(uint64_t /*addr*/, uint64_t /*n*/) { return nullptr; }
  /// Runs a program whose segments are already in DRAM; `name` locates errors.
  virtual support::Expected<RunResult> run(const isa::Program& p, const std::string& name) = 0;
  /// A name for reports ("fsim", "cycle", "rtl", ...).
  virtual std::string kind() const = 0;
  /// Every run so far as a Chrome/Perfetto trace (JSON), on a device made
  /// to record one; empty on the others.
  virtual std::optional<std::string> trace() const { return std::nullopt; }
  /// Writes a program's whole DRAM window: zeros, then its segments.
  support::Status loadProgram(const isa::Program& p);
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_DEVICE_H_
