// isa/tokens.h — the dependency-token machine: the four token queues between
// neighbouring units, which queue each flag of each unit uses, the push and
// pop rules, and the diagnostics of a program that breaks them.
//
// The rules (docs/isa.md): an instruction starts once every queue it pops
// holds a token and every queue it pushes has room (`queues.token_depth`); it
// pops when it starts and pushes when it ends. A program ends at FINISH with
// every queue empty. When nothing can move before that, the run is a
// deadlock, or an underflow when a unit waits on a queue whose pusher has no
// work left. Every engine that runs programs — the functional simulator, the
// cycle model, the compiler's cost replay — steps one TokenMachine, so the
// rules and their messages exist once. Each engine chooses what a token
// carries: a vector clock for the race checker, the cycle it becomes visible.
#ifndef ACCELC_ISA_TOKENS_H_
#define ACCELC_ISA_TOKENS_H_

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "isa/instruction.h"
#include "isa/semantics.h"
#include "support/status.h"

namespace accelc::isa {

/// Token queues between neighbouring units.
enum TokenQueue { kLoadToCompute = 0, kComputeToLoad = 1, kComputeToStore = 2, kStoreToCompute = 3 };
inline constexpr int kNumTokenQueues = 4;
inline const char* const kQueueNames[] = {"load->compute", "compute->load", "compute->store", "store->compute"};
inline constexpr int kNoQueue = -1;

/// The unit that pushes into each queue.
inline constexpr Unit kQueuePusher[kNumTokenQueues] = {Unit::kLoad, Unit::kCompute, Unit::kCompute, Unit::kStore};

/// The queue a token flag of `unit` uses, or kNoQueue when the unit has no such neighbour.
inline int popPrevQ(Unit u) {
  return u == Unit::kCompute ? kLoadToCompute : u == Unit::kStore ? kComputeToStore : kNoQueue;
}
inline int popNextQ(Unit u) {
  return u == Unit::kLoad ? kComputeToLoad : u == Unit::kCompute ? kStoreToCompute : kNoQueue;
}
inline int pushPrevQ(Unit u) {
  return u == Unit::kCompute ? kComputeToLoad : u == Unit::kStore ? kStoreToCompute : kNoQueue;
}
inline int pushNextQ(Unit u) {
  return u == Unit::kLoad ? kLoadToCompute : u == Unit::kCompute ? kComputeToStore : kNoQueue;
}

/// The queues `insn` pops (pop_prev, then pop_next) and pushes (push_prev,
/// then push_next); kNoQueue where the flag is clear.
inline std::array<int, 2> popQueues(const Instruction& insn) {
  const Unit u = unitOf(insn);
  const Deps d = depsOf(insn);
  return {d.popPrev ? popPrevQ(u) : kNoQueue, d.popNext ? popNextQ(u) : kNoQueue};
}
inline std::array<int, 2> pushQueues(const Instruction& insn) {
  const Unit u = unitOf(insn);
  const Deps d = depsOf(insn);
  return {d.pushPrev ? pushPrevQ(u) : kNoQueue, d.pushNext ? pushNextQ(u) : kNoQueue};
}

/// Empty when every flag of `insn` names a queue its unit has, else why not.
std::string flagError(const Instruction& insn);

/// What keeps an instruction from starting: a queue it pops that is empty (or
/// whose front token is not visible yet) or a queue it pushes that is full.
struct TokenWait {
  enum Kind { kReady, kEmpty, kNotVisible, kFull };
  Kind kind = kReady;
  int queue = kNoQueue;  ///< the queue waited on
  explicit operator bool() const { return kind != kReady; }
  /// "waits for a token in Q" or "waits for room in Q (full)".
  std::string str() const;
};

/// One unit as a deadlock diagnostic sees it.
struct UnitView {
  const Instruction* head = nullptr;  ///< the instruction at the head of its command queue; null when empty
  uint64_t pc = 0;                    ///< that instruction's pc
  bool busy = false;                  ///< executing an instruction it has popped already
};

/// The machine's surroundings when nothing can move, for diagnostics.
struct StallView {
  std::string program;  ///< program name for locations
  std::array<UnitView, kNumUnits> units;
  uint64_t fetchPc = 0;                    ///< next instruction to fetch
  bool finishFetched = false;              ///< FINISH was dispatched
  const Instruction* fetchNext = nullptr;  ///< the decoded instruction fetch holds, when not dispatched
  bool finishing = false;                  ///< FINISH waits on the compute unit for the load and store units
  std::optional<uint64_t> cycle;           ///< the cycle, on timed engines
};

/// The error of a program whose FINISH retired with tokens left in the queues
/// (`sizes` per queue), or nothing when every queue is empty.
std::optional<std::string> leftoverTokens(const std::array<size_t, kNumTokenQueues>& sizes);

/// The four token queues, each token carrying a `T`.
template <typename T>
class TokenMachine {
 public:
  /// Queues of `depth` tokens each; 0 for unbounded.
  explicit TokenMachine(uint64_t depth) : depth_(depth) {}

