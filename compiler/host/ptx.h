// compiler/host/ptx.h — loop kernels as PTX for NVIDIA GPUs (nvptx64).
//
// The stages are the CPU's (loop_codegen.h), compiled by LLVM's NVPTX back
// end: each stage S gets a kernel entry `S_gpu(float* const* buffers, int64_t
// iterations)` whose thread t (blockIdx.x · blockDim.x + threadIdx.x) runs
// iteration t of the stage's outer loop, the stage's own code inlined. pow
// becomes libdevice's __nv_powf, linked in from the CUDA toolkit's
// libdevice.10.bc (exp, tanh and erf are ir_math.h's polynomials, as on the
// CPU). A bundle compiled with
// `--target cuda` carries the PTX; runtime/cuda_code.h runs it.
#ifndef ACCELC_COMPILER_HOST_PTX_H_
#define ACCELC_COMPILER_HOST_PTX_H_

#include <string>
#include <vector>

#include "compiler/host/jit.h"
#include "compiler/host/loop_ir.h"
#include "support/status.h"

namespace accelc::compiler::host {

/// Where the CUDA toolkit's libdevice is, "" when this machine has none.
std::string libdevicePath();

/// The PTX of module `m` for `sm` ("sm_80"): each function of `stages`
/// (stage functions the module defines) gets its entry, named with "_gpu" added.
support::Expected<std::string> modulePtx(HostModule m, const std::vector<std::string>& stages, const std::string& sm,
                                         const std::string& name);

/// The PTX of loop kernel `k` under `s` for `sm` ("sm_80"), its stages named
/// `prefix` + "_s" + index + "_gpu"; `name` locates errors.
support::Expected<std::string> loopKernelPtx(const LoopKernel& k, const KernelSchedule& s, const std::string& prefix,
                                             const std::string& sm, const std::string& name);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_PTX_H_
