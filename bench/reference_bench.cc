// bench/reference_bench.cc — the reference engine on ResNet-18 (float32, batch 1)
// and on the digits CNN. ResNet-18 is exported on first use into the build
// tree by models/resnet18/export_resnet18.py (seeded random weights).
#include <benchmark/benchmark.h>

#include "bench/bench_util.h"

#include <string>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"

namespace accelc {
namespace {

using bench::resnet18;

void runModel(benchmark::State& state, const std::string& model) {
  auto g = compiler::importOnnx(model);
  if (!g) {
    state.SkipWithError(g.diag().str().c_str());
    return;
  }
  std::vector<runtime::Tensor> in;
  for (int id : g->inputs) in.emplace_back(g->values[id].dtype, g->values[id].shape);
  for (auto _ : state) {
    auto out = compiler::runReference(*g, in);
    if (!out) state.SkipWithError(out.diag().str().c_str());
    benchmark::DoNotOptimize(out);
  }
}

void BM_ReferenceResNet18(benchmark::State& state) { runModel(state, resnet18()); }
BENCHMARK(BM_ReferenceResNet18)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_ReferenceDigits(benchmark::State& state) {
  runModel(state, std::string(ACCELC_SOURCE_DIR) + "/models/digits/digits_fp32.onnx");
}
BENCHMARK(BM_ReferenceDigits)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace accelc

BENCHMARK_MAIN();
