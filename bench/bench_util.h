// bench/bench_util.h — what the benchmarks share: the ResNet-18 model,
// exported on first use into the build tree by
// models/resnet18/export_resnet18.py (seeded random weights), and compiled
// for a preset (calibrated on one synthetic image).
#ifndef ACCELC_BENCH_BENCH_UTIL_H_
#define ACCELC_BENCH_BENCH_UTIL_H_

#include <sys/stat.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "compiler/driver/compile.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/passes/passes.h"
#include "compiler/quant/quantize.h"
#include "hwspec/hwspec.h"
#include "runtime/bundle.h"

namespace accelc::bench {

/// The path of the ResNet-18 ONNX model, exporting it when missing; "" on failure.
inline std::string resnet18() {
  const std::string dir = std::string(ACCELC_BUILD_DIR) + "/models", model = dir + "/resnet18.onnx";
  struct stat st;
  if (::stat(model.c_str(), &st) != 0) {
    ::mkdir(dir.c_str(), 0755);
    const std::string cmd = "/usr/bin/python3 " + std::string(ACCELC_SOURCE_DIR) +
                            "/models/resnet18/export_resnet18.py " + model + " > /dev/null";
    if (std::system(cmd.c_str()) != 0) return "";
  }
  return model;
}

/// ResNet-18 compiled for one preset, with the synthetic input it was calibrated on.
struct CompiledResNet18 {
  std::unique_ptr<isa::Target> target;  ///< the preset's target
  runtime::Bundle bundle;               ///< empty when compiling failed
  runtime::Tensor input;                ///< the synthetic image
};

/// ResNet-18 compiled for `preset`, its DRAM window widened to `minWindow`
/// bytes when smaller; an empty bundle on failure.
inline CompiledResNet18 compileResNet18(const std::string& preset, int64_t minWindow = 0) {
  CompiledResNet18 r;
  const std::string model = resnet18();
  if (model.empty()) return r;
  auto g = compiler::importOnnx(model);
  if (!g || !compiler::runPipeline(*g, compiler::defaultPipeline())) return r;
  r.input = runtime::Tensor(g->values[g->inputs[0]].dtype, g->values[g->inputs[0]].shape);
  for (int64_t i = 0; i < r.input.numel(); ++i) r.input.data<float>()[i] = static_cast<float>(i % 255) / 255.0f;
  if (!compiler::calibrate(*g, {{r.input}})) return r;
  auto q = compiler::quantizeGraph(*g);
  auto spec = hwspec::loadHwSpec(preset);
  if (!q || !spec) return r;
  while (spec->dramWindowBytes < minWindow) spec->dramWindowBytes *= 2, spec->dramAddrBits += 1;
  auto t = isa::loadTarget(*spec);
  if (!t) return r;
  r.target = std::make_unique<isa::Target>(*t);
  auto b = compiler::compileIntegerGraph(*q, *r.target, false);
  if (b) r.bundle = *b;
  return r;
}

}  // namespace accelc::bench

#endif  // ACCELC_BENCH_BENCH_UTIL_H_
