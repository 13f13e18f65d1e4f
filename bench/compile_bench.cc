// bench/compile_bench.cc — `accelc compile` of ResNet-18 (seeded random
// weights) for vta-default: import and passes, calibration per image,
// quantization, and lowering (partition, DRAM plan, schedules, codegen),
// timed separately; peak resident memory of the process at the end.
#include <benchmark/benchmark.h>

#include "bench/bench_util.h"
#include <sys/resource.h>

#include <string>

#include "compiler/driver/compile.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/passes/passes.h"
#include "compiler/quant/quantize.h"

namespace accelc {
namespace {

using bench::resnet18;

/// The float graph after import and the default passes.
compiler::Graph imported() {
  auto g = compiler::importOnnx(resnet18());
  if (g) (void)compiler::runPipeline(*g, compiler::defaultPipeline());
  return g ? *g : compiler::Graph{};
}

std::vector<runtime::Tensor> sample(const compiler::Graph& g, float v) {
  runtime::Tensor t(g.values[g.inputs[0]].dtype, g.values[g.inputs[0]].shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = v * static_cast<float>(i % 255) / 255.0f;
  return {t};
}

void BM_ImportAndPasses(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(imported());
}
BENCHMARK(BM_ImportAndPasses)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_CalibrationPerImage(benchmark::State& state) {
  compiler::Graph g = imported();
  for (auto _ : state) {
    compiler::Graph c = g;
    if (!compiler::calibrate(c, {sample(g, 1.0f)})) state.SkipWithError("calibration failed");
  }
}
BENCHMARK(BM_CalibrationPerImage)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_QuantizeAndLower(benchmark::State& state) {
  compiler::Graph g = imported();
  if (!compiler::calibrate(g, {sample(g, 1.0f)})) state.SkipWithError("calibration failed");
  auto target = isa::loadTarget(*hwspec::loadHwSpec("vta-default"));
  for (auto _ : state) {
    auto q = compiler::quantizeGraph(g);
    auto b = q ? compiler::compileIntegerGraph(*q, *target, false) : support::Expected<runtime::Bundle>(q.diag());
    if (!b) state.SkipWithError(b.diag().str().c_str());
    benchmark::DoNotOptimize(b);
  }
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  state.counters["peak_rss_MB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
}
BENCHMARK(BM_QuantizeAndLower)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace accelc

BENCHMARK_MAIN();
