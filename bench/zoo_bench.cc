// bench/zoo_bench.cc — time per inference (float32, batch 1) of the model zoo
// on the reference engine and, for comparison, on onnxruntime (one thread,
// through onnxruntime-node from tools/ort). The models are exported on first
// use into build/models/zoo by models/zoo/export_zoo.py (seeded random weights),
// the same files the zoo test uses.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "bench/zoo_util.h"
#include "support/npy.h"

namespace accelc {
namespace {

using namespace bench;  // NOLINT: the zoo helpers

const char* const kModels[] = {"mobilenet_v3_small", "deeplabv3_mobilenet", "vit_tiny", "unet_small",
                               "lstm_classifier"};

void BM_Reference(benchmark::State& state, const std::string& name) {
  const std::string model = zooModel(name);
  if (model.empty()) return state.SkipWithError("export failed");
  auto g = compiler::importOnnx(model);
  if (!g) return state.SkipWithError(g.diag().str().c_str());
  auto x = support::readNpy(kZoo + "/" + name + "_input.npy");
  if (!x) return state.SkipWithError(x.diag().str().c_str());
  std::vector<runtime::Tensor> in{runtime::Tensor(x->dtype, x->shape)};
  in[0].bytes() = x->data;
  for (auto _ : state) {
    auto out = compiler::runReference(*g, in);
    if (!out) return state.SkipWithError(out.diag().str().c_str());
    benchmark::DoNotOptimize(out);
  }
}

/// Manual time: each iteration starts node once and reports the mean of 10 inferences.
void BM_Onnxruntime(benchmark::State& state, const std::string& name) {
  const std::string model = zooModel(name);
  if (model.empty()) return state.SkipWithError("export failed");
  auto x = support::readNpy(kZoo + "/" + name + "_input.npy");
  if (!x) return state.SkipWithError(x.diag().str().c_str());
  for (auto _ : state) {
    const double s = ortSecondsPerInference(model, x->shape, 10);
    if (s < 0) return state.SkipWithError("onnxruntime did not run (node, tools/ort/node_modules?)");
    state.SetIterationTime(s);
  }
}

void registerAll() {
  for (const char* name : kModels) {
    benchmark::RegisterBenchmark(("BM_Reference/" + std::string(name)).c_str(), BM_Reference, name)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Onnxruntime/" + std::string(name)).c_str(), BM_Onnxruntime, name)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(3);
  }
}

}  // namespace
}  // namespace accelc

int main(int argc, char** argv) {
  accelc::registerAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
