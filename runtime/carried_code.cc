// runtime/carried_code.cc — a bundle's host code as kernels.
#include "runtime/carried_code.h"

#include "runtime/cuda_code.h"
#include "runtime/host_library.h"

namespace accelc::runtime {

bool carriesHostCode(const Bundle& b) { return isCudaCode(b.host) || !b.host.library.empty(); }

support::Expected<HostKernels> carriedHostKernels(const Bundle& b, const std::string& name,
                                                  std::shared_ptr<support::ThreadPool> pool) {
  if (isCudaCode(b.host)) return loadCudaCode(b, name);
  if (b.host.library.empty()) return HostKernels{};
  return loadHostLibrary(b.host, std::move(pool), name);
}

}  // namespace accelc::runtime
