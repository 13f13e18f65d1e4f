// compiler/driver/pipeline_text.h — the text forms of the back end's passes'
// results: what `accelc compile --dump-after=NAME` prints and the golden
// tests hold. One line per item, in a fixed order.
#ifndef ACCELC_COMPILER_DRIVER_PIPELINE_TEXT_H_
#define ACCELC_COMPILER_DRIVER_PIPELINE_TEXT_H_

#include <string>

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// "border VALUE T,L,B,R" for every value with a border.
std::string bordersText(const Lowering& s);
/// "node NAME: WHY" for every node: where it runs and why.
std::string placementsText(const Lowering& s);
/// "step NAME: KIND ... (INPUTS) -> (OUTPUTS)" for every step, then the bundle's inputs and outputs.
std::string stepsText(const Lowering& s);
/// "slot NAME DTYPE SHAPE @ADDR BYTES [LAYOUT]" for every slot, then every constant and the DRAM used.
std::string dramPlanText(const Lowering& s);
/// The loop IR of every lowered kernel.
std::string kernelsText(const Lowering& s);
/// "program NAME: N instructions, M micro-op bytes, ..." for every program, then the window.
std::string programsText(const Lowering& s);
/// "layer NAME: WHERE, MACs, estimated cycles, DRAM bytes; WHY" for every layer.
std::string layersText(const Lowering& s);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_PIPELINE_TEXT_H_
