// compiler/lower/cost.h — estimated cycles of an encoded accelerator program.
//
// Applies the per-instruction formulas (simulator/timing/timing.h) to every
// instruction of a program: sums per unit (load, compute, store) and for the
// DRAM data channel and outstanding-request slots that all DMAs and
// instruction fetch share, and a replay of the program's token dependencies.
#ifndef ACCELC_COMPILER_LOWER_COST_H_
#define ACCELC_COMPILER_LOWER_COST_H_

#include <array>
#include <cstdint>

#include "isa/program.h"
#include "runtime/bundle.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::compiler::lower {

/// What a program keeps busy, in cycles.
struct ProgramCycles {
  std::array<int64_t, 3> units{};  ///< per unit (load, compute, store): its instructions alone on the port
  int64_t dramBeats = 0;           ///< the DRAM data channel: every DMA's and the text's beats
  int64_t dramSlots = 0;           ///< the port's outstanding slots: slot-cycles over `outstanding`
  int64_t startup = 0;             ///< until the first instruction can be dispatched
  int64_t dataflow = 0;            ///< the program replayed with the token rules, each instruction alone on the port
  int64_t datapath = 0;            ///< the compute unit's GEMM and ALU instructions
  int64_t contended = 0;           ///< the replay in the order instructions start, the DMAs sharing the data channel
};

/// The cycles of every instruction of `p`, per unit and on the DRAM channel.
support::Expected<ProgramCycles> programCycles(const isa::Program& p, const isa::Target& t);

/// A layer's datapath bound: its roofline bound or, when larger, the GEMM
/// and ALU cycles of its program (`p`), which the compute unit spends one
/// after the other.
support::Expected<int64_t> datapathBound(const runtime::LayerInfo& l, const isa::Program& p, const isa::Target& t);

/// A program's estimated time: its dataflow replay, or the DRAM port's busy
/// time when that is longer. Both ignore contention for the port, so the
/// estimate never exceeds the cycle model's count.
support::Expected<int64_t> estimateProgram(const isa::Program& p, const isa::Target& t);

/// estimateProgram and estimateContended of `c` (programCycles of a program
/// for `t`), for a caller that wants both from one replay of each kind.
int64_t aloneEstimate(const ProgramCycles& c, const isa::Target& t);
int64_t contendedEstimate(const ProgramCycles& c, const isa::Target& t);

/// The estimate with the DRAM data channel shared between the units' DMAs
/// (ProgramCycles::contended): closer to the cycle model's count where
/// loads and stores overlap, and no longer a lower bound of it.
support::Expected<int64_t> estimateContended(const isa::Program& p, const isa::Target& t);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_COST_H_
