// simulator/rtl/rtl_sim.cc — loading verilated models and running programs on them.
#include "simulator/rtl/rtl_sim.h"

#include <dlfcn.h>

#include "isa/control_regs.h"

namespace accelc::simulator {

namespace {

struct Embedded {
  const char* name;  ///< file name
  const char* text;  ///< its contents
};
const Embedded kHarness[] = {
#include "simulator/rtl/harness_source.inc"
};
const Embedded kAxiHarness[] = {
#include "simulator/rtl/axi_harness_source.inc"
};

template <size_t N>
std::vector<std::pair<std::string, std::string>> harnessFiles(const Embedded (&embedded)[N]) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Embedded& e : embedded) out.emplace_back(std::string("simulator/rtl/") + e.name, e.text);
  return out;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& rtlHarnessSources() {
  static const std::vector<std::pair<std::string, std::string>> files = harnessFiles(kHarness);
  return files;
}

const std::vector<std::pair<std::string, std::string>>& axiHarnessSources() {
  static const std::vector<std::pair<std::string, std::string>> files = harnessFiles(kAxiHarness);
  return files;
}

support::Expected<void*> loadModelFactory(const std::string& path, const char* symbol) {
  const support::Location at = support::Location::file(path);
  // RTLD_LOCAL: each library keeps its own Verilator runtime.
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) return support::error(at, std::string("cannot load the verilated model: ") + ::dlerror());
  void* factory = ::dlsym(lib, symbol);
  if (!factory) return support::error(at, std::string("the library has no ") + symbol);
  return factory;
}

support::Expected<std::unique_ptr<RtlModel>> loadRtlModel(const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(void* create, loadModelFactory(path, kRtlModelFactorySymbol));
  return std::unique_ptr<RtlModel>(reinterpret_cast<RtlModelFactory>(create)());
}

support::Expected<RtlResult> runOnRtl(RtlModel& model, const isa::Target& t, const isa::Program& p,
                                      std::vector<uint8_t>& dram, const RtlRunOptions& o, const std::string& name) {
  const support::Location at = support::Location::file(name);
  const uint64_t textAddr = p.text().addr, count = p.insnCount(t);
  if (textAddr + count * t.insnBytes() > dram.size())
    return support::error(at, "the program's text ends past its DRAM window");
  if (!model.traceNextRun(o.vcd.empty() ? nullptr : o.vcd.c_str()))
    return support::error(at, "this verilated model cannot write waveforms (it was verilated without --trace)");
  const RtlOutcome out = model.run(dram.data(), dram.size(), textAddr, count, o.cycleLimit);
  switch (out.kind) {
    case RtlOutcome::kStuck:
      return support::error(at, "the RTL did not reach FINISH within " + std::to_string(o.cycleLimit) + " cycles");
    case RtlOutcome::kOutOfWindow:
      return support::error(at, "a DMA beat of the RTL left the DRAM window at byte " + std::to_string(out.addr));
    case RtlOutcome::kCycleRegister:
      return support::error(at, "the RTL's cycle register read " + std::to_string(out.addr) +
                                    " when done rose in cycle " + std::to_string(out.cycles));
    case RtlOutcome::kIllegal:
      return support::error(
          support::Location::pc(name, out.addr),
          "illegal instruction: the RTL's fetch stopped at an opcode or buffer the ISA does not have");
    case RtlOutcome::kWindowFault:
      return support::error(at, isa::regs::statusText(isa::regs::kStatusWindow) + ", fetch at pc " +
                                    std::to_string(out.addr));
    case RtlOutcome::kAxiError:
      return support::error(at, isa::regs::statusText(isa::regs::kStatusAxiError) + ", fetch at pc " +
                                    std::to_string(out.addr));
    case RtlOutcome::kMisaligned:
      return support::error(at, isa::regs::statusText(isa::regs::kStatusMisaligned) + ", fetch at pc " +
                                    std::to_string(out.addr));
    case RtlOutcome::kProtocol:
      return support::error(at, "the IP broke the AXI protocol: a WLAST off its burst's last beat, a burst across a "
                                "4 KiB boundary, or a register access it never answered");
    case RtlOutcome::kDone:
      break;
  }
  return RtlResult{out.cycles, out.seconds};
}

}  // namespace accelc::simulator
