// tests/fuzz/fuzz_onnx.cc — ONNX models: import (the importer's verifier
// runs first, then ONNX's shape inference, then ours).
#include "compiler/frontend/onnx_import.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  (void)compiler::importOnnxBytes(fuzz::text(data, size), "fuzz.onnx");
  return 0;
}
