// bench/depthwise_bench.cc — the depthwise 3×3 layers of MobileNet-v2 on
// vta-default, measured on the SystemC cycle model in two forms: as built
// (group = c: one block-diagonal weight block per channel block, GroupForm)
// and as the dense convolution with zero weights across groups (denseOf).
// Per shape and form: the chosen schedule (searchConvSchedule, as the
// compiler does), measured cycles, cycles per output element, the layer's
// roofline bound and the bound as a percentage of the measured cycles
// (targets: >= 25% at stride 1, >= 40% at stride 2), and the cycles of the
// program's GEMM and ALU instructions beside the compute unit's busy cycles.
//
// A plain program rather than a Google Benchmark: every figure is a cycle
// count of one deterministic run.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "compiler/lower/conv.h"
#include "compiler/lower/random_layer.h"
#include "compiler/schedule/search.h"
#include "hwspec/hwspec.h"
#include "isa/encoding.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/timing/timing.h"

namespace accelc {
namespace {

using compiler::lower::ConvLayer;
using compiler::lower::ConvShape;

/// MobileNet-v2's depthwise 3×3 layers: channels, image side, stride.
struct Depthwise {
  int64_t c, hw, stride;
};
const Depthwise kShapes[] = {{32, 112, 1}, {96, 112, 2}, {144, 56, 1}, {144, 56, 2},
                             {192, 28, 1}, {384, 14, 1}, {576, 14, 2}, {960, 7, 1}};

/// The roofline bound of depthwise layer `l` (true depthwise MACs, convMacs):
/// max(MACs / peak MACs per cycle, compulsory bytes / DRAM bytes per cycle).
/// The compulsory bytes are the int8 input c·h·w, weights c·9 and output
/// c·oh·ow, and 12·c parameter bytes (an int32 bias, multiplier and shift per
/// channel); borders and padding are not counted.
double depthwiseRoofline(const ConvLayer& l, const hwspec::HwSpec& hw) {
  const int64_t c = l.x.c;
  const double bytes = static_cast<double>(c * l.x.h * l.x.w + c * l.kh * l.kw + c * l.oh * l.ow + 12 * c);
  const double macs = static_cast<double>(compiler::lower::convMacs(l));
  return std::max(macs / static_cast<double>(hw.peakMacsPerCycle()), bytes / static_cast<double>(hw.dramBytesPerCycle));
}

/// What one run of a layer measured.
struct Measured {
  std::string schedule;
  uint64_t cycles = 0, computeBusy = 0;
  int64_t gemm = 0, alu = 0;  ///< the program's GEMM and ALU instructions' cycles
};

/// Adds the cycles of `p`'s GEMM and ALU instructions (their timing formulas,
/// as lower::programCycles counts its datapath) to `m`.
support::Status addDatapathSplit(const isa::Program& p, const isa::Target& t, Measured& m) {
  const isa::Segment& text = p.text();
  const size_t ib = static_cast<size_t>(t.insnBytes());
  for (size_t pc = 0; pc * ib < text.bytes.size(); ++pc) {
    ACCELC_ASSIGN_OR_RETURN(isa::Instruction insn, isa::decodeInstruction(t, text.bytes.data() + pc * ib,
                                                                          support::Location::pc(text.name, pc)));
    const int64_t cycles = simulator::instructionCycles(insn, t.spec);
    if (insn.opcode == isa::Opcode::kGemm) m.gemm += cycles;
    if (insn.opcode == isa::Opcode::kAlu) m.alu += cycles;
  }
  return support::Status::ok();
}

/// `l` scheduled, lowered and run once on `sim` with input `x`.
support::Expected<Measured> runLayer(const ConvLayer& l, const isa::Target& t, simulator::CycleSim& sim,
                                     const runtime::Tensor& x) {
  ACCELC_ASSIGN_OR_RETURN(compiler::lower::ConvSchedule s, compiler::searchConvSchedule(l, t, false));
  ACCELC_ASSIGN_OR_RETURN(compiler::lower::LayerProgram lp, compiler::lower::convProgram(l, s, t, x, false));
  ACCELC_TRY(sim.loadProgram(lp.program));
  for (const auto& [addr, bytes] : lp.writes) ACCELC_TRY(sim.write(addr, bytes.data(), bytes.size()));
  ACCELC_ASSIGN_OR_RETURN(simulator::CycleStats cs, sim.run(lp.program, l.name + ".bin"));
  Measured m{compiler::lower::describe(s), cs.cycles, cs.busy[1]};
  ACCELC_TRY(addDatapathSplit(lp.program, t, m));
  return m;
}

/// Prints one row: shape, form and figures.
void printRow(const Depthwise& d, const char* form, const ConvLayer& l, double bound, const Measured& m) {
  const double outputs = static_cast<double>(l.m * l.oh * l.ow), cycles = static_cast<double>(m.cycles);
  std::printf("%5lld %4lldx%-4lld s%lld  %-6s %12llu %9.3f %12.0f %7.1f %6s %12lld %12lld %12llu  %s\n",
              static_cast<long long>(d.c), static_cast<long long>(d.hw), static_cast<long long>(d.hw),
              static_cast<long long>(d.stride), form, static_cast<unsigned long long>(m.cycles), cycles / outputs,
              bound, 100.0 * bound / cycles, d.stride == 1 ? ">=25" : ">=40", static_cast<long long>(m.gemm),
              static_cast<long long>(m.alu), static_cast<unsigned long long>(m.computeBusy), m.schedule.c_str());
  std::fflush(stdout);
}

/// Measures both forms of shape `d`; false when one failed (reported on stderr).
bool measureShape(const Depthwise& d, const isa::Target& t, simulator::CycleSim& sim, uint64_t seed) {
  const ConvShape shape{d.c, d.c, d.hw, d.hw, 3, d.stride, 1, d.c};
  const ConvLayer l = compiler::lower::randomConvLayer(t.spec, seed, shape);
  const runtime::Tensor x = compiler::lower::randomConvInput(l, t.spec, seed + 100);
  const double bound = depthwiseRoofline(l, t.spec);  // the depthwise work, for both forms
  bool ok = true;
  for (const bool dense : {false, true}) {
    const ConvLayer form = dense ? compiler::lower::denseOf(l) : l;
    auto m = runLayer(form, t, sim, x);
    if (!m) {
      std::cerr << "c=" << d.c << " " << d.hw << "x" << d.hw << " s" << d.stride << (dense ? " dense" : " block")
                << ": " << m.diag().str() << "\n";
      ok = false;
      continue;
    }
    printRow(d, dense ? "dense" : "block", form, bound, *m);
  }
  return ok;
}

/// The target of hwspec preset `name`.
support::Expected<isa::Target> presetTarget(const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(hwspec::HwSpec spec, hwspec::loadHwSpec(name));
  return isa::loadTarget(spec);
}

}  // namespace
}  // namespace accelc

