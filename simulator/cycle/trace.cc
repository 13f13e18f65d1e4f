// simulator/cycle/trace.cc — trace-event JSON of cycle-model runs.
#include "simulator/cycle/trace.h"

#include <nlohmann/json.hpp>

namespace accelc::simulator {

std::string traceJson(const std::vector<TracedRun>& runs) {
  nlohmann::ordered_json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "accelerator"}}}});
  const char* const tracks[] = {"layers", "load", "compute", "store"};
  for (int tid = 0; tid < 4; ++tid)
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid}, {"args", {{"name", tracks[tid]}}}});
  for (const TracedRun& r : runs) {
    events.push_back({{"name", r.name}, {"ph", "X"}, {"pid", 1}, {"tid", 0}, {"ts", r.offset}, {"dur", r.cycles}});
    for (const TraceSlice& s : r.slices)
      events.push_back({{"name", isa::opcodeName(s.opcode)}, {"ph", "X"}, {"pid", 1}, {"tid", s.unit + 1},
                        {"ts", r.offset + s.start}, {"dur", s.end - s.start}, {"args", {{"pc", s.pc}, {"layer", r.name}}}});
  }
  return nlohmann::ordered_json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n";
}

}  // namespace accelc::simulator
