// bench/zoo_util.h — the model zoo for the benchmarks: its models, exported on
// first use into build/models/zoo by models/zoo/export_zoo.py (seeded random
// weights, the files the zoo tests use), and onnxruntime's time for them (one
// thread, through onnxruntime-node from tools/ort).
#ifndef ACCELC_BENCH_ZOO_UTIL_H_
#define ACCELC_BENCH_ZOO_UTIL_H_

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace accelc::bench {

inline const std::string kSrc = ACCELC_SOURCE_DIR, kZoo = std::string(ACCELC_BUILD_DIR) + "/models/zoo";

/// The path of the zoo model `name`, exporting it (and its input) when missing; "" on failure.
inline std::string zooModel(const std::string& name) {
  const std::string model = kZoo + "/" + name + ".onnx";
  struct stat st;
  if (::stat(model.c_str(), &st) == 0) return model;
  ::mkdir((std::string(ACCELC_BUILD_DIR) + "/models").c_str(), 0755);
  ::mkdir(kZoo.c_str(), 0755);
  const std::string cmd = "/usr/bin/python3 " + kSrc + "/models/zoo/export_zoo.py " + name + " " + model + " " + kZoo +
                          "/" + name + "_input.npy > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? model : "";
}

/// A node script that times `runs` inferences of `model` on onnxruntime (one
/// thread, after one warm-up run on zeros) and prints the seconds per inference.
inline std::string ortScript(const std::string& model, const std::vector<int64_t>& shape, int runs) {
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
inline double ortSecondsPerInference(const std::string& model, const std::vector<int64_t>& shape, int runs) {
  const std::string cmd =
      "NODE_PATH='" + kSrc + "/tools/ort/node_modules' node -e \"" + ortScript(model, shape, runs) + "\" 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  double seconds = -1;
  if (std::fscanf(p, "%lf", &seconds) != 1) seconds = -1;
  return ::pclose(p) == 0 ? seconds : -1;
}

}  // namespace accelc::bench

#endif  // ACCELC_BENCH_ZOO_UTIL_H_
