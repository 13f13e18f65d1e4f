// simulator/functional/datapath.h — what one instruction does to the state.
//
// The datapath executes LOAD, STORE, GEMM and ALU exactly as docs/isa.md
// specifies, on a DramImage and Srams it borrows. Before touching any state it
// checks the instruction once from its loop extents: legal buffer, non-empty
// loops, every SRAM index and DRAM byte in range. During GEMM/ALU it checks
// the accumulator hazard rule, and it reports every access to a shared buffer
// to a RaceTracker when given one. Every error is a located diagnostic
// (`program:pc N`); the state is unchanged when a check fails before execution.
#ifndef ACCELC_SIMULATOR_FUNCTIONAL_DATAPATH_H_
#define ACCELC_SIMULATOR_FUNCTIONAL_DATAPATH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "isa/counters.h"
#include "isa/instruction.h"
#include "isa/target.h"
#include "simulator/functional/race.h"
#include "simulator/functional/state.h"
#include "support/status.h"

namespace accelc::simulator {

/// Executes instructions on borrowed state.
class Datapath {
 public:
  /// DMA may touch only the first `windowBytes` of `dram` (the program's window).
  Datapath(const isa::Target& t, isa::DramImage& dram, uint64_t windowBytes, Srams& srams, isa::Counters& counters);

  /// Executes `insn` (any opcode but FINISH) at `pc` of program `name`.
  support::Status execute(const isa::Instruction& insn, uint64_t pc, const std::string& name, RaceTracker* races);

 private:
  support::Status load(const isa::MemInsn& m, RaceTracker* races);
  support::Status store(const isa::MemInsn& m, RaceTracker* races);
  support::Status gemm(const isa::GemmInsn& g, RaceTracker* races);
  support::Status alu(const isa::AluInsn& a, RaceTracker* races);
  /// Checks a 2-D DMA's DRAM extent against the window.
  support::Status checkDram(const isa::MemInsn& m, int64_t elemBytes);
  /// Writes one SRAM entry from DRAM bytes (nullptr = zero padding).
  void writeEntry(isa::Buffer b, int64_t idx, const uint8_t* src);
  /// Checks loop extents and the largest index of each operand.
  template <typename Insn>
  support::Status checkLoops(const Insn& insn, bool readsSrc, int64_t srcDepth, const char* srcName,
                             bool readsWgt);
  /// Records an accumulator access of micro-op application `app`; true when
  /// it breaks the hazard rule (the message is then in hazardMsg_).
  bool hazard(int64_t row, uint64_t app, bool write) {
    AccRowState& r = accRows_[row];
    const bool bad = r.serial == serial_ && app - r.app < static_cast<uint64_t>(t_.spec.timing.accHazard);
    if (bad) noteHazard(row, r.app, app);
    if (write) r = {serial_, app};
    return bad;
  }
  void noteHazard(int64_t row, uint64_t first, uint64_t second);
  /// Proves from the loop structure alone that a GEMM writes no row twice
  /// within the hazard distance; false means "scan every application".
  bool gemmHazardFree(const isa::GemmInsn& g) const;
  template <typename Insn, typename Fn>
  void forEachIndex(const Insn& g, uint32_t UopEntry::*field, int64_t out, int64_t in, Fn fn) const;
  /// --check-defined (Srams::tracksDefined): every entry a GEMM or ALU reads
  /// was written since reset; `acc`: it reads its destination rows, `src`:
  /// its source operands.
  template <typename Insn>
  support::Status checkDefinedReads(const Insn& g, const char* op, bool acc, bool src) const;
  /// Marks the accumulator and output rows a GEMM or ALU wrote.
  template <typename Insn>
  void markResults(const Insn& g);
  /// "OP reads BUF entry I, which nothing wrote since the device was reset".
  support::Diagnostic undefinedRead(const char* op, const char* buffer, int64_t idx) const;
  support::Diagnostic err(const std::string& msg) const;

  const isa::Target& t_;       ///< the target
  isa::DramImage& dram_;       ///< DRAM window
  uint64_t window_;            ///< bytes of it the program may touch
  Srams& s_;                   ///< on-chip buffers
  isa::Counters& c_;           ///< counts events
  uint64_t pc_ = 0;            ///< instruction being executed
  std::string name_;           ///< its program's name
  uint64_t serial_ = 0;        ///< GEMM/ALU instructions executed (hazard window id)
  struct AccRowState {
    uint64_t serial = 0;  ///< GEMM/ALU instruction of the last write
    uint64_t app = 0;     ///< its micro-op application index
  };
  std::vector<AccRowState> accRows_;  ///< per accumulator row
  std::string hazardMsg_;      ///< set when a hazard was found
};

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_FUNCTIONAL_DATAPATH_H_
