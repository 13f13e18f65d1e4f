// isa/assembler.h — the text assembly format (docs/isa.md, "Assembly").
//
//   ; comment                      .hw vta-default        .window 1MiB
//   .input x 0x0 int8 1x16         .output y 0x40 int8 1x16
//   .const w 0x100 int8 16x16      .byte 01 ff 7f ...     (exactly the symbol's bytes)
//   .uops gemm_uops 0x800          uop 0 0 0              (dst src wgt)
//   .text 0x1000                   .label fc1 ... .endlabel
//   LOAD buffer=wgt sram_base=0 dram_base=@w y_size=1 x_size=1 x_stride=1 push_next
//
// An instruction is its opcode then `field=value` pairs (any order; omitted
// fields are 0) and bare names for 1-bit flags. `@sym[+N]` is the address of a
// symbol or micro-op table in DRAM elements of the instruction's buffer.
#ifndef ACCELC_ISA_ASSEMBLER_H_
#define ACCELC_ISA_ASSEMBLER_H_

#include <optional>
#include <string>

#include "isa/program.h"
#include "isa/target.h"
#include "support/status.h"

namespace accelc::isa {

/// Assembles `text` (named `path` in errors). The target is `target` when
/// given (and must match a `.hw` line), else the `.hw` line's hwspec, a file
/// relative to `path` or a bundled preset.
support::Expected<Program> assemble(const std::string& text, const std::string& path,
                                    const std::optional<Target>& target);
/// Reads and assembles a file.
support::Expected<Program> assembleFile(const std::string& path, const std::optional<Target>& target);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_ASSEMBLER_H_
