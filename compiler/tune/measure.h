// compiler/tune/measure.h — programs measured on the cycle model by a pool
// of processes.
//
// The cycle model elaborates once per process (SystemC), and a program that
// crashes it must not end the tuning: each worker is a process forked from
// this one, which makes its own model and measures the programs it takes
// from a shared counter, in order, until none is left or the deadline has
// passed, and sends back one line per program. Programs are data-independent
// in time, so DRAM is left as the model makes it (zeros).
#ifndef ACCELC_COMPILER_TUNE_MEASURE_H_
#define ACCELC_COMPILER_TUNE_MEASURE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::compiler::tune {

/// One program to measure, and the most cycles it may run (0: the model's own limit), so that a candidate
/// far slower than its estimate cannot hold the tuning past its budget.
struct MeasureJob {
  isa::Program program;
  uint64_t maxCycles = 0;
};

/// What one program gave.
struct Measurement {
  int64_t cycles = -1;  ///< -1: not measured (the deadline passed first) or failed
  std::string error;    ///< why it failed ("" when measured or not reached)
};

/// Measures `jobs`' programs on the cycle model for `t`, `processes` at a
/// time, earlier programs first; none but the first `always` starts after
/// `deadline`. A worker that dies (its program's measurement then says how)
/// is replaced while programs are left. `progress` hears the count measured
/// so far as results arrive. The caller must be single-threaded (the
/// workers are forked) and must not have elaborated the cycle model itself.
/// An error only when no worker could be started.
support::Expected<std::vector<Measurement>> measurePrograms(const std::vector<MeasureJob>& jobs, size_t always,
                                                            const isa::Target& t, int processes,
                                                            std::chrono::steady_clock::time_point deadline,
                                                            const std::function<void(size_t)>& progress);

}  // namespace accelc::compiler::tune

#endif  // ACCELC_COMPILER_TUNE_MEASURE_H_
