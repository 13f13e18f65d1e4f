// isa/random_program.h — seeded random programs that are correct by construction.
//
// The generator writes programs in the shape a compiler emits: tiles that
// double-buffer the input, weight, accumulator and output buffers between
// the three units, with tokens load->compute (data ready), compute->load
// (buffer half free), compute->store (results ready), store->compute (output
// half free). Inside a tile it draws random 2-D DMA shapes, strides and
// paddings, micro-op tables, GEMM and ALU loops (every ALU op the hwspec has,
// immediate and vector operands, edge immediates) that respect the
// accumulator hazard rule. Every program it makes is well-formed, race-free
// and token-correct, so any diagnostic on one is a bug in an engine. The same
// seed gives the same program on every platform.
#ifndef ACCELC_ISA_RANDOM_PROGRAM_H_
#define ACCELC_ISA_RANDOM_PROGRAM_H_

#include <cstdint>

#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::isa {

/// Size knobs of the generator.
struct RandomProgramOptions {
  int minTiles = 1;   ///< tiles per program, at least
  int maxTiles = 6;   ///< and at most
};

/// A random program for `t` from `seed`.
support::Expected<Program> randomProgram(const Target& t, uint64_t seed, const RandomProgramOptions& o = {});

}  // namespace accelc::isa

#endif  // ACCELC_ISA_RANDOM_PROGRAM_H_
