// isa/random_target.h — seeded random accelerators that load.
//
// The differential campaign runs its programs and layers on the presets and
// on accelerators drawn here: GEMM cores of 1–2 rows and 2–16 lanes, buffers
// of 16 to 1024 entries, DRAM buses of 1–16 bytes with latencies of 1–80
// cycles, queues of 1–16 entries, either ISA description and word width, ALU
// op subsets and every timing parameter. The draws stay inside what the RTL
// implements (hls::rtlSupports: beats that divide an instruction and an
// accumulator row, a pipeline deep enough for the accumulator hazard), so every
// engine can run them. A draw that the hwspec or the ISA loader refuses
// (an ISA field too narrow for a buffer) is drawn again, so the result is
// always a valid target; the same seed gives the same target everywhere.
#ifndef ACCELC_ISA_RANDOM_TARGET_H_
#define ACCELC_ISA_RANDOM_TARGET_H_

#include <cstdint>
#include <string>

#include "isa/target.h"
#include "support/status.h"

namespace accelc::isa {

/// A random target and the hwspec YAML it was loaded from.
struct RandomTarget {
  Target target;
  std::string yaml;  ///< the hwspec text, to reproduce the target with `--hw`
  int redraws = 0;   ///< draws refused before this one
};

/// The random target of `seed`, named "random-SEED"; an error only when 1000
/// draws in a row are refused (a bug in the generator).
support::Expected<RandomTarget> randomTarget(uint64_t seed);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_RANDOM_TARGET_H_
