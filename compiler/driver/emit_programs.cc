// compiler/driver/emit_programs.cc — the `emit` pass.
//
//   before: lowered kernels with their micro-ops and text placed
//   after:  program model.onnx:c1/Conv  41 instructions, 18 micro-ops, text at 0x5c000, window 405504 bytes
#include "compiler/driver/emit_programs.h"

#include "isa/builder.h"

namespace accelc::compiler {

support::Status emitPrograms(Lowering& s) {
  runtime::Bundle& b = s.bundle;
  b.window = (s.cursor + 4095) / 4096 * 4096;
  if (b.window > static_cast<uint64_t>(s.hw.dramWindowBytes))
    return support::error(support::Location::file(s.g.model), "the model needs " + std::to_string(b.window) +
                                                                  " bytes of DRAM but dram.window is " +
                                                                  std::to_string(s.hw.dramWindowBytes));
  if (s.windowLimit > 0 && b.window > static_cast<uint64_t>(s.windowLimit))
    return support::error(support::Location::file(s.g.model), "the model needs " + std::to_string(b.window) +
                                                                  " bytes of DRAM but --window allows " +
                                                                  std::to_string(s.windowLimit));
  for (PendingProgram& p : s.pending) {
    isa::ProgramBuilder pb(s.t);
    ACCELC_TRY(lower::emitKernel(p.kernel, s.t, p.at, s.serialize, pb));
    pb.window(b.window);
    ACCELC_ASSIGN_OR_RETURN(isa::Program prog, pb.finish(s.g.model + ":" + p.name));
    b.programs.push_back(std::move(prog));
  }
  return support::Status::ok();
}

}  // namespace accelc::compiler
