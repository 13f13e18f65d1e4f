// simulator/rtl/axi_memory.h — an AXI4 slave memory for a verilated AXI
// master, cycle by cycle, in plain C++.
//
// With no stalls it keeps the DRAM contract (docs/microarchitecture.md,
// "AXI"): address channels always ready; bursts served in the order of their
// address handshakes, one beat a cycle on one data channel shared by reads
// and writes; a read's first beat `latency - 1` cycles after its AR
// handshake (the master's address register is the latency's first cycle);
// a write's beats taken from its AW handshake's cycle on; its B response
// `latency` cycles after its last beat. With `stallPercent`, each ready and valid
// the memory drives is withheld at random in that share of cycles (seeded),
// which changes the timing but never the data.
//
// Addresses outside [base, base + size) answer DECERR, and a burst that
// touches [errorLo, errorHi) answers SLVERR (a write there writes nothing).
// A narrow burst (AxSIZE below the bus) moves 2^AxSIZE bytes a beat, its
// address stepping by that much; each beat's bytes sit on the lanes of their
// address within the bus (a read returns the whole aligned bus word, a write
// takes the lanes whose strobes are set).
#ifndef ACCELC_SIMULATOR_RTL_AXI_MEMORY_H_
#define ACCELC_SIMULATOR_RTL_AXI_MEMORY_H_

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

namespace accelc::simulator {

/// What the master drives in a cycle.
struct AxiMasterSide {
  bool arvalid = false;
  uint64_t araddr = 0;
  unsigned arlen = 0;   ///< beats - 1
  unsigned arsize = 0;  ///< log2 of a beat's bytes (the harness copies the master's; 0 is one byte)
  bool awvalid = false;
  uint64_t awaddr = 0;
  unsigned awlen = 0;
  unsigned awsize = 0;
  bool wvalid = false;
  const uint8_t* wdata = nullptr;  ///< a beat's bytes
  uint64_t wstrb = 0;              ///< one bit per byte
  bool wlast = false;
  bool rready = false;
  bool bready = false;
};

/// What the memory drives in a cycle.
struct AxiSlaveSide {
  bool arready = false, awready = false, wready = false;
  bool rvalid = false, rlast = false;
  unsigned rresp = 0;
  const uint8_t* rdata = nullptr;  ///< beatBytes bytes
  bool bvalid = false;
  unsigned bresp = 0;
};

struct AxiMemoryOptions {
  uint64_t latency = 1;       ///< the hwspec's dram.latency_cycles
  unsigned stallPercent = 0;  ///< 0: the contract's timing
  uint64_t seed = 1;
  uint64_t errorLo = 0, errorHi = 0;  ///< the SLVERR range; empty when equal
};

/// How the master broke the protocol, as the memory saw it: a WLAST off its
/// burst's last beat, or a burst that crosses a 4 KiB boundary.
enum class AxiViolation { kNone, kWlast, kCrosses4k };

class AxiMemory {
 public:
  /// `mem` holds `size` bytes at physical address `base`; beats of `beatBytes`.
  AxiMemory(uint8_t* mem, uint64_t base, uint64_t size, unsigned beatBytes, const AxiMemoryOptions& o);

  /// The memory's side in cycle `now`, given the master's address channels
  /// as its registers hold them at the cycle's start (`m`'s ar* and aw*):
  /// the address handshakes happen here, the data ones in sample().
  const AxiSlaveSide& drive(uint64_t now, const AxiMasterSide& m);
  /// The master's side in the same cycle, after it saw the memory's: records
  /// its data and response handshakes.
  void sample(uint64_t now, const AxiMasterSide& m);

  /// Bursts accepted and not yet answered.
  bool idle() const { return bursts_.empty() && responses_.empty(); }
  AxiViolation violation() const { return violation_; }

 private:
  struct Burst {
    bool write = false;
    uint64_t addr = 0;
    unsigned beats = 0;
    unsigned size = 0;   ///< bytes a beat
    uint64_t from = 0;   ///< first cycle a beat may move
    unsigned done = 0;   ///< beats moved
    unsigned resp = 0;   ///< OKAY, SLVERR or DECERR
  };
  struct Response {
    uint64_t at = 0;
    unsigned resp = 0;
  };
  unsigned respFor(uint64_t addr, uint64_t bytes) const;
  /// Takes an address handshake of a burst of `beats` beats of 2^`size` bytes at `addr`.
  void accept(bool write, uint64_t addr, unsigned beats, unsigned size, uint64_t from);
  bool stall();

  uint8_t* mem_;
  uint64_t base_, size_;
  unsigned beat_;
  AxiMemoryOptions o_;
  std::mt19937_64 rng_;
  std::deque<Burst> bursts_;        ///< in address-handshake order: the data channel's queue
  std::deque<Response> responses_;  ///< B responses due
  uint64_t channelFree_ = 0;        ///< first cycle the data channel is free
  std::vector<uint8_t> rbeat_;      ///< the read beat on R
  AxiSlaveSide out_;
  bool rTaken_ = false, bTaken_ = false;  ///< out_'s R and B were taken
  AxiViolation violation_ = AxiViolation::kNone;
};

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_RTL_AXI_MEMORY_H_