  const std::deque<T>& queue(int q) const { return q_[check(q)]; }

  /// Why `insn` cannot start now; `visible(token)` tells whether a queue's
  /// front token can be seen yet (always, on untimed engines).
  template <typename Visible>
  TokenWait wait(const Instruction& insn, Visible visible) const {
    for (int q : popQueues(insn)) {
      if (q == kNoQueue) continue;
      if (q_[q].empty()) return {TokenWait::kEmpty, q};
      if (!visible(q_[q].front())) return {TokenWait::kNotVisible, q};
    }
    for (int q : pushQueues(insn))
      if (q != kNoQueue && depth_ && q_[q].size() >= depth_) return {TokenWait::kFull, q};
    return {};
  }
  TokenWait wait(const Instruction& insn) const {
    return wait(insn, [](const T&) { return true; });
  }

  /// Takes the tokens `insn` pops, handing each to `take(token)` first.
  template <typename Take>
  void pop(const Instruction& insn, Take take) {
    for (int q : popQueues(insn)) {
      if (q == kNoQueue) continue;
      ACCELC_CHECK(!q_[q].empty()) << "pop from empty token queue " << kQueueNames[q];
      take(q_[q].front());
      q_[q].pop_front();
    }
  }

  /// Pushes `token` into every queue `insn` pushes; returns how many.
  int push(const Instruction& insn, const T& token) {
    int n = 0;
    for (int q : pushQueues(insn))
      if (q != kNoQueue) q_[q].push_back(token), ++n;
    return n;
  }

  /// The FINISH error when tokens are left in a queue (leftoverTokens).
  std::optional<std::string> leftover() const {
    std::array<size_t, kNumTokenQueues> sizes{};
    for (int q = 0; q < kNumTokenQueues; ++q) sizes[q] = q_[q].size();
    return leftoverTokens(sizes);
  }

  /// The diagnostic of a run in which nothing can move.
  support::Diagnostic deadlock(const StallView& v) const;

 private:
  static int check(int q) {
    ACCELC_CHECK(q >= 0 && q < kNumTokenQueues) << "token queue " << q;
    return q;
  }
  uint64_t depth_;                                ///< tokens per queue; 0: unbounded
  std::array<std::deque<T>, kNumTokenQueues> q_;  ///< the queues, oldest token first
};

/// The deadlock diagnostic, for any token type, from the queues' sizes and
/// what each unit's head waits on (TokenMachine::wait).
support::Diagnostic deadlockDiagnostic(const StallView& v, const std::array<size_t, kNumTokenQueues>& sizes,
                                       const std::array<std::string, kNumUnits>& blocked);

template <typename T>
support::Diagnostic TokenMachine<T>::deadlock(const StallView& v) const {
  std::array<size_t, kNumTokenQueues> sizes{};
  for (int q = 0; q < kNumTokenQueues; ++q) sizes[q] = q_[q].size();
  std::array<std::string, kNumUnits> blocked;
  for (int u = 0; u < kNumUnits; ++u)
    if (v.units[u].head) blocked[u] = wait(*v.units[u].head).str();
  return deadlockDiagnostic(v, sizes, blocked);
}

}  // namespace accelc::isa

#endif  // ACCELC_ISA_TOKENS_H_
