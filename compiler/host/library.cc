// compiler/host/library.cc — objects from LLVM's code generator, linked by ld.lld-14.
#include "compiler/host/library.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/SubtargetFeature.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>

#include "compiler/host/module_impl.h"
#include "compiler/host/ptx.h"
#include "compiler/host/step_kernels.h"
#include "runtime/host_library.h"
#include "support/yaml.h"

namespace accelc::compiler::host {

using support::error;
using support::Location;

void initTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
  });
}

bool knownCpu(const std::string& triple, const std::string& cpu) {
  initTargets();
  std::string why;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, why);
  std::unique_ptr<llvm::MCSubtargetInfo> generic(target ? target->createMCSubtargetInfo(triple, "generic", "") : nullptr);
  return generic && generic->isCPUStringValid(cpu);
}

support::Expected<std::unique_ptr<llvm::TargetMachine>> machineFor(const std::string& triple, const std::string& cpu,
                                                                  const std::string& features, const std::string& name) {
  initTargets();
  std::string why;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, why);
  if (!target) return error(Location::file(name), "LLVM cannot target " + triple + ": " + why);
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, llvm::TargetOptions(), llvm::Reloc::PIC_, llvm::None, llvm::CodeGenOpt::Aggressive));
  if (!tm) return error(Location::file(name), "LLVM cannot make a code generator for " + triple + " " + cpu);
  return tm;
}

namespace {

constexpr const char* kX86Triple = "x86_64-pc-linux-gnu";

/// An ARM target: `cpu` on `triple`, the features it records as /proc/cpuinfo names them.
support::Expected<LibraryTarget> armTarget(const std::string& triple, const std::string& cpu, const std::string& extra,
                                           int registers,
                                           const std::vector<std::pair<const char*, const char*>>& features) {
  LibraryTarget t;
  t.triple = triple, t.cpu = cpu, t.llvmFeatures = extra;
  if (!knownCpu(triple, cpu))
    return error(Location(), "--cpu '" + cpu + "': LLVM 14 knows no such CPU for " + triple);
  ACCELC_ASSIGN_OR_RETURN(auto tm, machineFor(triple, cpu, extra, "--cpu " + cpu));
  for (const auto& [llvmName, cpuinfo] : features)
    if (tm->getMCSubtargetInfo()->checkFeatures(std::string("+") + llvmName)) t.features.push_back(cpuinfo);
  t.shape = CpuShape{4, registers};  // NEON: 128-bit vectors
  return t;
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

support::Expected<LibraryTarget> x86Target(const std::string& cpu) {
  LibraryTarget t;
  t.triple = kX86Triple;
  t.cpu = cpu == "native" ? llvm::sys::getHostCPUName().str() : cpu;
  llvm::SubtargetFeatures features;
  if (cpu == "native") {
    llvm::StringMap<bool> host;
    if (llvm::sys::getHostCPUFeatures(host))
      for (const auto& f : host) features.AddFeature(f.first(), f.second);
  }
  if (!knownCpu(t.triple, t.cpu))
    return error(Location(), "--cpu '" + cpu + "': LLVM 14 knows no such x86-64 CPU (try native, x86-64-v3 or skylake-avx512)");
  ACCELC_ASSIGN_OR_RETURN(auto tm, machineFor(t.triple, t.cpu, features.getString(), "--cpu " + cpu));
  for (const runtime::CpuFeature& f : runtime::x86Features())
    if (tm->getMCSubtargetInfo()->checkFeatures(std::string("+") + f.llvm)) t.features.push_back(f.cpuinfo);
  const bool avx512 = tm->getMCSubtargetInfo()->checkFeatures("+avx512f");
  auto has = [&](const char* f) { return tm->getMCSubtargetInfo()->checkFeatures(std::string("+") + f); };
  t.shape = x86CpuShape(avx512, has);
  t.llvmFeatures = features.getString();
  return t;
}

support::Expected<LibraryTarget> libraryTarget(const std::string& arch, const std::string& cpu) {
  if (arch == "x86") return x86Target(cpu.empty() ? "native" : cpu);
  if (arch == "aarch64")
    return armTarget("aarch64-unknown-linux-gnu", cpu.empty() || cpu == "native" ? "cortex-a53" : cpu, "", 32,
                     {{"neon", "asimd"}, {"dotprod", "asimddp"}});
  if (arch == "cuda") {  // PTX for the GPU's compute capability
    LibraryTarget t;
    t.triple = "nvptx64-nvidia-cuda", t.cpu = cpu.empty() || cpu == "native" ? "sm_80" : cpu;
    t.shape = CpuShape{4, 16};
    if (t.cpu.rfind("sm_", 0) != 0) return error(Location(), "--cpu '" + cpu + "': expected a compute capability such as sm_80");
    return t;
  }
  if (arch == "armv7")  // the Zynq-7000's Cortex-A9 cores have NEON, which the core itself leaves optional
    return armTarget("armv7-unknown-linux-gnueabihf", cpu.empty() || cpu == "native" ? "cortex-a9" : cpu, "+neon", 16,
                     {{"neon", "neon"}, {"vfp3", "vfpv3"}});
  return error(Location(), "no host code for '" + arch + "': expected x86, aarch64, armv7 or cuda");
}

support::Expected<std::vector<uint8_t>> buildSharedLibrary(HostModule m, const LibraryTarget& t, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(auto tm, machineFor(t.triple, t.cpu, t.llvmFeatures, name));
  llvm::Module& mod = *m.impl().module;
  mod.setDataLayout(tm->createDataLayout());
  mod.setTargetTriple(t.triple);
  ACCELC_TRY(verifyAndOptimize(mod, name));
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CGFT_ObjectFile))
    return error(Location::file(name), "LLVM cannot emit an object file for " + t.triple);
  pm.run(mod);
  // Link in a folder of our own: the object, the library, and the linker's log.
  char dirTemplate[] = "/tmp/accelc-host-XXXXXX";
  if (!::mkdtemp(dirTemplate)) return error(Location::file(name), "cannot make a folder to link the host code in");
  const std::string dir = dirTemplate, obj = dir + "/kernels.o", lib = dir + "/kernels.so", log = dir + "/ld.log";
  std::ofstream(obj, std::ios::binary).write(object.data(), static_cast<std::streamsize>(object.size()));
  // powf resolves where the library is loaded: libm on x86-64
  // is a needed library; on ARM the process that loads it has libm already
  // (this machine holds no ARM libm to link against unless cross-built).
  const bool x86 = t.triple.rfind("x86_64", 0) == 0;
  const std::string cmd = "ld.lld-14 -shared -o '" + lib + "' '" + obj + "'" +
                          (x86 ? " -L/usr/lib/x86_64-linux-gnu -lm" : "") + " > '" + log + "' 2>&1";
  const bool linked = std::system(cmd.c_str()) == 0;
  std::vector<uint8_t> bytes = linked ? readBytes(lib) : std::vector<uint8_t>{};
  const std::string why = linked ? "" : support::lastLines(log, 5);
  std::system(("rm -rf '" + dir + "'").c_str());
  if (!linked || bytes.empty())
    return error(Location::file(name), "ld.lld-14 could not link the host code (scripts/bootstrap.sh installs lld-14): " + why);
  return bytes;
}

