// runtime/cuda_code.cc — the CUDA driver API through dlopen, and kernels on it.
//
// Only the few driver functions used here are declared, with the driver's
// own signatures (cuda.h): handles are opaque pointers, device pointers
// 64-bit integers, and every call returns a CUresult (0 is success).
#include "runtime/cuda_code.h"

#include <dlfcn.h>

#include <memory>

namespace accelc::runtime {

using support::error;
using support::Location;

namespace {

using CuResult = int;
using CuDevicePtr = unsigned long long;

/// The driver's entry points this runtime calls.
struct Driver {
  void* handle = nullptr;
  CuResult (*init)(unsigned) = nullptr;
  CuResult (*deviceGet)(int*, int) = nullptr;
  CuResult (*primaryCtxRetain)(void**, int) = nullptr;
  CuResult (*ctxSetCurrent)(void*) = nullptr;
  CuResult (*moduleLoadData)(void**, const void*) = nullptr;
  CuResult (*moduleGetFunction)(void**, void*, const char*) = nullptr;
  CuResult (*memAlloc)(CuDevicePtr*, size_t) = nullptr;
  CuResult (*memFree)(CuDevicePtr) = nullptr;
  CuResult (*memcpyHtoD)(CuDevicePtr, const void*, size_t) = nullptr;
  CuResult (*memcpyDtoH)(void*, CuDevicePtr, size_t) = nullptr;
  CuResult (*launch)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                     void**) = nullptr;
  CuResult (*synchronize)() = nullptr;
  CuResult (*errorString)(CuResult, const char**) = nullptr;
  void* context = nullptr;
  void* module = nullptr;

  ~Driver() {
    if (handle) ::dlclose(handle);
  }

  std::string why(CuResult r) const {
    const char* s = nullptr;
    if (errorString) errorString(r, &s);
    return s ? s : "CUDA error " + std::to_string(r);
  }
};

template <typename F>
bool bind(void* handle, const char* symbol, F& fn) {
  fn = reinterpret_cast<F>(::dlsym(handle, symbol));
  return fn != nullptr;
}

/// The driver, a context on device 0 and the bundle's PTX loaded; else why not.
support::Expected<std::shared_ptr<Driver>> openDriver(const HostCode& code, const Location& at, const std::string& step) {
  auto d = std::make_shared<Driver>();
  d->handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!d->handle)
    return error(at, "step '" + step + "' runs on a CUDA GPU (its code is PTX for " + code.cpu +
                         "), and this machine has no CUDA driver (libcuda.so.1)");
  const bool ok = bind(d->handle, "cuInit", d->init) && bind(d->handle, "cuDeviceGet", d->deviceGet) &&
                  bind(d->handle, "cuDevicePrimaryCtxRetain", d->primaryCtxRetain) &&
                  bind(d->handle, "cuCtxSetCurrent", d->ctxSetCurrent) &&
                  bind(d->handle, "cuModuleLoadData", d->moduleLoadData) &&
                  bind(d->handle, "cuModuleGetFunction", d->moduleGetFunction) &&
                  bind(d->handle, "cuMemAlloc_v2", d->memAlloc) && bind(d->handle, "cuMemFree_v2", d->memFree) &&
                  bind(d->handle, "cuMemcpyHtoD_v2", d->memcpyHtoD) && bind(d->handle, "cuMemcpyDtoH_v2", d->memcpyDtoH) &&
                  bind(d->handle, "cuLaunchKernel", d->launch) && bind(d->handle, "cuCtxSynchronize", d->synchronize) &&
                  bind(d->handle, "cuGetErrorString", d->errorString);
  if (!ok) return error(at, "libcuda.so.1 lacks a driver function this runtime calls");
  int device = 0;
  CuResult r = d->init(0);
  if (r == 0) r = d->deviceGet(&device, 0);
  if (r == 0) r = d->primaryCtxRetain(&d->context, device);
  if (r == 0) r = d->ctxSetCurrent(d->context);
  if (r != 0) return error(at, "step '" + step + "' runs on a CUDA GPU, and none is usable: " + d->why(r));
  std::string ptx(code.library.begin(), code.library.end());  // the driver reads it as a C string
  if ((r = d->moduleLoadData(&d->module, ptx.c_str())) != 0)
    return error(at, "the GPU refused the bundle's PTX: " + d->why(r));
  return d;
}

/// Device memory freed when it goes out of scope.
struct DeviceBuffer {
  std::shared_ptr<Driver> d;
  CuDevicePtr ptr = 0;
  ~DeviceBuffer() {
    if (ptr) d->memFree(ptr);
  }
};

