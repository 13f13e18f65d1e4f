// bench/zoo_bench.cc — time per inference (float32, batch 1) of the model zoo
// on the reference engine and, for comparison, on onnxruntime (one thread,
// through onnxruntime-node from tools/ort). The models are exported on first
// use into build/models/zoo by models/zoo/export_zoo.py (seeded random weights),
// the same files the zoo test uses.
#include <benchmark/benchmark.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "support/npy.h"

namespace accelc {
namespace {

const std::string kSrc = ACCELC_SOURCE_DIR, kZoo = std::string(ACCELC_BUILD_DIR) + "/models/zoo";
const char* const kModels[] = {"mobilenet_v3_small", "deeplabv3_mobilenet", "vit_tiny", "unet_small",
                               "lstm_classifier"};

/// The path of the zoo model `name`, exporting it (and its input) when missing; "" on failure.
std::string zooModel(const std::string& name) {
  const std::string model = kZoo + "/" + name + ".onnx";
  struct stat st;
  if (::stat(model.c_str(), &st) == 0) return model;
  ::mkdir((std::string(ACCELC_BUILD_DIR) + "/models").c_str(), 0755);
  ::mkdir(kZoo.c_str(), 0755);
  const std::string cmd = "/usr/bin/python3 " + kSrc + "/models/zoo/export_zoo.py " + name + " " + model + " " + kZoo +
                          "/" + name + "_input.npy > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? model : "";
}

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

/// A node script that times `runs` inferences of `model` on onnxruntime (one
/// thread, after one warm-up run on zeros) and prints the seconds per inference.
std::string ortScript(const std::string& model, const std::vector<int64_t>& shape, int runs) {
  std::string dims;
  int64_t n = 1;
  for (int64_t d : shape) dims += (dims.empty() ? "" : ",") + std::to_string(d), n *= d;
  const std::string r = std::to_string(runs),
                    session =
                        "await ort.InferenceSession.create('" + model + "',{intraOpNumThreads:1,interOpNumThreads:1})",
                    feeds =
                        "{input:new ort.Tensor('float32',new Float32Array(" + std::to_string(n) + "),[" + dims + "])}";
  return "const ort=require('onnxruntime-node');(async()=>{const s=" + session + ";const f=" + feeds +
         ";await s.run(f);const t=process.hrtime.bigint();for(let i=0;i<" + r +
         ";++i)await s.run(f);console.log(Number(process.hrtime.bigint()-t)/1e9/" + r + ");})()";
}

/// Seconds per inference on onnxruntime, or a negative number when it did not run.
double ortSecondsPerInference(const std::string& model, const std::vector<int64_t>& shape, int runs) {
  const std::string cmd =
      "NODE_PATH='" + kSrc + "/tools/ort/node_modules' node -e \"" + ortScript(model, shape, runs) + "\" 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  double seconds = -1;
  if (std::fscanf(p, "%lf", &seconds) != 1) seconds = -1;
  return ::pclose(p) == 0 ? seconds : -1;
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
