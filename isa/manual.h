// isa/manual.h — the ISA manual generated from the resolved layout.
//
// `accelc isa --hw F` prints it; docs/isa-vta-default.md is its output for
// the vta-default preset, kept current by a test.
#ifndef ACCELC_ISA_MANUAL_H_
#define ACCELC_ISA_MANUAL_H_

#include <string>

#include "isa/target.h"

namespace accelc::isa {

/// The field layout of every format as Markdown, with bit diagrams.
std::string isaManualMarkdown(const Target& t);
/// One format's bit diagram, MSB first: `|hi..lo name|...|2..0 opcode|`.
std::string formatDiagram(const IsaLayout& isa, const FormatLayout& fl);
/// The same as JSON (formats, fields with lo/bits/signed/enum, opcodes, enums).
std::string isaManualJson(const Target& t);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_MANUAL_H_
