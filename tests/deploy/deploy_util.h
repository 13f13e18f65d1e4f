// tests/deploy/deploy_util.h — what the C API's tests share: the digits
// bundle, `accelc run`'s logits for it, shell commands and per-test files.
#ifndef ACCELC_TESTS_DEPLOY_DEPLOY_UTIL_H_
#define ACCELC_TESTS_DEPLOY_DEPLOY_UTIL_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "support/npy.h"
#include "tests/test_util.h"

namespace accelc::testing::deploy {

inline const std::string kSrc = ACCELC_SOURCE_DIR, kTmp = ACCELC_TEMP_DIR, kAccelc = ACCELC_BINARY;
inline const std::string kInput = kSrc + "/models/digits/input.npy";

struct Out {
  int rc;
  std::string text;
};

/// A file name of the running test's own: ctest runs each test in its own process, two at a time.
inline std::string own(const std::string& what) {
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& c : name) c = c == '/' ? '_' : c;  // a parameterized test's name
  return kTmp + "/deploy_" + name + "_" + what;
}

inline Out sh(const std::string& cmd) {
  const std::string log = own("log");
  const int rc = std::system((cmd + " > " + log + " 2>&1").c_str());
  return {WEXITSTATUS(rc), readFile(log)};
}

/// digits compiled for vta-default (once per process), and `accelc run --engine fsim`'s logits for input.npy.
struct Digits {
  std::string bundle = own("digits.acx"), outDir = own("ref");
  std::vector<uint8_t> logits;  ///< the float32 bytes accelc run wrote
};

inline const Digits& digits() {
  static const Digits d = [] {
    Digits x;
    Out c = sh(kAccelc + " compile " + kSrc + "/models/digits/digits_int8.onnx --hw vta-default -o " + x.bundle);
    EXPECT_EQ(c.rc, 0) << c.text;
    Out r = sh(kAccelc + " run " + x.bundle + " --engine fsim --input input=" + kInput + " --output " + x.outDir);
    EXPECT_EQ(r.rc, 0) << r.text;
    auto y = support::readNpy(x.outDir + "/logits.npy");
    EXPECT_TRUE(y.isOk());
    if (y) x.logits = y->data;
    return x;
  }();
  return d;
}

/// input.npy's float32 values.
inline std::vector<float> inputFloats() {
  auto a = support::readNpy(kInput);
  EXPECT_TRUE(a.isOk()) << a.diag().str();
  if (!a) return {};
  std::vector<float> v(a->data.size() / sizeof(float));
  std::memcpy(v.data(), a->data.data(), a->data.size());
  return v;
}

}  // namespace accelc::testing::deploy

#endif  // ACCELC_TESTS_DEPLOY_DEPLOY_UTIL_H_
