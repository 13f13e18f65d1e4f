// tests/runtime/kernel_test_util.h — running one reference kernel in a test.
#ifndef ACCELC_TESTS_RUNTIME_KERNEL_TEST_UTIL_H_
#define ACCELC_TESTS_RUNTIME_KERNEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "runtime/ops.h"

namespace accelc::runtime {

/// Runs one op; returns its first output or the diagnostic text.
inline std::variant<Tensor, std::string> run(OpKind k, Attrs a, std::vector<Tensor> in, int outputs = 1) {
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : in) ptrs.push_back(&t);
  std::vector<Tensor> out(outputs);
  support::Status s = runOp(k, a, ptrs, out, support::Location::node("m.onnx", "n"));
  if (!s) return s.str();
  return out[0];
}

template <typename T>
inline std::vector<T> values(const std::variant<Tensor, std::string>& r) {
  if (r.index() == 1) {
    ADD_FAILURE() << std::get<1>(r);
    return {};
  }
  const Tensor& t = std::get<0>(r);
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

/// Runs one op; returns all its outputs or the diagnostic text.
inline std::variant<std::vector<Tensor>, std::string> runAll(OpKind k, Attrs a, std::vector<Tensor> in, int outputs) {
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : in) ptrs.push_back(&t);
  std::vector<Tensor> out(outputs);
  support::Status s = runOp(k, a, ptrs, out, support::Location::node("m.onnx", "n"));
  if (!s) return s.str();
  return out;
}

/// The diagnostic of a run that must fail ("" and a test failure when it passed).
inline std::string failure(const std::variant<Tensor, std::string>& r) {
  if (r.index() == 0) ADD_FAILURE() << "expected an error";
  return r.index() == 1 ? std::get<1>(r) : "";
}

}  // namespace accelc::runtime

#endif  // ACCELC_TESTS_RUNTIME_KERNEL_TEST_UTIL_H_
