// isa/run_limits.h — bounds on one program run, the same for every engine.
//
// A legal program can run for as long as its loops say: a few instructions
// with the widest loop fields apply ~10^9 micro-ops. Every engine therefore
// stops a run at a limit and says which limit ended it and where:
// instructions retired and micro-op applications (every loop iteration
// counts; fsim and the HLS C-simulation), and cycles (the cycle model and
// the RTL). The defaults are far above any shipped model's largest program
// (ResNet-18's largest layer applies ~1.2 M micro-ops in ~1 M cycles on
// vta-default), and a caller may report progress on long runs.
#ifndef ACCELC_ISA_RUN_LIMITS_H_
#define ACCELC_ISA_RUN_LIMITS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "isa/instruction.h"
#include "support/diagnostic.h"

namespace accelc::isa {

/// Where a run is, as progress reports it.
struct RunProgress {
  uint64_t insns = 0;   ///< instructions retired so far
  uint64_t uops = 0;    ///< micro-op applications so far (fsim)
  uint64_t cycles = 0;  ///< cycles so far (cycle model)
  uint64_t pc = 0;      ///< the instruction fetch reads next
};

/// The limits of one program run.
struct RunLimits {
  uint64_t maxInsns = 100'000'000;     ///< --max-insns: instructions retired
  uint64_t maxUops = 4'000'000'000;    ///< --max-uops: micro-op applications, loop iterations included
  uint64_t maxCycles = 4'000'000'000;  ///< --max-cycles: cycles
  /// Called about every `progressStep` instructions plus micro-op
  /// applications (fsim) or cycles (cycle model) when set; the CLI prints it
  /// on long runs.
  std::function<void(const RunProgress&)> progress;
  uint64_t progressStep = uint64_t{1} << 24;  ///< how often progress is called
};

/// Micro-op applications of a GEMM or ALU instruction: both loop extents
/// times the micro-op range (0 for any other instruction).
uint64_t uopApplications(const Instruction& insn);

/// The error that ends a run at a limit: "PROGRAM:pc N: error: the run
/// reached --FLAG (LIMIT WHAT) ...".
support::Diagnostic limitReached(const std::string& program, uint64_t pc, const std::string& flag, uint64_t limit,
                                 const std::string& what);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_RUN_LIMITS_H_
