// isa/builder.h — building a Program from typed instructions.
//
// The assembler, the random program generator, the tests and (later) the
// compiler's code generator all build programs through this class, so that
// encoding, segment order and the window are decided in one place.
#ifndef ACCELC_ISA_BUILDER_H_
#define ACCELC_ISA_BUILDER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/instruction.h"
#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::isa {

/// Collects symbols, micro-op tables and instructions, then encodes them.
class ProgramBuilder {
 public:
  explicit ProgramBuilder(const Target& t) : t_(t) {}

  /// Declares a tensor; a kConst symbol also gets a data segment of `data`.
  void symbol(Symbol s, std::vector<uint8_t> data = {});
  /// A micro-op table in DRAM at `addr`.
  void uops(const std::string& name, uint64_t addr, std::vector<Uop> uops);
  /// Where the instruction stream lives.
  void text(uint64_t addr) { textAddr_ = addr; }
  /// Appends an instruction; `loc` locates encoding errors (default: its pc).
  void add(const Instruction& insn, support::Location loc = {});
  /// Starts a label at the next instruction (closing any open one).
  void label(const std::string& name);
  /// Closes the open label.
  void endLabel();
  /// Sets the window size (default: everything rounded up to 4 KiB).
  void window(uint64_t bytes) { window_ = bytes; }
  size_t size() const { return insns_.size(); }
  /// Encodes everything and validates the result; `name` locates errors.
  support::Expected<Program> finish(const std::string& name);

 private:
  const Target& t_;                           ///< the target
  Program p_;                                 ///< symbols and data so far
  std::vector<std::pair<std::string, std::pair<uint64_t, std::vector<Uop>>>> uops_;  ///< name -> (addr, uops)
  std::vector<Instruction> insns_;            ///< the instruction stream
  std::vector<support::Location> locs_;       ///< per instruction
  std::optional<Label> open_;                 ///< label being collected
  uint64_t textAddr_ = 0;                     ///< text segment address
  std::optional<uint64_t> window_;            ///< explicit window
};

}  // namespace accelc::isa

#endif  // ACCELC_ISA_BUILDER_H_
