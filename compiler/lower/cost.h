// compiler/lower/cost.h — estimated cycles of an encoded accelerator program.
//
// Applies the per-instruction formulas (simulator/cycle/timing.h) to every
// instruction of a program and sums them per unit (load, compute, store); the
// estimate is the busiest unit's total, the bound that perfect overlap reaches.
#ifndef ACCELC_COMPILER_LOWER_COST_H_
#define ACCELC_COMPILER_LOWER_COST_H_

#include <array>
#include <cstdint>

#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::compiler::lower {

/// Cycles per unit (load, compute, store) of every instruction of `p`.
support::Expected<std::array<int64_t, 3>> unitCycles(const isa::Program& p, const isa::Target& t);

/// A program's estimated time: the busiest unit's cycles (perfect overlap), or
/// with `serialized` (every instruction waits for the one before) their sum.
support::Expected<int64_t> estimateProgram(const isa::Program& p, const isa::Target& t, bool serialized = false);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_COST_H_
