// tests/compiler/peer_util.h — running models on the reference engine and on onnxruntime.
#ifndef ACCELC_TESTS_COMPILER_PEER_UTIL_H_
#define ACCELC_TESTS_COMPILER_PEER_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <sys/stat.h>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "support/npy.h"
#include "tests/test_util.h"

namespace accelc::compiler::peer {

inline const std::string kSrc = testing::sourceDir(), kTmp = testing::tempDir();

inline int sh(const std::string& cmd) { return std::system((cmd + " > " + kTmp + "/peer.log 2>&1").c_str()); }

inline Tensor load(const std::string& path) {
  auto a = support::readNpy(path);
  EXPECT_TRUE(a.isOk()) << (a ? "" : a.diag().str());
  Tensor t(a->dtype, a->shape);
  t.bytes() = a->data;
  return t;
}

/// onnxruntime's output `name` for `model` on one input, one image at a time. A QDQ model runs as written
/// (tools/ort/run_ort.js --as-written): its operators' definitions, not kernels whose results depend on the CPU.
inline Tensor ort(const std::string& model, const std::string& input, const std::string& name, const std::string& tag) {
  const std::string out = kTmp + "/ort-" + tag;
  const int rc =
      sh("node " + kSrc + "/tools/ort/run_ort.js --as-written --batch-of 1 " + model + " " + out + " input=" + input);
  EXPECT_EQ(rc, 0) << testing::readFile(kTmp + "/peer.log");
  return load(out + "/" + name + ".npy");
}

inline Tensor ours(const std::string& model, const std::string& input) {
  auto g = importOnnx(model);
  EXPECT_TRUE(g.isOk()) << (g ? "" : g.diag().str());
  auto out = runReferenceBatched(*g, {load(input)});
  EXPECT_TRUE(out.isOk()) << (out ? "" : out.diag().str());
  return (*out)[0];
}

/// max |a - b| / max(1, |b|): absolute for small values, relative for large ones.
inline double worst(const Tensor& a, const Tensor& b) {
  EXPECT_EQ(a.shape(), b.shape());
  double w = 0;
  for (int64_t i = 0; i < std::min(a.numel(), b.numel()); ++i)
    w = std::max(w, std::abs(a.at(i) - b.at(i)) / std::max(1.0, std::abs(b.at(i))));
  return w;
}

inline int64_t argmax(const Tensor& t, int64_t row) {
  const int64_t n = t.dim(-1);
  int64_t best = 0;
  for (int64_t j = 1; j < n; ++j)
    if (t.at(row * n + j) > t.at(row * n + best)) best = j;
  return best;
}

}  // namespace accelc::compiler::peer

#endif  // ACCELC_TESTS_COMPILER_PEER_UTIL_H_
