// simulator/functional/fsim.cc — fetch, command queues, token queues, units.
#include "simulator/functional/fsim.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <optional>

#include "isa/encoding.h"
#include "isa/semantics.h"
#include "simulator/functional/datapath.h"
#include "simulator/functional/race.h"
#include "simulator/functional/tokens.h"

namespace accelc::simulator {

using isa::Unit;
using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

constexpr int kNone = kNoQueue;

/// One execution of one program.
class Run {
 public:
  Run(const isa::Target& t, const isa::Program& p, std::string name, Dram& dram, Srams& srams, bool races)
      : t_(t), name_(std::move(name)), dram_(dram), dp_(t, dram, p.window, srams, c_) {
    textAddr_ = p.text().addr;
    count_ = p.text().bytes.size() / t.insnBytes();
    if (races)
      races_ = std::make_unique<RaceTracker>(t.spec.depth(hwspec::BufferKind::kInput),
                                             t.spec.depth(hwspec::BufferKind::kWeight),
                                             t.spec.depth(hwspec::BufferKind::kOutput), name_);
  }
  Expected<Counters> go();

 private:
  Location at(uint64_t pc) const { return Location::pc(name_, pc); }
  /// Token queue `q`; flags without a queue were rejected at fetch.
  std::deque<VClock>& tq(int q) {
    ACCELC_CHECK(q >= 0 && q < 4) << "token queue " << q;
    return tok_[q];
  }
  const std::deque<VClock>& tq(int q) const {
    ACCELC_CHECK(q >= 0 && q < 4) << "token queue " << q;
    return tok_[q];
  }
  Expected<bool> fetch();
  /// Why the head of `u` cannot run ("" when it can).
  std::string blocked(int u) const;
  Status step(int u);
  support::Diagnostic deadlock() const;
  /// When fetch is done and a unit waits on a queue whose pusher is idle, no
  /// token can ever come: the program pops more tokens than it pushes.
  std::optional<std::string> underflow() const;

