// runtime/carried_code.h — the host code a bundle carries, as kernels: its
// shared library for this machine's CPU (host_library.h) or its PTX for a
// CUDA GPU (cuda_code.h). What the deploy runtime and `accelc run` load.
#ifndef ACCELC_RUNTIME_CARRIED_CODE_H_
#define ACCELC_RUNTIME_CARRIED_CODE_H_

#include <memory>
#include <string>

#include "runtime/bundle.h"
#include "runtime/host_kernels.h"
#include "support/status.h"
#include "support/thread_pool.h"

namespace accelc::runtime {

/// Whether `b` carries host code (a library or PTX).
bool carriesHostCode(const Bundle& b);

/// The kernels of `b`'s host code (none when it carries none: every host
/// step on its reference kernel); an error, naming `name`, when the code is
/// not for this machine. Loop kernels share `pool`.
support::Expected<HostKernels> carriedHostKernels(const Bundle& b, const std::string& name,
                                                  std::shared_ptr<support::ThreadPool> pool);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_CARRIED_CODE_H_
