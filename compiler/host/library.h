// compiler/host/library.h — host code compiled ahead of time into a shared
// library that a bundle carries (the way TVM exports a library).
//
// The module is optimized and compiled for a target (a triple, a CPU and its
// features) into an object file with LLVM's code generator, then linked as a
// shared library by Debian's ld.lld-14. The runtime loads it without LLVM
// (runtime/host_library.h) after checking the target, the bundle's hash and
// the CPU features the code needs.
#ifndef ACCELC_COMPILER_HOST_LIBRARY_H_
#define ACCELC_COMPILER_HOST_LIBRARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/host/jit.h"
#include "compiler/host/nn_kernels.h"
#include "runtime/bundle.h"
#include "runtime/host_code.h"

namespace accelc::compiler::host {

/// What a library is compiled for.
struct LibraryTarget {
  std::string triple;                 ///< "x86_64-pc-linux-gnu"
  std::string cpu;                    ///< LLVM's CPU name ("skylake-avx512", "x86-64-v3", ...)
  std::string llvmFeatures;           ///< LLVM's feature string beside the CPU ("" for the CPU's own)
  std::vector<std::string> features;  ///< the ISA extensions the code may use, as the runtime checks them
  CpuShape shape;                     ///< what the schedules are shaped for
};

/// The target of `--cpu NAME` on x86-64 ("native": this machine's CPU).
support::Expected<LibraryTarget> x86Target(const std::string& cpu);

/// The target of host `arch` ("x86", "aarch64", "armv7" or "cuda") and `cpu`
/// ("native" on x86; "" for the boards' cores: cortex-a53 on AArch64, the
/// Zynq-7000's cortex-a9 on ARMv7, both with NEON; a compute capability,
/// sm_80 by default, for CUDA, whose library is PTX text, ptx.h).
support::Expected<LibraryTarget> libraryTarget(const std::string& arch, const std::string& cpu);

/// Compiles `m` for `t` into a shared library; `name` locates errors.
support::Expected<std::vector<uint8_t>> buildSharedLibrary(HostModule m, const LibraryTarget& t, const std::string& name);

/// The code of `b`'s host steps compiled for `t`: the kernels' description
/// and the library, ready for the bundle.
support::Expected<runtime::HostCode> compileHostCode(const runtime::Bundle& b, const LibraryTarget& t,
                                                     const std::string& name);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_LIBRARY_H_