  const isa::Target& t_;            ///< hardware
  std::string name_;                ///< program name for locations
  Dram& dram_;                      ///< DRAM window
  Counters c_;                      ///< counts
  Datapath dp_;                     ///< executes instructions
  std::unique_ptr<RaceTracker> races_;  ///< null when not checking
  uint64_t textAddr_ = 0, count_ = 0;   ///< the instruction stream
  uint64_t fetchPc_ = 0;            ///< next instruction to fetch
  bool fetchDone_ = false;          ///< FINISH fetched
  bool finished_ = false;           ///< FINISH executed
  std::vector<isa::Instruction> insns_;  ///< decoded, by pc
  std::deque<uint64_t> cmd_[isa::kNumUnits];  ///< command queues (pcs)
  std::deque<VClock> tok_[4];       ///< token queues (the pusher's clock)
  VClock vc_[isa::kNumUnits]{};     ///< per-unit vector clocks
};

Expected<bool> Run::fetch() {
  bool progress = false;
  const uint64_t depth = static_cast<uint64_t>(t_.spec.commandDepth);
  while (!fetchDone_) {
    if (fetchPc_ >= count_)
      return error(at(fetchPc_), "the program ends without FINISH (" + std::to_string(count_) + " instructions)");
    if (insns_.size() == fetchPc_) {
      uint64_t addr = textAddr_ + fetchPc_ * t_.insnBytes();
      if (!dram_.contains(addr, t_.insnBytes()))
        return error(at(fetchPc_), "instruction fetch outside the DRAM window (byte " + std::to_string(addr) + ")");
      ACCELC_ASSIGN_OR_RETURN(isa::Instruction insn, isa::decodeInstruction(t_, dram_.at(addr), at(fetchPc_)));
      if (std::string why = flagError(insn); !why.empty()) return error(at(fetchPc_), why);
      insns_.push_back(insn);
      c_.fetchBytes += t_.insnBytes();
      c_.dramReadBytes += t_.insnBytes();
    }
    const int u = static_cast<int>(isa::unitOf(insns_[fetchPc_]));
    if (cmd_[u].size() >= depth) break;
    cmd_[u].push_back(fetchPc_);
    fetchDone_ = insns_[fetchPc_].opcode == isa::Opcode::kFinish;
    ++fetchPc_;
    progress = true;
  }
  return progress;
}

std::string Run::blocked(int u) const {
  if (cmd_[u].empty()) return "idle";
  isa::Deps d = isa::depsOf(insns_[cmd_[u].front()]);
  const Unit unit = Unit(u);
  const size_t depth = static_cast<size_t>(t_.spec.tokenDepth);
  if (d.popPrev && tq(popPrevQ(unit)).empty()) return std::string("waits for a token in ") + kQueueNames[popPrevQ(unit)];
  if (d.popNext && tq(popNextQ(unit)).empty()) return std::string("waits for a token in ") + kQueueNames[popNextQ(unit)];
  if (d.pushPrev && tq(pushPrevQ(unit)).size() >= depth)
    return std::string("waits for room in ") + kQueueNames[pushPrevQ(unit)] + " (full)";
  if (d.pushNext && tq(pushNextQ(unit)).size() >= depth)
    return std::string("waits for room in ") + kQueueNames[pushNextQ(unit)] + " (full)";
  return "";
}

Status Run::step(int u) {
  const uint64_t pc = cmd_[u].front();
  const isa::Instruction& insn = insns_[pc];
  const Unit unit = Unit(u);
  isa::Deps d = isa::depsOf(insn);
  auto pop = [&](int q) {
    const VClock& vc = tq(q).front();
    for (int i = 0; i < isa::kNumUnits; ++i) vc_[u][i] = std::max(vc_[u][i], vc[i]);
    tq(q).pop_front();
  };
  if (d.popPrev) pop(popPrevQ(unit));
  if (d.popNext) pop(popNextQ(unit));
  ++vc_[u][u];
  if (races_) races_->begin(unit, vc_[u], pc);
  ACCELC_TRY(dp_.execute(insn, pc, name_, races_.get()));
  if (races_ && races_->race()) return *races_->race();
  if (d.pushPrev) tq(pushPrevQ(unit)).push_back(vc_[u]);
  if (d.pushNext) tq(pushNextQ(unit)).push_back(vc_[u]);
  c_.tokens += d.pushPrev + d.pushNext;
  ++c_.insns[static_cast<int>(insn.opcode)];
  finished_ = finished_ || insn.opcode == isa::Opcode::kFinish;
  cmd_[u].pop_front();
  return Status::ok();
}

support::Diagnostic Run::deadlock() const {
  uint64_t first = fetchPc_;
  for (const auto& q : cmd_)
    if (!q.empty()) first = std::min(first, q.front());
  support::Diagnostic diag = error(at(first), "token deadlock: no unit can make progress");
  if (std::optional<std::string> u = underflow()) diag = error(at(first), *u);
  for (int u = 0; u < isa::kNumUnits; ++u) {
    std::string why = blocked(u);
    if (cmd_[u].empty()) {
      diag.note(Location(), std::string(isa::unitName(Unit(u))) + " unit is idle");
      continue;
    }
    uint64_t pc = cmd_[u].front();
    diag.note(at(pc), std::string(isa::unitName(Unit(u))) + " unit blocked at " +
                          isa::opcodeName(insns_[pc].opcode) + ": " + why);
  }
  if (!fetchDone_ && fetchPc_ < insns_.size())
    diag.note(at(fetchPc_), std::string("fetch blocked: the ") + isa::unitName(isa::unitOf(insns_[fetchPc_])) +
                                " unit's command queue is full");
  return diag;
}

std::optional<std::string> Run::underflow() const {
  if (!fetchDone_) return std::nullopt;
  // The unit that pushes into each queue.
  const Unit pusher[4] = {Unit::kLoad, Unit::kCompute, Unit::kCompute, Unit::kStore};
  for (int u = 0; u < isa::kNumUnits; ++u) {
    if (cmd_[u].empty()) continue;
    isa::Deps d = isa::depsOf(insns_[cmd_[u].front()]);
    for (int q : {d.popPrev ? popPrevQ(Unit(u)) : kNone, d.popNext ? popNextQ(Unit(u)) : kNone}) {
      if (q == kNone || !tq(q).empty() || !cmd_[static_cast<int>(pusher[q])].empty()) continue;
      return std::string("token underflow: the ") + isa::unitName(Unit(u)) + " unit pops " + kQueueNames[q] +
             " but no instruction is left that pushes to it";
    }
  }
  return std::nullopt;
}

Expected<Counters> Run::go() {
  while (true) {
    ACCELC_ASSIGN_OR_RETURN(bool progress, fetch());
    for (int u = 0; u < isa::kNumUnits; ++u)
      while (blocked(u).empty()) {
        ACCELC_TRY(step(u));
        progress = true;
      }
    bool idle = cmd_[0].empty() && cmd_[1].empty() && cmd_[2].empty();
    if (finished_ && idle) break;
    if (!progress) return deadlock();
  }
  for (int q = 0; q < 4; ++q)
    if (!tok_[q].empty())
      return error(Location::pc(name_, fetchPc_ - 1),
                   "FINISH retired with " + std::to_string(tok_[q].size()) + " token(s) left in queue " +
                       kQueueNames[q] + "; every pushed token must be popped");
  return c_;
}

}  // namespace

FunctionalSim::FunctionalSim(const isa::Target& t, FsimOptions options)
    : t_(t), options_(options), srams_(std::make_unique<Srams>(t.spec)) {}

FunctionalSim::~FunctionalSim() = default;

Status FunctionalSim::write(uint64_t addr, const void* data, uint64_t n) {
  const uint64_t window = static_cast<uint64_t>(t_.spec.dramWindowBytes);
  if (n > window || addr > window - n)
    return error(Location(), "write of " + std::to_string(n) + " bytes at " + std::to_string(addr) +
                                 " lies outside the hwspec's DRAM window (dram.window)");
  dram_.ensure(addr + n);
  if (n) std::memcpy(dram_.at(addr), data, n);
  return Status::ok();
}

Status FunctionalSim::read(uint64_t addr, void* out, uint64_t n) const {
  if (!dram_.contains(addr, n))
    return error(Location(), "read of " + std::to_string(n) + " bytes at " + std::to_string(addr) +
                                 " lies outside the DRAM window of " + std::to_string(dram_.size()) + " bytes");
  if (n) std::memcpy(out, dram_.at(addr), n);
  return Status::ok();
}

Status FunctionalSim::loadProgram(const isa::Program& p) {
  dram_.ensure(p.window);
  for (const isa::Segment& s : p.segments) ACCELC_TRY(write(s.addr, s.bytes.data(), s.bytes.size()));
  return Status::ok();
}

Expected<Counters> FunctionalSim::run(const isa::Program& p, const std::string& name) {
  if (p.hash != t_.hash)
    return error(Location::file(name), "the program was built for another hwspec than this device's ('" +
                                           t_.spec.name + "')");
  Run r(t_, p, name, dram_, *srams_, options_.checkRaces);
  return r.go();
}

}  // namespace accelc::simulator
