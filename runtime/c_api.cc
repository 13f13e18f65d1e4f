// runtime/c_api.cc — the C API (runtime/include/accelc_runtime.h) over the
// bundle loader, the devices of runtime/c_api_device.h and the executor.
//
// Each entry point catches everything below it: a C caller gets a status and
// accelc_last_error(), never an exception or an abort.
#include "runtime/include/accelc_runtime.h"

#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/bundle.h"
#include "runtime/carried_code.h"
#include "runtime/c_api_device.h"
#include "runtime/executor.h"

struct accelc_bundle {
  accelc::runtime::CheckedBundle c;
  std::string path;
};

struct accelc_session {
  const accelc_bundle* b = nullptr;
  std::unique_ptr<accelc::runtime::Device> device;
  std::unique_ptr<accelc::runtime::Executor> executor;
  std::vector<accelc::runtime::Tensor> inputs;  ///< the session's own storage, which runs read in place
  std::vector<bool> inputSet;                   ///< per input: set or bound
  std::vector<accelc::runtime::Tensor> outputs;  ///< the last run's; empty before one
  std::vector<std::string> stepKinds;
  std::vector<double> seconds;      ///< per step, the last run's
  std::vector<uint64_t> cycles;     ///< per step, the last run's
  std::vector<std::string> runners; ///< per step, what ran it (host steps)
  uint64_t totalCycles = 0;
};

