// runtime/cuda_code.h — host steps whose code is PTX (`accelc compile
// --target cuda`), run on a CUDA GPU through the driver API.
//
// The runtime never links CUDA: it loads the driver with
// dlopen("libcuda.so.1") when a bundle's code is PTX. Where no driver (or no
// GPU) exists, loading fails with a located error that names the first step
// the GPU would have run; nothing crashes. With a driver, each kernel's
// buffers live in device memory for the call: the inputs are copied in, each
// stage runs as one launch whose thread t runs iteration t of the stage's
// outer loop (compiler/host/ptx.h), and the output is copied back.
#ifndef ACCELC_RUNTIME_CUDA_CODE_H_
#define ACCELC_RUNTIME_CUDA_CODE_H_

#include <string>

#include "runtime/bundle.h"
#include "runtime/host_kernels.h"
#include "support/status.h"

namespace accelc::runtime {

/// Whether `code` is PTX for a GPU rather than a shared library for this CPU.
bool isCudaCode(const HostCode& code);

/// The kernels of `b`'s PTX host code on the first CUDA device.
support::Expected<HostKernels> loadCudaCode(const Bundle& b, const std::string& name);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_CUDA_CODE_H_
