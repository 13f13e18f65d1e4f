// runtime/host_library.cc — checking and dlopen'ing a bundle's host library.
#include "runtime/host_library.h"

#if defined(__aarch64__) || defined(__arm__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>
#endif

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "support/hash.h"

namespace accelc::runtime {

using support::error;
using support::Location;

std::string runtimeArch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__arm__)
  return "armv7";
#else
  return "unknown";
#endif
}

std::vector<std::string> cpuFeatures() {
#if defined(__aarch64__) || defined(__arm__)
  // The kernel's hardware capability bits, named as /proc/cpuinfo names them. Under qemu-user they describe
  // the emulated CPU, where /proc/cpuinfo describes the machine under it.
  const unsigned long hw = ::getauxval(AT_HWCAP);
  std::vector<std::string> out;
#if defined(__aarch64__)
  if (hw & HWCAP_ASIMD) out.push_back("asimd");
  if (hw & HWCAP_ASIMDDP) out.push_back("asimddp");
#else
  if (hw & HWCAP_NEON) out.push_back("neon");
  if (hw & HWCAP_VFPv3) out.push_back("vfpv3");
#endif
  return out;
#else
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    // x86 lists "flags", ARM "Features".
    if (line.rfind("flags", 0) != 0 && line.rfind("Features", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 1));
    std::vector<std::string> out;
    for (std::string w; words >> w;) out.push_back(w);
    return out;
  }
  return {};
#endif
}

uint64_t libraryHash(const std::vector<uint8_t>& library) {
  return support::fnv1a64(std::string(library.begin(), library.end()));
}

std::string hostLibraryProblem(const HostCode& code, const std::vector<std::string>& cpu) {
  const std::string arch = code.triple.substr(0, code.triple.find('-'));
  if (arch != runtimeArch())
    return "the host code was built for " + code.triple + "; this runtime runs " + runtimeArch() +
           " code (recompile the bundle with --host for this machine)";
  if (libraryHash(code.library) != code.libraryHash) return "the host library does not hash to what the bundle records";
  const std::set<std::string> have(cpu.begin(), cpu.end());
  std::string missing;
  for (const std::string& f : code.features)
    if (!have.count(f)) missing += (missing.empty() ? "" : ", ") + f;
  if (!missing.empty())
    return "the host code needs CPU features this CPU lacks: " + missing + " (it was built for " + code.cpu +
           "; recompile with --cpu native on this machine)";
  return "";
}

std::string requestAmxTiles() {
#if defined(__x86_64__) && defined(__linux__)
  constexpr long kReqXcompPerm = 0x1023, kXtileData = 18;  // asm/prctl.h's ARCH_REQ_XCOMP_PERM, the tile data
  if (::syscall(SYS_arch_prctl, kReqXcompPerm, kXtileData) == 0) return "";
  return "Linux does not grant this process the AMX tile state (arch_prctl needs Linux 5.16 or later)";
#else
  return "AMX tiles run on x86-64 Linux only";
#endif
}

support::Expected<HostKernels> loadHostLibrary(const HostCode& code, std::shared_ptr<support::ThreadPool> pool,
                                               const std::string& name, bool checkCpu) {
  const Location at = Location::file(name + "[host]");
  if (code.library.empty()) return error(at, "the bundle carries no host code");
  const std::string problem = hostLibraryProblem(code, checkCpu ? cpuFeatures() : code.features);
  if (!problem.empty()) return error(at, problem);
  if (std::count(code.features.begin(), code.features.end(), "amx_tile")) {
    const std::string why = requestAmxTiles();
    if (!why.empty()) return error(at, "the host code runs on AMX tiles: " + why);
  }
  char path[] = "/tmp/accelc-host-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return error(at, "cannot write the host library to a temporary file");
  const bool written = ::write(fd, code.library.data(), code.library.size()) == static_cast<ssize_t>(code.library.size());
  ::close(fd);
  void* handle = written ? ::dlopen(path, RTLD_NOW | RTLD_LOCAL) : nullptr;
  const std::string why = handle || !written ? "" : ::dlerror();
  ::unlink(path);  // the mapping outlives the file
  if (!handle) return error(at, "cannot load the host library" + (why.empty() ? std::string() : ": " + why));
  std::shared_ptr<void> library(handle, [](void* h) { ::dlclose(h); });
  ACCELC_ASSIGN_OR_RETURN(
      HostKernels kernels,
      hostKernelsOf(code, [&](const std::string& symbol) { return ::dlsym(handle, symbol.c_str()); },
                    "bundle " + code.triple.substr(0, code.triple.find('-')) + " " + code.cpu, std::move(pool), name));
  for (auto& [step, k] : kernels) {  // every kernel keeps the library mapped
    auto run = std::move(k.run);
    k.run = [run, library](const std::vector<const Tensor*>& in, std::vector<Tensor>& out) { return run(in, out); };
  }
  return kernels;
}

}  // namespace accelc::runtime