namespace {

using accelc::runtime::Bundle;
using accelc::runtime::Step;
using accelc::runtime::Tensor;

thread_local std::string lastError;

accelc_status fail(accelc_status s, const std::string& why) {
  lastError = why;
  return s;
}

/// A session's error, located at its bundle.
accelc_status failAt(const accelc_session* s, accelc_status st, const std::string& why) {
  return fail(st, s->b->path + ": error: " + why);
}

/// Runs `f`, turning an escaping exception into ACCELC_ERROR_RUN with its message.
template <typename F>
accelc_status guarded(F f) {
  try {
    lastError.clear();
    return f();
  } catch (const std::exception& e) {
    return fail(ACCELC_ERROR_RUN, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(ACCELC_ERROR_RUN, "internal error");
  }
}

// The C enum is the bundle format's dtype numbering, which never changes (new types go at the end).
#define ACCELC_SAME_DTYPE(c, e) static_assert(int{c} == static_cast<int>(accelc::support::DType::e), #c);
ACCELC_SAME_DTYPE(ACCELC_INT8, kInt8)
ACCELC_SAME_DTYPE(ACCELC_UINT8, kUint8)
ACCELC_SAME_DTYPE(ACCELC_INT32, kInt32)
ACCELC_SAME_DTYPE(ACCELC_INT64, kInt64)
ACCELC_SAME_DTYPE(ACCELC_FLOAT32, kFloat32)
ACCELC_SAME_DTYPE(ACCELC_BOOL, kBool)
ACCELC_SAME_DTYPE(ACCELC_FLOAT64, kFloat64)
ACCELC_SAME_DTYPE(ACCELC_FLOAT16, kFloat16)
ACCELC_SAME_DTYPE(ACCELC_INT16, kInt16)
ACCELC_SAME_DTYPE(ACCELC_UINT16, kUint16)
#undef ACCELC_SAME_DTYPE
static_assert(accelc::support::kDTypeCount == 10, "a new dtype needs its ACCELC_ value");

/// Model input or output `i` of `b` (`what`: "input" or "output") into `out`; else why not (`out` untouched).
std::string info(const accelc_bundle& b, const std::vector<int>& slots, int i, accelc_tensor_info& out,
                 const char* what) {
  if (i < 0 || static_cast<size_t>(i) >= slots.size())
    return std::string("no ") + what + " " + std::to_string(i) + " (the bundle has " + std::to_string(slots.size()) + ")";
  const accelc::runtime::TensorSlot& t = b.c.bundle.tensors[static_cast<size_t>(slots[static_cast<size_t>(i)])];
  if (t.shape.size() > ACCELC_MAX_RANK)
    return "tensor '" + t.name + "' has rank " + std::to_string(t.shape.size()) + ", more than the C API's " +
           std::to_string(ACCELC_MAX_RANK);
  out = accelc_tensor_info{};
  out.name = t.name.c_str(), out.dtype = static_cast<accelc_dtype>(t.dtype), out.rank = static_cast<int>(t.shape.size());
  for (size_t d = 0; d < t.shape.size(); ++d) out.dims[d] = t.shape[d];
  out.bytes = static_cast<size_t>(accelc::support::shapeElements(t.shape) * accelc::support::dtypeBytes(t.dtype));
  return "";
}

/// info() for a C entry point: ACCELC_ERROR_ARGUMENT, located at the bundle, when it fails.
accelc_status infoAt(const accelc_bundle* b, bool input, int i, accelc_tensor_info* out) {
  if (!b || !out) return fail(ACCELC_ERROR_ARGUMENT, std::string("accelc_bundle_") + (input ? "input" : "output") +
                                                         ": a null argument");
  const std::string why = info(*b, input ? b->c.bundle.inputs : b->c.bundle.outputs, i, *out, input ? "input" : "output");
  return why.empty() ? ACCELC_OK : fail(ACCELC_ERROR_ARGUMENT, b->path + ": error: " + why);
}

int indexOf(const accelc_bundle* b, const std::vector<int>& slots, const char* name) {
  if (!b || !name) return -1;
  for (size_t i = 0; i < slots.size(); ++i)
    if (b->c.bundle.tensors[static_cast<size_t>(slots[i])].name == name) return static_cast<int>(i);
  return -1;
}

const char* kindName(Step::Kind k) {
  switch (k) {
    case Step::Kind::kAccel:
      return "accelerator";
    case Step::Kind::kHost:
      return "host";
    case Step::Kind::kPack:
      return "pack";
    case Step::Kind::kUnpack:
      return "unpack";
  }
  return "?";
}

}  // namespace

extern "C" {

const char* accelc_last_error(void) { return lastError.c_str(); }

int accelc_api_version(void) { return ACCELC_RUNTIME_API_VERSION; }

accelc_status accelc_bundle_open(const char* path, accelc_bundle** out) {
  return guarded([&] {
    if (!path || !out) return fail(ACCELC_ERROR_ARGUMENT, "accelc_bundle_open: a null argument");
    *out = nullptr;
    auto c = accelc::runtime::loadCheckedBundle(path);
    if (!c) return fail(ACCELC_ERROR_BUNDLE, c.diag().str());
    auto b = std::make_unique<accelc_bundle>(accelc_bundle{std::move(*c), path});
    for (const std::vector<int>* slots : {&b->c.bundle.inputs, &b->c.bundle.outputs})  // every one describable
      for (size_t i = 0; i < slots->size(); ++i) {
        accelc_tensor_info t;
        if (const std::string why = info(*b, *slots, static_cast<int>(i), t, "tensor"); !why.empty())
          return fail(ACCELC_ERROR_BUNDLE, b->path + ": error: " + why);
      }
    *out = b.release();
    return ACCELC_OK;
  });
}

void accelc_bundle_close(accelc_bundle* b) { delete b; }

int accelc_bundle_input_count(const accelc_bundle* b) { return b ? static_cast<int>(b->c.bundle.inputs.size()) : 0; }

int accelc_bundle_output_count(const accelc_bundle* b) { return b ? static_cast<int>(b->c.bundle.outputs.size()) : 0; }

accelc_status accelc_bundle_input(const accelc_bundle* b, int i, accelc_tensor_info* out) {
  return guarded([&] { return infoAt(b, true, i, out); });
}

accelc_status accelc_bundle_output(const accelc_bundle* b, int i, accelc_tensor_info* out) {
  return guarded([&] { return infoAt(b, false, i, out); });
}

int accelc_bundle_input_index(const accelc_bundle* b, const char* name) {
  return b ? indexOf(b, b->c.bundle.inputs, name) : -1;
}

int accelc_bundle_output_index(const accelc_bundle* b, const char* name) {
  return b ? indexOf(b, b->c.bundle.outputs, name) : -1;
}

accelc_status accelc_session_create(const accelc_bundle* b, const char* device, const accelc_session_options* options,
                                    accelc_session** out) {
  return guarded([&] {
    if (!b || !device || !out) return fail(ACCELC_ERROR_ARGUMENT, "accelc_session_create: a null argument");
    *out = nullptr;
    auto s = std::make_unique<accelc_session>();
    s->b = b;
    auto d = accelc::runtime::capiDevice(device, b->c.target, b->c.bundle.window);
    if (!d) return fail(ACCELC_ERROR_DEVICE, d.diag().str());
    s->device = std::move(*d);
    const int threads = options && options->threads > 0 ? options->threads : 0;
    auto host = accelc::runtime::carriedHostKernels(b->c.bundle, b->path,
                                                    std::make_shared<accelc::support::ThreadPool>(threads));
    if (!host) return fail(ACCELC_ERROR_DEVICE, host.diag().str());
    auto e = accelc::runtime::Executor::create(b->c.bundle, *s->device, b->path, std::move(*host));
    if (!e) return fail(ACCELC_ERROR_DEVICE, e.diag().str());
    s->executor = std::move(*e);
    for (int id : b->c.bundle.inputs)  // storage of the inputs' shapes, which binding hands out and runs read
      s->inputs.emplace_back(b->c.bundle.tensors[static_cast<size_t>(id)].dtype, b->c.bundle.tensors[static_cast<size_t>(id)].shape);
    s->inputSet.assign(s->inputs.size(), false);
    for (const Step& st : b->c.bundle.steps) s->stepKinds.push_back(kindName(st.kind));
    *out = s.release();
    return ACCELC_OK;
  });
}

void accelc_session_destroy(accelc_session* s) { delete s; }

accelc_status accelc_session_set_input(accelc_session* s, int i, const void* data, size_t bytes) {
  return guarded([&] {
    accelc_tensor_info t;
    if (!s || !data) return fail(ACCELC_ERROR_ARGUMENT, "accelc_session_set_input: a null argument");
    if (const std::string why = info(*s->b, s->b->c.bundle.inputs, i, t, "input"); !why.empty())
      return failAt(s, ACCELC_ERROR_ARGUMENT, why);
    const accelc::runtime::TensorSlot& slot = s->b->c.bundle.tensors[static_cast<size_t>(s->b->c.bundle.inputs[i])];
    if (bytes != t.bytes)
      return failAt(s, ACCELC_ERROR_ARGUMENT, std::string("input '") + t.name + "' takes " + std::to_string(t.bytes) +
                                                  " bytes (" + accelc::support::dtypeName(slot.dtype) + "), not " +
                                                  std::to_string(bytes));
    std::memcpy(s->inputs[static_cast<size_t>(i)].bytes().data(), data, bytes);
    s->inputSet[static_cast<size_t>(i)] = true;
    return ACCELC_OK;
  });
}

accelc_status accelc_session_run(accelc_session* s) {
  return guarded([&] {
    if (!s) return fail(ACCELC_ERROR_ARGUMENT, "accelc_session_run: a null argument");
    for (size_t i = 0; i < s->inputs.size(); ++i)
      if (!s->inputSet[i])
        return failAt(s, ACCELC_ERROR_STATE,
                      "input '" + s->b->c.bundle.tensors[static_cast<size_t>(s->b->c.bundle.inputs[i])].name +
                          "' is not set");
    // The executor's statistics sum over runs: this run's are the differences.
    const accelc::runtime::RunStats before = s->executor->stats();
    auto y = s->executor->run(s->inputs);  // in place: the caller may have written them through input_buffer
    s->outputs.clear();
    if (!y) return fail(ACCELC_ERROR_RUN, y.diag().str());
    s->outputs = std::move(*y);
    const accelc::runtime::RunStats& after = s->executor->stats();
    const size_t n = after.stepSeconds.size();
    s->seconds.assign(n, 0.0), s->cycles.assign(n, 0);
    for (size_t k = 0; k < n; ++k) {
      s->seconds[k] = after.stepSeconds[k] - (k < before.stepSeconds.size() ? before.stepSeconds[k] : 0.0);
      if (k < after.stepCycles.size())
        s->cycles[k] = after.stepCycles[k] - (k < before.stepCycles.size() ? before.stepCycles[k] : 0);
    }
    s->totalCycles = after.cycles.value_or(0) - before.cycles.value_or(0);
    s->runners = after.stepKernel;
    return ACCELC_OK;
  });
}

accelc_status accelc_session_get_output(const accelc_session* s, int i, void* data, size_t bytes) {
  return guarded([&] {
    accelc_tensor_info t;
    if (!s || !data) return fail(ACCELC_ERROR_ARGUMENT, "accelc_session_get_output: a null argument");
    if (const std::string why = info(*s->b, s->b->c.bundle.outputs, i, t, "output"); !why.empty())
      return failAt(s, ACCELC_ERROR_ARGUMENT, why);
    if (s->outputs.empty()) return failAt(s, ACCELC_ERROR_STATE, "no run has finished: there are no outputs to read");
    const Tensor& y = s->outputs[static_cast<size_t>(i)];
    if (bytes != y.bytes().size())
      return failAt(s, ACCELC_ERROR_ARGUMENT, std::string("output '") + t.name + "' holds " +
                                                  std::to_string(y.bytes().size()) + " bytes (" +
                                                  accelc::support::dtypeName(y.dtype()) + "), not " +
                                                  std::to_string(bytes));
    std::memcpy(data, y.bytes().data(), bytes);
    return ACCELC_OK;
  });
}

accelc_status accelc_session_input_buffer(accelc_session* s, int i, void** data, size_t* bytes) {
  return guarded([&] {
    accelc_tensor_info t;
    if (!s || !data || !bytes) return fail(ACCELC_ERROR_ARGUMENT, "accelc_session_input_buffer: a null argument");
    if (const std::string why = info(*s->b, s->b->c.bundle.inputs, i, t, "input"); !why.empty())
      return failAt(s, ACCELC_ERROR_ARGUMENT, why);
    Tensor& x = s->inputs[static_cast<size_t>(i)];
    *data = x.bytes().data(), *bytes = x.bytes().size();
    s->inputSet[static_cast<size_t>(i)] = true;
    return ACCELC_OK;
  });
}

accelc_status accelc_session_output_buffer(const accelc_session* s, int i, const void** data, size_t* bytes) {
  return guarded([&] {
    accelc_tensor_info t;
    if (!s || !data || !bytes) return fail(ACCELC_ERROR_ARGUMENT, "accelc_session_output_buffer: a null argument");
    if (const std::string why = info(*s->b, s->b->c.bundle.outputs, i, t, "output"); !why.empty())
      return failAt(s, ACCELC_ERROR_ARGUMENT, why);
    if (s->outputs.empty()) return failAt(s, ACCELC_ERROR_STATE, "no run has finished: there are no outputs to read");
    const Tensor& y = s->outputs[static_cast<size_t>(i)];
    *data = y.bytes().data(), *bytes = y.bytes().size();
    return ACCELC_OK;
  });
}

int accelc_session_step_count(const accelc_session* s) { return s ? static_cast<int>(s->stepKinds.size()) : 0; }

accelc_status accelc_session_step(const accelc_session* s, int i, accelc_step_timing* out) {
  return guarded([&] {
    if (!s || !out) return fail(ACCELC_ERROR_ARGUMENT, "accelc_session_step: a null argument");
    if (i < 0 || static_cast<size_t>(i) >= s->stepKinds.size())
      return failAt(s, ACCELC_ERROR_ARGUMENT,
                    "no step " + std::to_string(i) + " (the bundle has " + std::to_string(s->stepKinds.size()) + ")");
    const size_t k = static_cast<size_t>(i);
    out->name = s->b->c.bundle.steps[k].name.c_str();
    out->kind = s->stepKinds[k].c_str();
    out->seconds = k < s->seconds.size() ? s->seconds[k] : 0.0;
    out->cycles = k < s->cycles.size() ? s->cycles[k] : 0;
    out->runner = k < s->runners.size() ? s->runners[k].c_str() : "";
    return ACCELC_OK;
  });
}

uint64_t accelc_session_cycles(const accelc_session* s) { return s ? s->totalCycles : 0; }

}  // extern "C"
