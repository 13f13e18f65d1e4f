// simulator/functional/tokens.h — the four dependency-token queues between
// neighbouring units, and which queue each flag of each unit uses. Shared by
// the functional simulator and the cycle model.
#ifndef ACCELC_SIMULATOR_FUNCTIONAL_TOKENS_H_
#define ACCELC_SIMULATOR_FUNCTIONAL_TOKENS_H_

#include <string>

#include "isa/semantics.h"

namespace accelc::simulator {

/// Token queues between neighbouring units.
enum TokenQueue { kLoadToCompute = 0, kComputeToLoad = 1, kComputeToStore = 2, kStoreToCompute = 3 };
inline constexpr int kNumTokenQueues = 4;
inline const char* const kQueueNames[] = {"load->compute", "compute->load", "compute->store", "store->compute"};
inline constexpr int kNoQueue = -1;

/// The queue a token flag of `unit` uses, or kNoQueue when the unit has no such neighbour.
inline int popPrevQ(isa::Unit u) {
  return u == isa::Unit::kCompute ? kLoadToCompute : u == isa::Unit::kStore ? kComputeToStore : kNoQueue;
}
inline int popNextQ(isa::Unit u) {
  return u == isa::Unit::kLoad ? kComputeToLoad : u == isa::Unit::kCompute ? kStoreToCompute : kNoQueue;
}
inline int pushPrevQ(isa::Unit u) {
  return u == isa::Unit::kCompute ? kComputeToLoad : u == isa::Unit::kStore ? kStoreToCompute : kNoQueue;
}
inline int pushNextQ(isa::Unit u) {
  return u == isa::Unit::kLoad ? kLoadToCompute : u == isa::Unit::kCompute ? kComputeToStore : kNoQueue;
}
/// Empty when every flag of `insn` names a queue its unit has, else why not.
inline std::string flagError(const isa::Instruction& insn) {
  const isa::Unit u = isa::unitOf(insn);
  const isa::Deps d = isa::depsOf(insn);
  if (!((d.popPrev && popPrevQ(u) == kNoQueue) || (d.pushPrev && pushPrevQ(u) == kNoQueue) ||
        (d.popNext && popNextQ(u) == kNoQueue) || (d.pushNext && pushNextQ(u) == kNoQueue)))
    return "";
  return std::string("illegal dependency flag: ") + isa::opcodeName(insn.opcode) + " runs on the " +
         isa::unitName(u) + " unit, which has no " + (u == isa::Unit::kLoad ? "previous" : "next") +
         " unit to exchange tokens with";
}

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_FUNCTIONAL_TOKENS_H_
