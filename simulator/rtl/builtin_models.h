// simulator/rtl/builtin_models.h — the verilated accelerators of the test
// presets and the test benches of their parts, linked into the program
// (target accelc_rtl_builtin): the build verilates each with its own prefix,
// so that they live side by side.
#ifndef ACCELC_SIMULATOR_RTL_BUILTIN_MODELS_H_
#define ACCELC_SIMULATOR_RTL_BUILTIN_MODELS_H_

#include <memory>
#include <string>

#include "isa/target.h"
#include "simulator/rtl/axi_model.h"
#include "simulator/rtl/rtl_model.h"
#include "support/status.h"

namespace accelc::simulator {

/// A fresh model of target `t`, which must be a linked preset unchanged (its
/// name and hash); an error otherwise.
support::Expected<std::unique_ptr<RtlModel>> builtinRtlModel(const isa::Target& t);

/// A fresh verilated Zynq IP (accelc_axi) of target `t`, which must be a
/// linked preset unchanged (tiny, vta-default); an error otherwise.
support::Expected<std::unique_ptr<AxiModel>> builtinAxiModel(const isa::Target& t);

/// The test bench `bench` (dram_port, mem_decode, dma_alone) verilated for
/// preset `preset`; an error when none is linked in.
support::Expected<RtlTestBench> builtinRtlTestBench(const std::string& bench, const std::string& preset);

}  // namespace accelc::simulator

#endif  // ACCELC_SIMULATOR_RTL_BUILTIN_MODELS_H_
