// bench/bench_util.h — what the benchmarks share: the ResNet-18 model,
// exported on first use into the build tree by
// models/resnet18/export_resnet18.py (seeded random weights).
#ifndef ACCELC_BENCH_BENCH_UTIL_H_
#define ACCELC_BENCH_BENCH_UTIL_H_

#include <sys/stat.h>

#include <cstdlib>
#include <string>

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

}  // namespace accelc::bench

#endif  // ACCELC_BENCH_BENCH_UTIL_H_
