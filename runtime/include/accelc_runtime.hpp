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

#include <cstdint>
#include <string>
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
  /// Opens `path`; a Bundle opens one file in its life (sessions keep pointing at it).
  Result open(const std::string& path) {
    if (b_) return {ACCELC_ERROR_STATE, "this Bundle is open already: open another Bundle"};
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
    accelc_session_options o{};
    o.api_version = ACCELC_RUNTIME_API_VERSION, o.threads = threads;
    return result(accelc_session_create(b.get(), device.c_str(), &o, &s_));
  }
  /// Input `i` from `bytes` bytes at `data` (the input's type and size).
  Result setInput(int i, const void* data, size_t bytes) { return result(accelc_session_set_input(s_, i, data, bytes)); }
  Result setInput(int i, const std::vector<float>& data) { return setInput(i, data.data(), data.size() * sizeof(float)); }
  /// Input `i` bound in place (zero-copy): the session's storage of it, which later runs read where it lies.
  Result inputBuffer(int i, void*& data, size_t& bytes) { return result(accelc_session_input_buffer(s_, i, &data, &bytes)); }
  /// Output `i` of the last run where it lies: valid until the next run.
  Result outputBuffer(int i, const void*& data, size_t& bytes) const {
    return result(accelc_session_output_buffer(s_, i, &data, &bytes));
  }
  Result run() { return result(accelc_session_run(s_)); }
  /// Output `i` of the last run as bytes (its type's), or as floats (a float32 output).
  Result output(int i, std::vector<uint8_t>& out) const {
    accelc_tensor_info t;
    if (accelc_status st = accelc_bundle_output(b_, i, &t); st != ACCELC_OK) return result(st);
    out.resize(t.bytes);
    return result(accelc_session_get_output(s_, i, out.data(), t.bytes));
  }
  Result output(int i, std::vector<float>& out) const {
    accelc_tensor_info t;
    if (accelc_status st = accelc_bundle_output(b_, i, &t); st != ACCELC_OK) return result(st);
    if (t.dtype != ACCELC_FLOAT32) return {ACCELC_ERROR_ARGUMENT, std::string("output '") + t.name + "' is not float32"};
    out.resize(t.bytes / sizeof(float));
    return result(accelc_session_get_output(s_, i, out.data(), t.bytes));
  }
  /// One step of the last run, its strings copied.
  struct Step {
    std::string name, kind, runner;
    double seconds = 0;
    uint64_t cycles = 0;
  };
  /// The last run's steps, in bundle order.
  std::vector<Step> steps() const {
    std::vector<Step> v;
    for (int i = 0; i < accelc_session_step_count(s_); ++i) {
      accelc_step_timing t;
      if (accelc_session_step(s_, i, &t) == ACCELC_OK) v.push_back({t.name, t.kind, t.runner, t.seconds, t.cycles});
    }
    return v;
  }
  uint64_t cycles() const { return accelc_session_cycles(s_); }

 private:
  accelc_session* s_ = nullptr;
  const accelc_bundle* b_ = nullptr;  ///< the session's bundle, for its outputs' sizes
};

}  // namespace accelc::deploy

#endif  // ACCELC_RUNTIME_HPP_
