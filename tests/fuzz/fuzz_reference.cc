// tests/fuzz/fuzz_reference.cc — ONNX models imported, then run on the
// reference engine with zero inputs, so that mutated attributes, shapes and
// constants reach every reference kernel the graph uses. Inputs and results
// are bounded by a small memory budget, so every run takes milliseconds.
#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  static const bool kBudget = (support::setMemoryBudget(16u << 20), true);
  (void)kBudget;
  auto g = compiler::importOnnxBytes(fuzz::text(data, size), "fuzz.onnx");
  if (!g) return 0;
  std::vector<runtime::Tensor> inputs;
  for (int id : g->inputs) {
    const compiler::Value& v = g->values[id];
    if (!support::checkTensorAllocation(v.dtype, v.shape, "input", support::Location()).isOk()) return 0;
    inputs.emplace_back(v.dtype, v.shape);
  }
  (void)compiler::runReference(*g, inputs);
  return 0;
}