int main() {
  using namespace accelc;
  auto t = presetTarget("vta-default");
  if (!t) return std::cerr << t.diag().str() << "\n", 1;
  auto sim = simulator::CycleSim::create(*t);  // one hwspec per process: one model for every layer
  if (!sim) return std::cerr << sim.diag().str() << "\n", 1;
  std::printf("depthwise 3x3, pad 1, on %s (%lld MACs/cycle, %lld DRAM bytes/cycle); cycle model\n",
              t->spec.name.c_str(), static_cast<long long>(t->spec.peakMacsPerCycle()),
              static_cast<long long>(t->spec.dramBytesPerCycle));
  std::printf("%5s %-11s %-6s %12s %9s %12s %7s %6s %12s %12s %12s  %s\n", "C", "image", "form", "cycles", "cyc/out",
              "roofline", "%roof", "target", "gemm", "alu", "compute busy", "schedule");
  bool ok = true;
  uint64_t seed = 1;
  for (const auto& d : kShapes) ok = measureShape(d, *t, **sim, seed++) && ok;
  std::printf(
      "%%roof: the depthwise layer's roofline bound as a percentage of the measured cycles (both forms "
      "against the same bound); gemm, alu: the cycles of the program's GEMM and ALU instructions; compute busy: the "
      "cycle "
      "model's compute unit\n");
  return ok ? 0 : 1;
}
