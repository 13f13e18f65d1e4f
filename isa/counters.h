// isa/counters.h — the architectural events of a program run, counted: the
// same on every engine that counts them (the functional simulator and the
// cycle model), and what a board's performance counters report.
#ifndef ACCELC_ISA_COUNTERS_H_
#define ACCELC_ISA_COUNTERS_H_

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hwspec/hwspec.h"
#include "isa/instruction.h"

namespace accelc::isa {

/// Event counts of one program run (identical on every engine).
struct Counters {
  std::array<uint64_t, kNumOpcodes> insns{};                   ///< instructions retired per opcode
  uint64_t dramReadBytes = 0;                                  ///< DRAM bytes read (fetch, LOAD)
  uint64_t dramWriteBytes = 0;                                 ///< DRAM bytes written (STORE)
  uint64_t fetchBytes = 0;                                     ///< of which instruction fetch
  std::array<uint64_t, hwspec::kNumBuffers> sramReadBytes{};   ///< per on-chip buffer
  std::array<uint64_t, hwspec::kNumBuffers> sramWriteBytes{};  ///< per on-chip buffer
  uint64_t macs = 0;                                           ///< multiply-accumulates done by GEMM
  uint64_t gemmUops = 0;                                       ///< GEMM micro-op applications
  uint64_t aluUops = 0;                                        ///< ALU micro-op applications
  uint64_t tokens = 0;                                         ///< dependency tokens pushed

  Counters& operator+=(const Counters& o);
  bool operator==(const Counters& o) const;
  /// (name, value) rows in a fixed order, as the table and JSON print them.
  std::vector<std::pair<std::string, uint64_t>> rows() const;
};

}  // namespace accelc::isa

#endif  // ACCELC_ISA_COUNTERS_H_
