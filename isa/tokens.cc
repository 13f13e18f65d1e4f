// isa/tokens.cc — the token machine's messages: illegal flags, deadlock and underflow.
#include "isa/tokens.h"

namespace accelc::isa {

using support::Location;

std::string flagError(const Instruction& insn) {
  const Unit u = unitOf(insn);
  const Deps d = depsOf(insn);
  if (!((d.popPrev && popPrevQ(u) == kNoQueue) || (d.pushPrev && pushPrevQ(u) == kNoQueue) ||
        (d.popNext && popNextQ(u) == kNoQueue) || (d.pushNext && pushNextQ(u) == kNoQueue)))
    return "";
  return std::string("illegal dependency flag: ") + opcodeName(insn.opcode) + " runs on the " + unitName(u) +
         " unit, which has no " + (u == Unit::kLoad ? "previous" : "next") + " unit to exchange tokens with";
}

std::optional<std::string> leftoverTokens(const std::array<size_t, kNumTokenQueues>& sizes) {
  for (int q = 0; q < kNumTokenQueues; ++q)
    if (sizes[q])
      return "FINISH retired with " + std::to_string(sizes[q]) + " token(s) left in queue " + kQueueNames[q] +
             "; every pushed token must be popped";
  return std::nullopt;
}

std::string TokenWait::str() const {
  switch (kind) {
    case kReady:
      return "";
    case kEmpty:
    case kNotVisible:
      return std::string("waits for a token in ") + kQueueNames[queue];
    case kFull:
      return std::string("waits for room in ") + kQueueNames[queue] + " (full)";
  }
  return "";
}

namespace {

/// When FINISH is fetched and a unit waits on a queue whose pusher has no
/// work left, no token can ever come: the program pops more than it pushes.
std::optional<std::string> underflow(const StallView& v, const std::array<size_t, kNumTokenQueues>& sizes) {
  if (!v.finishFetched) return std::nullopt;
  for (int u = 0; u < kNumUnits; ++u) {
    if (!v.units[u].head) continue;
    for (int q : popQueues(*v.units[u].head)) {
      if (q == kNoQueue || sizes[q] != 0) continue;
      const UnitView& pusher = v.units[static_cast<int>(kQueuePusher[q])];
      if (pusher.head || pusher.busy) continue;
      return std::string("token underflow: the ") + unitName(Unit(u)) + " unit pops " + kQueueNames[q] +
             " but no instruction is left that pushes to it";
    }
  }
  return std::nullopt;
}

}  // namespace

support::Diagnostic deadlockDiagnostic(const StallView& v, const std::array<size_t, kNumTokenQueues>& sizes,
                                       const std::array<std::string, kNumUnits>& blocked) {
  uint64_t first = v.fetchPc;
  for (const UnitView& u : v.units)
    if (u.head) first = std::min(first, u.pc);
  const Location at = Location::pc(v.program, first);
  std::string what = "token deadlock: no unit can make progress";
  if (v.cycle) what += " at cycle " + std::to_string(*v.cycle);
  if (std::optional<std::string> u = underflow(v, sizes)) what = *u;
  support::Diagnostic diag = support::error(at, what);
  for (int u = 0; u < kNumUnits; ++u) {
    const std::string unit = unitName(Unit(u));
    const UnitView& view = v.units[u];
    if (!view.head && Unit(u) == Unit::kCompute && v.finishing)
      diag.note(Location::pc(v.program, v.fetchPc - 1),
                "compute unit at FINISH: waits for the load and store units to finish");
    else if (!view.head)
      diag.note(Location(), unit + " unit is idle");
    else
      diag.note(Location::pc(v.program, view.pc),
                unit + " unit blocked at " + opcodeName(view.head->opcode) + ": " + blocked[u]);
  }
  if (!v.finishFetched && v.fetchNext)
    diag.note(Location::pc(v.program, v.fetchPc),
              std::string("fetch blocked: the ") + unitName(unitOf(*v.fetchNext)) + " unit's command queue is full");
  return diag;
}

}  // namespace accelc::isa
