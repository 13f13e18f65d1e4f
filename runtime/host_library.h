// runtime/host_library.h — loading the shared library of generated host code
// a bundle carries, without LLVM.
//
// Before anything is loaded, the library must have been built for this
// machine's architecture, hash to what the bundle records, and need no CPU
// feature this CPU lacks (read from /proc/cpuinfo): otherwise a located error
// names what does not fit, instead of a crash on an illegal instruction. The
// library is written to a private temporary file, dlopen'ed and the file
// removed; it stays mapped as long as a kernel made from it lives.
#ifndef ACCELC_RUNTIME_HOST_LIBRARY_H_
#define ACCELC_RUNTIME_HOST_LIBRARY_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/host_code.h"
#include "runtime/host_kernels.h"
#include "support/status.h"
#include "support/thread_pool.h"

namespace accelc::runtime {

/// The architecture this runtime was built for ("x86_64", "aarch64", "armv7").
std::string runtimeArch();
/// The CPU features of this machine, as /proc/cpuinfo names them.
std::vector<std::string> cpuFeatures();
/// Asks Linux for the AMX tile state (arch_prctl ARCH_REQ_XCOMP_PERM), which
/// a process must be granted before any thread runs an AMX instruction: ""
/// once granted, else why not (another architecture or OS, an old kernel).
std::string requestAmxTiles();
/// The library hash a bundle records (fnv1a-64 of its bytes).
uint64_t libraryHash(const std::vector<uint8_t>& library);

/// Why `code` cannot run here ("" when it can): another architecture, a
/// library that does not hash to `code.libraryHash`, CPU features missing.
/// loadHostLibrary also asks for the AMX tile state where the code needs AMX.
std::string hostLibraryProblem(const HostCode& code, const std::vector<std::string>& cpu);

/// The kernels of a bundle's host code, from its library; loop kernels share
/// `pool`. `checkCpu` false skips the CPU features (a cross test under
/// qemu-user, whose /proc/cpuinfo is the host machine's).
support::Expected<HostKernels> loadHostLibrary(const HostCode& code, std::shared_ptr<support::ThreadPool> pool,
                                               const std::string& name, bool checkCpu = true);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_HOST_LIBRARY_H_