namespace {

/// The PTX of `b`'s host steps: every chain a loop kernel, each stage a kernel entry.
support::Expected<runtime::HostCode> compilePtx(const runtime::Bundle& b, const LibraryTarget& t, const std::string& name) {
  HostModule m;
  ACCELC_ASSIGN_OR_RETURN(runtime::HostCode code, hostCodeFor(b, t.shape, m, name, false));
  code.triple = t.triple, code.cpu = t.cpu;
  if (code.kernels.empty()) return code;
  std::vector<std::string> stages;
  for (runtime::KernelCode& k : code.kernels)
    for (runtime::StageCode& s : k.stages) stages.push_back(s.symbol), s.symbol += "_gpu";
  ACCELC_ASSIGN_OR_RETURN(std::string ptx, modulePtx(std::move(m), stages, t.cpu, name));
  code.library.assign(ptx.begin(), ptx.end());
  code.libraryHash = runtime::libraryHash(code.library);
  return code;
}

}  // namespace

support::Expected<runtime::HostCode> compileHostCode(const runtime::Bundle& b, const LibraryTarget& t,
                                                     const std::string& name) {
  if (t.triple.rfind("nvptx64", 0) == 0) return compilePtx(b, t, name);
  HostModule m;
  ACCELC_ASSIGN_OR_RETURN(runtime::HostCode code, hostCodeFor(b, t.shape, m, name));
  code.triple = t.triple, code.cpu = t.cpu, code.features = t.features;
  // The tile state is asked of Linux before the code loads: only where the code uses it.
  if (!m.usesAmx())
    code.features.erase(std::remove_if(code.features.begin(), code.features.end(),
                                       [](const std::string& f) { return f.rfind("amx_", 0) == 0; }),
                        code.features.end());
  if (code.kernels.empty()) return code;
  ACCELC_ASSIGN_OR_RETURN(code.library, buildSharedLibrary(std::move(m), t, name));
  code.libraryHash = runtime::libraryHash(code.library);
  return code;
}

}  // namespace accelc::compiler::host
