// runtime/include/accelc_runtime.hpp — the deploy runtime's C++ API: owning
// handles over the C API (accelc_runtime.h), header only. Every call returns
// a Result, a status with its message; nothing throws.
//
//   accelc::deploy::Bundle b;
//   if (auto r = b.open("model.acx"); !r) std::cerr << r.message << "\n";
//   accelc::deploy::Session s;
//   s.create(b, "fsim");
//   s.setInput(0, pixels);            // std::vector<float> of the input's size
//   s.run();
//   std::vector<float> logits;
//   s.output(0, logits);
#ifndef ACCELC_RUNTIME_HPP_
#define ACCELC_RUNTIME_HPP_

#include <string>
#include <utility>
#include <vector>

#include "accelc_runtime.h"

namespace accelc::deploy {

/// A call's status and, when it failed, why.
struct Result {
  accelc_status status = ACCELC_OK;
  std::string message;
  explicit operator bool() const { return status == ACCELC_OK; }
};

inline Result result(accelc_status s) { return {s, s == ACCELC_OK ? std::string() : std::string(accelc_last_error())}; }

class Bundle {
 public:
  Bundle() = default;
  Bundle(const Bundle&) = delete;
  Bundle& operator=(const Bundle&) = delete;
  ~Bundle() { accelc_bundle_close(b_); }
  Result open(const std::string& path) {
    accelc_bundle_close(b_);
    b_ = nullptr;
    return result(accelc_bundle_open(path.c_str(), &b_));
  }
  int inputs() const { return accelc_bundle_input_count(b_); }
  int outputs() const { return accelc_bundle_output_count(b_); }
  Result input(int i, accelc_tensor_info& out) const { return result(accelc_bundle_input(b_, i, &out)); }
  Result output(int i, accelc_tensor_info& out) const { return result(accelc_bundle_output(b_, i, &out)); }
  int inputIndex(const std::string& name) const { return accelc_bundle_input_index(b_, name.c_str()); }
  int outputIndex(const std::string& name) const { return accelc_bundle_output_index(b_, name.c_str()); }
  const accelc_bundle* get() const { return b_; }

 private:
  accelc_bundle* b_ = nullptr;
};

class Session {
 public:
  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() { accelc_session_destroy(s_); }
  /// A session of `b` (which must outlive it) on `device`; `threads` 0: one per core.
  Result create(const Bundle& b, const std::string& device, int threads = 0) {
    accelc_session_destroy(s_);
    s_ = nullptr, b_ = b.get();
    const accelc_session_options o{threads};
    return result(accelc_session_create(b.get(), device.c_str(), &o, &s_));
  }
  Result setInput(int i, const std::vector<float>& data) {
    return result(accelc_session_set_input(s_, i, data.data(), data.size() * sizeof(float)));
  }
  Result run() { return result(accelc_session_run(s_)); }
  /// Output `i` of the last run, resized to its element count.
  Result output(int i, std::vector<float>& out) const {
    accelc_tensor_info t;
    if (accelc_status st = accelc_bundle_output(b_, i, &t); st != ACCELC_OK) return result(st);
    out.resize(t.bytes / sizeof(float));
    return result(accelc_session_get_output(s_, i, out.data(), t.bytes));
  }
  /// The last run's steps, in bundle order.
  std::vector<accelc_step_timing> steps() const {
    std::vector<accelc_step_timing> v(static_cast<size_t>(accelc_session_step_count(s_)));
    for (size_t i = 0; i < v.size(); ++i) accelc_session_step(s_, static_cast<int>(i), &v[i]);
    return v;
  }
  uint64_t cycles() const { return accelc_session_cycles(s_); }

 private:
  accelc_session* s_ = nullptr;
  const accelc_bundle* b_ = nullptr;  ///< the session's bundle, for its outputs' sizes
};

}  // namespace accelc::deploy

#endif  // ACCELC_RUNTIME_HPP_
