// simulator/cycle/trace.h — cycle-model runs as a Chrome/Perfetto trace.
//
// Trace-event JSON (the format chrome://tracing and ui.perfetto.dev open):
// one process, a "layers" track with one slice per run (a layer) and one
// track per unit with one slice per instruction. Timestamps are cycles,
// written as microseconds (1 µs in the viewer = 1 cycle).
#ifndef ACCELC_SIMULATOR_CYCLE_TRACE_H_
#define ACCELC_SIMULATOR_CYCLE_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "simulator/cycle/cycle_sim.h"

namespace accelc::simulator {

/// One run placed on the trace's time line.
struct TracedRun {
  std::string name;       ///< layer or program name
  uint64_t offset = 0;    ///< cycle the run starts at on the time line
  uint64_t cycles = 0;    ///< its length
  std::vector<TraceSlice> slices;  ///< its instructions
};

/// The trace-event JSON of `runs`.
std::string traceJson(const std::vector<TracedRun>& runs);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_CYCLE_TRACE_H_
