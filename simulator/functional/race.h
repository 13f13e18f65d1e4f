// simulator/functional/race.h — the race checker: happens-before by vector clocks.
//
// Three units run concurrently; the only order between them is the token
// chain. Each unit keeps a vector clock (its own entry counts the
// instructions it has run); pushing a token sends the pusher's clock, popping
// one merges it. The buffers two units share are the input and weight buffers
// (written by the load unit, read by compute) and the output buffer (written
// by compute, read by store). For every entry of those the checker remembers
// the epoch of the last write and of the last read: a read whose unit has not
// seen that write, or a write whose unit has not seen that read, is a race —
// the program works only if the units happen to run in a lucky order.
#ifndef ACCELC_SIMULATOR_FUNCTIONAL_RACE_H_
#define ACCELC_SIMULATOR_FUNCTIONAL_RACE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/semantics.h"
#include "support/diagnostic.h"

namespace accelc::simulator {

/// A vector clock: one epoch per unit.
using VClock = std::array<uint32_t, isa::kNumUnits>;

/// The buffers shared between two units.
enum class Shared { kInp = 0, kWgt = 1, kOut = 2 };

/// Tracks accesses to the shared buffers and finds unordered pairs.
class RaceTracker {
 public:
  RaceTracker(int64_t inpDepth, int64_t wgtDepth, int64_t outDepth, std::string program);

  /// Starts an instruction of `unit` at `pc` whose clock is `vc`.
  void begin(isa::Unit unit, const VClock& vc, uint64_t pc) {
    unit_ = unit;
    vc_ = vc;
    pc_ = pc;
  }
  /// Records a write of entry `i` of `b` by the current instruction.
  void write(Shared b, int64_t i) {
    Entry& e = entries_[static_cast<int>(b)][i];
    if (e.readEpoch > vc_[static_cast<int>(readerOf(b))]) report(b, i, e.readPc, "reads", "writes");
    e.writeEpoch = vc_[static_cast<int>(unit_)];
    e.writePc = pc_;
  }
  /// Records a read of entry `i` of `b` by the current instruction.
  void read(Shared b, int64_t i) {
    Entry& e = entries_[static_cast<int>(b)][i];
    if (e.writeEpoch > vc_[static_cast<int>(writerOf(b))]) report(b, i, e.writePc, "writes", "reads");
    e.readEpoch = vc_[static_cast<int>(unit_)];
    e.readPc = pc_;
  }
  /// The first race found, if any.
  const std::optional<support::Diagnostic>& race() const { return race_; }

 private:
  struct Entry {
    uint32_t writeEpoch = 0, readEpoch = 0;  ///< epochs of the last write/read
    uint64_t writePc = 0, readPc = 0;        ///< their instructions
  };
  static isa::Unit writerOf(Shared b) { return b == Shared::kOut ? isa::Unit::kCompute : isa::Unit::kLoad; }
  static isa::Unit readerOf(Shared b) { return b == Shared::kOut ? isa::Unit::kStore : isa::Unit::kCompute; }
  void report(Shared b, int64_t i, uint64_t otherPc, const char* otherDoes, const char* thisDoes);

  std::array<std::vector<Entry>, 3> entries_;  ///< per shared buffer
  std::string program_;                        ///< name for locations
  isa::Unit unit_ = isa::Unit::kLoad;          ///< unit of the current instruction
  VClock vc_{};                                ///< its clock
  uint64_t pc_ = 0;                            ///< its pc
  std::optional<support::Diagnostic> race_;    ///< first race found
};

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_FUNCTIONAL_RACE_H_
