// bench/rtl_bench.cc — the verilated RTL's speed beside the SystemC cycle
// model's, on the same programs: ResNet-18 compiled for a preset, its
// accelerator programs run in order (input data as the compiler laid it out,
// activations zero: the cycle count does not depend on the data) until a
// preset's budget of simulated cycles is spent. The DRAM window is widened to
// 64 MiB where a preset's is smaller (tiny), so that the network fits. Each program runs on both
// engines; a cycle count that differs stops the benchmark.
//
// The cycle model is elaborated once per process for one hwspec: run one
// preset per process (--benchmark_filter=Tiny, --benchmark_filter=VtaDefault).
//
// Counters: sim_cycles (simulated), rtl_cycles_per_s (the Verilator model's
// simulation alone), rtl_wall_cycles_per_s (the RTL device's whole run,
// which includes the cycle model's run of the program that the device makes
// first), cycle_model_cycles_per_s. The RTL is the preset's model linked in
// (simulator/rtl/builtin_models.h), or for a widened preset one that the
// runtime verilates into its cache (on the first run only).
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>

#include "bench/bench_util.h"
#include "runtime/sim_devices/make_device.h"
#include "runtime/sim_devices/rtl_device.h"
#include "simulator/rtl/builtin_models.h"

namespace accelc {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void runPreset(benchmark::State& state, const std::string& preset, uint64_t budget) {
  const bench::CompiledResNet18 c = bench::compileResNet18(preset, int64_t{64} << 20);
  if (c.bundle.steps.empty()) return state.SkipWithError(("ResNet-18 did not compile for " + preset).c_str());
  auto cyc = runtime::makeDevice(runtime::Engine::kCycle, *c.target);
  if (!cyc) return state.SkipWithError(cyc.diag().str().c_str());
  // The preset's model linked in; a preset widened for the network gets its own.
  auto model = simulator::builtinRtlModel(*c.target);
  auto rtl = model ? runtime::RtlDevice::create(*c.target, std::move(*model)) : runtime::RtlDevice::create(*c.target);
  if (!rtl) return state.SkipWithError(rtl.diag().str().c_str());
  uint64_t cycles = 0;
  double rtlSim = 0, rtlWall = 0, cycleWall = 0;
  for (auto _ : state) {
    cycles = 0, rtlSim = rtlWall = cycleWall = 0;
    for (const runtime::Step& s : c.bundle.steps) {
      if (s.kind != runtime::Step::Kind::kAccel || cycles >= budget) continue;
      const isa::Program& p = c.bundle.programs[static_cast<size_t>(s.program)];
      if (!(*cyc)->loadProgram(p) || !(*rtl)->loadProgram(p)) return state.SkipWithError("cannot load a program");
      auto t0 = std::chrono::steady_clock::now();
      auto expected = (*cyc)->run(p, "resnet18.acx");
      if (!expected) return state.SkipWithError("the cycle model failed");
      cycleWall += secondsSince(t0);
      t0 = std::chrono::steady_clock::now();
      auto r = (*rtl)->run(p, "resnet18.acx");
      if (!r) return state.SkipWithError(r.diag().str().c_str());
      rtlWall += secondsSince(t0);
      rtlSim += r->simSeconds.value_or(0);
      if (r->cycles != expected->cycles) return state.SkipWithError("the RTL's cycle count differs");
      cycles += r->cycles.value_or(0);
    }
  }
  state.counters["sim_cycles"] = static_cast<double>(cycles);
  state.counters["rtl_cycles_per_s"] = static_cast<double>(cycles) / rtlSim;
  state.counters["rtl_wall_cycles_per_s"] = static_cast<double>(cycles) / rtlWall;
  state.counters["cycle_model_cycles_per_s"] = static_cast<double>(cycles) / cycleWall;
}

void BM_RtlTiny(benchmark::State& state) { runPreset(state, "tiny", 20000000); }
BENCHMARK(BM_RtlTiny)->Unit(benchmark::kSecond)->Iterations(1);

void BM_RtlVtaDefault(benchmark::State& state) { runPreset(state, "vta-default", 20000000); }
BENCHMARK(BM_RtlVtaDefault)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace accelc

BENCHMARK_MAIN();
