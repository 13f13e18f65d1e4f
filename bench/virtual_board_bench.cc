// bench/virtual_board_bench.cc — what the board driver and the virtual board
// cost per run, against the RTL device (--engine rtl) on the same programs.
//
// BM_PerRun: a program of one FINISH, run 200 times on each device: the
// fixed cost of a run (the driver's register sequence over the socket, the
// pool's flush, the polls; the RTL device's cycle-model pass and reset).
// BM_ResNet18: vta-default's ResNet-18 programs in order (DRAM window 64
// MiB, in kv260's 256 MiB pool) until 20 M simulated cycles are spent; a
// cycle count that differs stops the benchmark.
//
// Counters: rtl_ms and virtual_ms per run (BM_PerRun), rtl_s, rtl_sim_s
// (the Verilator model alone) and virtual_s (BM_ResNet18).
#include <benchmark/benchmark.h>

#include <chrono>

#include "bench/bench_util.h"
#include "isa/builder.h"
#include "runtime/deploy_device.h"
#include "runtime/sim_devices/rtl_device.h"
#include "simulator/rtl/builtin_models.h"

namespace accelc {
namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void BM_PerRun(benchmark::State& state) {
  auto spec = hwspec::loadHwSpec("vta-default");
  auto t = spec ? isa::loadTarget(*spec) : support::Expected<isa::Target>(spec.diag());
  if (!t) return state.SkipWithError(t.diag().str().c_str());
  isa::ProgramBuilder b(*t);
  b.text(0);
  b.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p = b.finish("finish.bin");
  if (!p) return state.SkipWithError(p.diag().str().c_str());
  auto model = simulator::builtinRtlModel(*t);
  auto rtl = model ? runtime::RtlDevice::create(*t, std::move(*model)) : runtime::RtlDevice::create(*t);
  auto vb = runtime::makeDeployDevice("virtual:kv260", *t, {}, p->window);
  if (!rtl || !vb) return state.SkipWithError("no device");
  constexpr int kRuns = 200;
  double rtlS = 0, vbS = 0;
  for (auto _ : state) {
    if (!(*rtl)->loadProgram(*p) || !(*vb)->loadProgram(*p)) return state.SkipWithError("cannot load");
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kRuns; ++i)
      if (!(*rtl)->run(*p, "finish.bin")) return state.SkipWithError("rtl run failed");
    rtlS = since(t0);
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kRuns; ++i)
      if (!(*vb)->run(*p, "finish.bin")) return state.SkipWithError("virtual run failed");
    vbS = since(t0);
  }
  state.counters["rtl_ms"] = 1e3 * rtlS / kRuns;
  state.counters["virtual_ms"] = 1e3 * vbS / kRuns;
}
BENCHMARK(BM_PerRun)->Unit(benchmark::kSecond)->Iterations(1);

void BM_ResNet18(benchmark::State& state) {
  const bench::CompiledResNet18 c = bench::compileResNet18("vta-default", int64_t{64} << 20);
  if (c.bundle.steps.empty()) return state.SkipWithError("ResNet-18 did not compile");
  auto model = simulator::builtinRtlModel(*c.target);
  auto rtl = model ? runtime::RtlDevice::create(*c.target, std::move(*model)) : runtime::RtlDevice::create(*c.target);
  auto vb = runtime::makeDeployDevice("virtual:kv260", *c.target, {}, c.bundle.window);
  if (!rtl) return state.SkipWithError(rtl.diag().str().c_str());
  if (!vb) return state.SkipWithError(vb.diag().str().c_str());
  double rtlS = 0, rtlSim = 0, vbS = 0;
  uint64_t cycles = 0;
  for (auto _ : state) {
    for (const runtime::Step& s : c.bundle.steps) {
      if (s.kind != runtime::Step::Kind::kAccel || cycles >= 20000000) continue;
      const isa::Program& p = c.bundle.programs[static_cast<size_t>(s.program)];
      if (!(*rtl)->loadProgram(p) || !(*vb)->loadProgram(p)) return state.SkipWithError("cannot load a program");
      auto t0 = std::chrono::steady_clock::now();
      auto r = (*rtl)->run(p, "resnet18.acx");
      rtlS += since(t0);
      t0 = std::chrono::steady_clock::now();
      auto v = (*vb)->run(p, "resnet18.acx");
      vbS += since(t0);
      if (!r || !v) return state.SkipWithError("a run failed");
      if (r->cycles != v->cycles) return state.SkipWithError("the virtual board's cycle count differs");
      rtlSim += r->simSeconds.value_or(0);
      cycles += r->cycles.value_or(0);
    }
  }
  state.counters["sim_cycles"] = static_cast<double>(cycles);
  state.counters["rtl_s"] = rtlS;
  state.counters["rtl_sim_s"] = rtlSim;
  state.counters["virtual_s"] = vbS;
}
BENCHMARK(BM_ResNet18)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace accelc
BENCHMARK_MAIN();
