// simulator/functional/race.cc — race reports.
#include "simulator/functional/race.h"

namespace accelc::simulator {

RaceTracker::RaceTracker(int64_t inpDepth, int64_t wgtDepth, int64_t outDepth, std::string program)
    : program_(std::move(program)) {
  entries_[0].resize(inpDepth);
  entries_[1].resize(wgtDepth);
  entries_[2].resize(outDepth);
}

void RaceTracker::report(Shared b, int64_t i, uint64_t otherPc, const char* otherDoes, const char* thisDoes) {
  if (race_) return;
  static const char* const kNames[] = {"inp", "wgt", "out"};
  std::string entry = std::string(kNames[static_cast<int>(b)]) + "[" + std::to_string(i) + "]";
  race_ = support::error(support::Location::pc(program_, pc_),
                         std::string("race on ") + entry + ": this instruction (" + isa::unitName(unit_) + " unit) " +
                             thisDoes + " it, but no dependency token orders it after pc " + std::to_string(otherPc) +
                             ", which " + otherDoes + " it");
  race_->note(support::Location::pc(program_, otherPc), "the other access");
}

}  // namespace accelc::simulator
