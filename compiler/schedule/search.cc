// compiler/schedule/search.cc — ranked schedules, replayed.
#include "compiler/schedule/search.h"

#include <algorithm>
#include <optional>

#include "compiler/lower/codegen.h"
#include "compiler/lower/cost.h"
#include "isa/builder.h"

namespace accelc::compiler {

support::Expected<lower::ConvSchedule> searchConvSchedule(const lower::ConvLayer& l, const isa::Target& t,
                                                          bool serialize) {
  ACCELC_ASSIGN_OR_RETURN(std::vector<lower::ConvSchedule> ranked, lower::rankSchedules(l, t.spec));
  std::optional<lower::ConvSchedule> best;
  int64_t bestCycles = 0;
  const size_t replayed = std::min(kReplayedSchedules, ranked.size());
  for (size_t c = 0; c < replayed; ++c) {
    // The ALU passes in loops when the ISA's loop fields hold the tile, else one micro-op per pixel; a chunk's
    // rows in one DMA when its fields hold them, else one DMA a row.
    for (int form = 0; form < 4; ++form) {
      ranked[c].aluLoops = form % 2 == 0, ranked[c].rowLoads = form >= 2;
      isa::ProgramBuilder trial(t);
      const lower::Kernel k = lower::lowerConv(l, ranked[c], t.spec, lower::ConvAddrs{0, 0, 0, 0});
      if (!lower::emitKernel(k, t, {0, 0}, serialize, trial)) continue;
      trial.text(isa::textStart(t, k.uops.size() * t.uopBytes()));
      auto program = trial.finish(l.name);
      if (!program) continue;
      auto cycles = lower::estimateProgram(*program, t);
      if (cycles && (!best || *cycles < bestCycles)) best = ranked[c], bestCycles = *cycles;
      break;
    }
  }
  if (!best) best = ranked.front();  // none encodes: the caller's encoding check reports why
  best->why = std::to_string(ranked.size()) + " legal tilings; chose " + lower::describe(*best) +
              ", the lowest replayed estimate of the " + std::to_string(replayed) + " the tiling formulas rank best (" +
              std::to_string(best->cycles) + " by the formulas)";
  return *best;
}

}  // namespace accelc::compiler
