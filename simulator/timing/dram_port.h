// simulator/timing/dram_port.h — the DRAM port's arbitration and timing.
//
// The port rules of docs/microarchitecture.md ("DRAM port"), in plain C++: the
// cycle model drives it from its SystemC threads and the compiler's cost model
// runs it with one requester. Requesters queue DMAs (rows split into bursts of
// at most max_burst / bytes_per_cycle beats); in every cycle the port accepts at most one burst,
// from the highest-priority requester whose next request is visible, while
// fewer than `outstanding` bursts are in flight (with dram.split_4k a burst
// also ends at a 4 KiB boundary of its DRAM address). Accepted bursts use the data
// channel in acceptance order, one beat a cycle of the DMA's beat bytes
// (dram.bytes_per_cycle, or one output row: isa::dramBeatBytes): a read's beats
// start dram.latency_cycles after its acceptance, a write's the cycle after
// it; a read completes after its last beat, a write one latency later (its
// acknowledgement). Cycle numbers are absolute within a run.
#ifndef ACCELC_SIMULATOR_TIMING_DRAM_PORT_H_
#define ACCELC_SIMULATOR_TIMING_DRAM_PORT_H_

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "hwspec/hwspec.h"

namespace accelc::simulator {

/// Who asks the port for bursts, highest priority first.
enum class Requester : int { kFetch = 0, kCompute = 1, kLoad = 2, kStore = 3 };
inline constexpr int kNumRequesters = 4;

/// One DMA as the port sees it: `rows` rows of `rowBytes` bytes, row r at
/// DRAM byte `addr` + r·`pitch` of the window (which starts on a 4 KiB
/// boundary), in beats of `beatBytes` (0: dram.bytes_per_cycle).
struct DmaShape {
  int64_t rows = 0;
  int64_t rowBytes = 0;
  bool write = false;
  uint64_t addr = 0;
  uint64_t pitch = 0;
  int64_t beatBytes = 0;
};

/// The bytes a beat of `d` carries.
int64_t beatBytesOf(const hwspec::HwSpec& hw, const DmaShape& d);

/// The bytes of the burst that starts `offset` bytes into row `row` of `d`:
/// the rest of the row, at most timing.max_burst bytes (and for narrow beats
/// at most max_burst / dram.bytes_per_cycle of them), and with dram.split_4k, when it starts on a beat, no further than
/// the next 4 KiB boundary. The RTL's DMA engine cuts the same way.
int64_t burstBytes(const hwspec::HwSpec& hw, const DmaShape& d, int64_t row, int64_t offset);

/// The port's state: queued DMAs, bursts in flight, the data channel.
class DramPort {
 public:
  explicit DramPort(const hwspec::HwSpec& hw);

  /// Queues DMA `d` for `r`, its first request visible in cycle `from` (after
  /// r's earlier DMAs); returns its number, which done() and release() take.
  uint64_t submit(Requester r, const DmaShape& d, uint64_t from);
  /// Accepts every burst the port accepts in cycles before `until`.
  void advance(uint64_t until);
  /// The cycle DMA `id` of `r` completes if nothing else is submitted (its last
  /// burst's completion; for a DMA without bursts, its `from` cycle).
  uint64_t projectedDone(Requester r, uint64_t id) const;
  /// Forgets a completed DMA.
  void release(Requester r, uint64_t id);

  /// Cycles DMA `d` takes from the cycle its unit starts it, alone on the port.
  static int64_t aloneCycles(const hwspec::HwSpec& hw, const DmaShape& d);

 private:
  struct Pending {
    uint64_t id = 0;
    DmaShape shape;
    uint64_t from = 0;
    int64_t row = 0, offset = 0;  ///< next burst: its row and byte offset in the row
    uint64_t done = 0;            ///< completion of the bursts accepted so far
  };
  /// Accepts one burst of the head DMA of `r` in cycle `c`.
  void accept(int r, uint64_t c);
  /// Records `p` complete when it has no bursts left.
  void retireIfDone(int r);

  int64_t latency_, bytesPerCycle_, maxBurst_, outstanding_;
  bool split4k_;
  std::array<std::vector<Pending>, kNumRequesters> queue_;  ///< DMAs not fully accepted, in order
  std::array<uint64_t, kNumRequesters> nextId_{};           ///< numbers handed out
  std::array<uint64_t, kNumRequesters> ready_{};            ///< first cycle r may present a request
  std::array<std::vector<std::pair<uint64_t, uint64_t>>, kNumRequesters> done_;  ///< (id, cycle) of accepted DMAs
  std::vector<uint64_t> inflight_;  ///< completion cycles of bursts that may still be in flight
  uint64_t cycle_ = 0;              ///< the first cycle not yet arbitrated
  uint64_t channelFree_ = 0;        ///< the first cycle the data channel is free
};

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_TIMING_DRAM_PORT_H_
