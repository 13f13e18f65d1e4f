// bench/cycle_bench.cc — ResNet-18 (seeded random weights, calibrated on one
// synthetic image) compiled for vta-default and run once per iteration on the
// functional simulator and on the SystemC cycle model: simulated cycles,
// simulated cycles per wall second, and the two engines' wall times.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "bench/bench_util.h"
#include "compiler/lower/cost.h"
#include "runtime/executor.h"
#include "runtime/sim_devices/make_device.h"

namespace accelc {
namespace {

/// ResNet-18 compiled for vta-default (once per process), or an empty bundle.
const bench::CompiledResNet18& resnet18() {
  static bench::CompiledResNet18 c = bench::compileResNet18("vta-default");
  return c;
}

void runOn(benchmark::State& state, runtime::Device& d) {
  const bench::CompiledResNet18& c = resnet18();
  auto e = runtime::Executor::create(c.bundle, d, "resnet18.acx");
  if (!e) return state.SkipWithError(e.diag().str().c_str());
  for (auto _ : state) {
    auto out = (*e)->run({c.input});
    if (!out) return state.SkipWithError(out.diag().str().c_str());
  }
  const uint64_t cycles = (*e)->stats().cycles.value_or(0) / static_cast<uint64_t>(state.iterations());
  if (cycles) {
    // The yardstick: the accelerator layers' summed roofline bound over their measured cycles.
    // Beside it the datapath bound: per layer the roofline or, when larger, its GEMM and ALU cycles.
    const runtime::Bundle& b = resnet18().bundle;
    int64_t bound = 0, datapath = 0;
    const std::vector<size_t> steps = runtime::layerSteps(b);
    for (size_t li = 0; li < b.layers.size(); ++li) {
      if (steps[li] >= b.steps.size() || b.steps[steps[li]].kind != runtime::Step::Kind::kAccel) continue;
      const runtime::Step& s = b.steps[steps[li]];
      bound += runtime::rooflineCycles(b.layers[li], resnet18().target->spec);
      auto dp = compiler::lower::datapathBound(b.layers[li], b.programs[static_cast<size_t>(s.program)], *resnet18().target);
      datapath += dp ? *dp : 0;
    }
    state.counters["roofline_cycles"] = static_cast<double>(bound);
    state.counters["pct_of_roofline"] = 100.0 * static_cast<double>(bound) / static_cast<double>(cycles);
    state.counters["pct_of_datapath_bound"] = 100.0 * static_cast<double>(datapath) / static_cast<double>(cycles);
    state.counters["sim_cycles"] = static_cast<double>(cycles);
    state.counters["sim_cycles_per_s"] =
        benchmark::Counter(static_cast<double>(*(*e)->stats().cycles), benchmark::Counter::kIsRate);
  }
}

void BM_ResNet18OnFsim(benchmark::State& state) {
  if (resnet18().bundle.steps.empty()) return state.SkipWithError("ResNet-18 did not compile");
  auto d = runtime::makeDevice(runtime::Engine::kFsim, *resnet18().target);
  if (!d) return state.SkipWithError(d.diag().str().c_str());
  runOn(state, **d);
}
BENCHMARK(BM_ResNet18OnFsim)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_ResNet18OnCycleModel(benchmark::State& state) {
  if (resnet18().bundle.steps.empty()) return state.SkipWithError("ResNet-18 did not compile");
  auto d = runtime::makeDevice(runtime::Engine::kCycle, *resnet18().target);
  if (!d) return state.SkipWithError(d.diag().str().c_str());
  runOn(state, **d);
}
BENCHMARK(BM_ResNet18OnCycleModel)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace accelc

BENCHMARK_MAIN();