/// Runs loop kernel `k` (its stage functions `fns`) on the GPU.
support::Status runOnGpu(const std::shared_ptr<Driver>& d, const KernelCode& k, const std::vector<void*>& fns,
                         const std::vector<const Tensor*>& inputs, std::vector<Tensor>& outs, const std::string& where) {
  const Location at = Location::file(where);
  std::vector<std::unique_ptr<DeviceBuffer>> bufs;
  std::vector<const Tensor*> present;
  for (const Tensor* t : inputs)
    if (t) present.push_back(t);
  size_t in = 0, out = 0;
  for (const KernelBuffer& b : k.buffers) {
    const int64_t elements = b.role == KernelBuffer::Role::kInput ? present[in]->numel()
                             : b.role == KernelBuffer::Role::kOutput ? outs[out++].numel()
                                                                     : b.elements;
    const size_t bytes = static_cast<size_t>(elements * support::dtypeBytes(b.type));
    auto buf = std::make_unique<DeviceBuffer>();
    buf->d = d;
    if (CuResult r = d->memAlloc(&buf->ptr, bytes); r != 0)
      return error(at, "cannot allocate GPU memory: " + d->why(r));
    if (b.role == KernelBuffer::Role::kInput) {
      if (CuResult r = d->memcpyHtoD(buf->ptr, present[in++]->bytes().data(), bytes); r != 0)
        return error(at, "cannot copy an input to the GPU: " + d->why(r));
    }
    bufs.push_back(std::move(buf));
  }
  DeviceBuffer table{d, 0};  // the stages' buffer pointers, per batch point
  if (CuResult r = d->memAlloc(&table.ptr, bufs.size() * sizeof(CuDevicePtr)); r != 0)
    return error(at, "cannot allocate GPU memory: " + d->why(r));
  int64_t points = 1;
  for (const BatchDim& b : k.batch) points *= b.count;
  for (int64_t p = 0; p < points; ++p) {
    std::vector<CuDevicePtr> ptrs;
    for (size_t b = 0; b < bufs.size(); ++b) {
      int64_t offset = 0, rest = p;
      for (size_t dim = k.batch.size(); dim-- > 0;) {
        offset += (rest % k.batch[dim].count) * k.batch[dim].stride[b];
        rest /= k.batch[dim].count;
      }
      ptrs.push_back(bufs[b]->ptr + static_cast<CuDevicePtr>(offset * support::dtypeBytes(k.buffers[b].type)));
    }
    if (CuResult r = d->memcpyHtoD(table.ptr, ptrs.data(), ptrs.size() * sizeof(CuDevicePtr)); r != 0)
      return error(at, "cannot copy to the GPU: " + d->why(r));
    for (size_t s = 0; s < fns.size(); ++s) {
      int64_t iterations = k.stages[s].iterations;
      void* args[] = {&table.ptr, &iterations};
      const unsigned threads = 128, blocks = static_cast<unsigned>((iterations + threads - 1) / threads);
      if (CuResult r = d->launch(fns[s], blocks, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr); r != 0)
        return error(at, "a kernel launch failed: " + d->why(r));
      if (CuResult r = d->synchronize(); r != 0) return error(at, "a kernel failed on the GPU: " + d->why(r));
    }
  }
  out = 0;
  for (size_t b = 0; b < bufs.size(); ++b) {
    if (k.buffers[b].role != KernelBuffer::Role::kOutput) continue;
    Tensor& y = outs[out++];
    if (CuResult r = d->memcpyDtoH(y.bytes().data(), bufs[b]->ptr, y.bytes().size()); r != 0)
      return error(at, "cannot copy an output from the GPU: " + d->why(r));
  }
  return support::Status::ok();
}

}  // namespace

bool isCudaCode(const HostCode& code) { return code.triple.rfind("nvptx64", 0) == 0; }

support::Expected<HostKernels> loadCudaCode(const Bundle& b, const std::string& name) {
  const HostCode& code = b.host;
  const Location at = Location::file(name + "[host]");
  if (code.kernels.empty()) return HostKernels{};
  const std::string first = b.steps[code.kernels.front().step].name;
  ACCELC_ASSIGN_OR_RETURN(std::shared_ptr<Driver> d, openDriver(code, at, first));
  HostKernels kernels;
  for (const KernelCode& k : code.kernels) {
    const std::string where = name + ":" + b.steps[k.step].name;
    if (!k.chain.empty()) return error(at, "step '" + b.steps[k.step].name + "': a flat chain has no GPU form");
    std::vector<void*> fns;
    for (const StageCode& s : k.stages) {
      void* fn = nullptr;
      if (CuResult r = d->moduleGetFunction(&fn, d->module, s.symbol.c_str()); r != 0)
        return error(at, "the PTX has no kernel '" + s.symbol + "': " + d->why(r));
      fns.push_back(fn);
    }
    HostKernel h{"cuda " + code.cpu,
                 [d, k, fns, where](const std::vector<const Tensor*>& in, std::vector<Tensor>& out) -> support::Status {
                   std::vector<Tensor> y;
                   for (size_t i = 0; i < k.outputs.size(); ++i) y.emplace_back(kernelOutputType(k, i), k.outputs[i]);
                   ACCELC_TRY(runOnGpu(d, k, fns, in, y, where));
                   for (size_t i = 0; i < y.size(); ++i) out[i] = std::move(y[i]);
                   return support::Status::ok();
                 }};
    h.fuses = k.fuses;
    kernels[k.step] = std::move(h);
  }
  return kernels;
}

}  // namespace accelc::runtime
