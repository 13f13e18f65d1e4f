// simulator/functional/fsim.cc — fetch, command queues, token queues, units.
#include "simulator/functional/fsim.h"

#include <algorithm>
#include <deque>
#include <optional>

#include "isa/encoding.h"
#include "isa/semantics.h"
#include "isa/tokens.h"
#include "simulator/functional/datapath.h"
#include "simulator/functional/race.h"

namespace accelc::simulator {

using isa::Unit;
using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

/// One execution of one program.
class Run {
 public:
  Run(const isa::Target& t, const isa::Program& p, std::string name, isa::DramImage& dram, Srams& srams, bool races,
      const isa::RunLimits& limits)
      : t_(t),
        limits_(limits),
        nextProgress_(limits.progressStep),
        name_(std::move(name)),
        dram_(dram),
        dp_(t, dram, p.window, srams, c_),
        tokens_(static_cast<uint64_t>(t.spec.tokenDepth)) {
    textAddr_ = p.text().addr;
    count_ = p.text().bytes.size() / t.insnBytes();
    if (races)
      races_ = std::make_unique<RaceTracker>(t.spec.depth(hwspec::BufferKind::kInput),
                                             t.spec.depth(hwspec::BufferKind::kWeight),
                                             t.spec.depth(hwspec::BufferKind::kOutput), name_);
  }
  Expected<isa::Counters> go();

 private:
  Location at(uint64_t pc) const { return Location::pc(name_, pc); }
  Expected<bool> fetch();
  /// Whether `u` has an instruction whose tokens let it run now.
  bool ready(int u) const { return !cmd_[u].empty() && !tokens_.wait(insns_[cmd_[u].front()]); }
  Status step(int u);
  Status checkLimits(const isa::Instruction& insn, uint64_t pc);
  support::Diagnostic deadlock() const;

  const isa::Target& t_;            ///< hardware
  const isa::RunLimits& limits_;    ///< when to stop; progress
  uint64_t retired_ = 0, uops_ = 0; ///< instructions and micro-op applications so far
  uint64_t nextProgress_ = 0;       ///< uops + instructions at the next progress report
  std::string name_;                ///< program name for locations
  isa::DramImage& dram_;            ///< DRAM window
  isa::Counters c_;                 ///< counts
  Datapath dp_;                     ///< executes instructions
  std::unique_ptr<RaceTracker> races_;  ///< null when not checking
  uint64_t textAddr_ = 0, count_ = 0;   ///< the instruction stream
  uint64_t fetchPc_ = 0;            ///< next instruction to fetch
  bool fetchDone_ = false;          ///< FINISH fetched
  bool finished_ = false;           ///< FINISH executed
  std::vector<isa::Instruction> insns_;  ///< decoded, by pc
  std::deque<uint64_t> cmd_[isa::kNumUnits];  ///< command queues (pcs)
  isa::TokenMachine<VClock> tokens_;          ///< token queues (each token: the pusher's clock)
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
      if (std::string why = isa::flagError(insn); !why.empty()) return error(at(fetchPc_), why);
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

/// Checked before `insn` runs, so that one instruction with wide loops
/// cannot run past the limit.
Status Run::checkLimits(const isa::Instruction& insn, uint64_t pc) {
  const uint64_t apps = isa::uopApplications(insn);
  if (retired_ >= limits_.maxInsns) return isa::limitReached(name_, pc, "max-insns", limits_.maxInsns, "instructions");
  if (apps > limits_.maxUops - std::min(uops_, limits_.maxUops))
    return isa::limitReached(name_, pc, "max-uops", limits_.maxUops, "micro-op applications");
  ++retired_, uops_ += apps;
  if (limits_.progress && retired_ + uops_ >= nextProgress_) {
    limits_.progress({retired_, uops_, 0, fetchPc_});
    nextProgress_ = retired_ + uops_ + limits_.progressStep;
  }
  return Status::ok();
}

Status Run::step(int u) {
  const uint64_t pc = cmd_[u].front();
  const isa::Instruction& insn = insns_[pc];
  ACCELC_TRY(checkLimits(insn, pc));
  tokens_.pop(insn, [&](const VClock& vc) {
    for (int i = 0; i < isa::kNumUnits; ++i) vc_[u][i] = std::max(vc_[u][i], vc[i]);
  });
  ++vc_[u][u];
  if (races_) races_->begin(Unit(u), vc_[u], pc);
  ACCELC_TRY(dp_.execute(insn, pc, name_, races_.get()));
  if (races_ && races_->race()) return *races_->race();
  c_.tokens += static_cast<uint64_t>(tokens_.push(insn, vc_[u]));
  ++c_.insns[static_cast<int>(insn.opcode)];
  finished_ = finished_ || insn.opcode == isa::Opcode::kFinish;
  cmd_[u].pop_front();
  return Status::ok();
}

support::Diagnostic Run::deadlock() const {
  isa::StallView v;
  v.program = name_;
  for (int u = 0; u < isa::kNumUnits; ++u)
    if (!cmd_[u].empty()) v.units[u] = {&insns_[cmd_[u].front()], cmd_[u].front(), false};
  v.fetchPc = fetchPc_;
  v.finishFetched = fetchDone_;
  if (fetchPc_ < insns_.size()) v.fetchNext = &insns_[fetchPc_];
  return tokens_.deadlock(v);
}

Expected<isa::Counters> Run::go() {
  while (true) {
    ACCELC_ASSIGN_OR_RETURN(bool progress, fetch());
    for (int u = 0; u < isa::kNumUnits; ++u)
      while (ready(u)) {
        ACCELC_TRY(step(u));
        progress = true;
      }
    bool idle = cmd_[0].empty() && cmd_[1].empty() && cmd_[2].empty();
    if (finished_ && idle) break;
    if (!progress) return deadlock();
  }
  if (std::optional<std::string> left = tokens_.leftover()) return error(Location::pc(name_, fetchPc_ - 1), *left);
  return c_;
}

}  // namespace

FunctionalSim::FunctionalSim(const isa::Target& t, FsimOptions options)
    : t_(t),
      options_(options),
      dram_(static_cast<uint64_t>(t.spec.dramWindowBytes)),
      srams_(std::make_unique<Srams>(t.spec)) {
  if (options_.checkDefined) srams_->trackDefined();
}

FunctionalSim::~FunctionalSim() = default;

Expected<isa::Counters> FunctionalSim::run(const isa::Program& p, const std::string& name) {
  if (p.hash != t_.hash)
    return error(Location::file(name), "the program was built for another hwspec than this device's ('" +
                                           t_.spec.name + "')");
  Run r(t_, p, name, dram_, *srams_, options_.checkRaces, options_.limits);
  return r.go();
}

}  // namespace accelc::simulator
