// compiler/host/module_impl.h — the LLVM module inside a HostModule, and the
// optimization pipeline every host module runs (LLVM inside compiler/host only).
#ifndef ACCELC_COMPILER_HOST_MODULE_IMPL_H_
#define ACCELC_COMPILER_HOST_MODULE_IMPL_H_

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <string>

#include "compiler/host/jit.h"

namespace accelc::compiler::host {

struct HostModule::Impl {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module = std::make_unique<llvm::Module>("accelc_host", *context);
};

/// Verifies `m` (an error names `name`) and runs LLVM's O2 pipeline over it,
/// with `tm`'s passes and cost model when given; its data layout and triple
/// must be set first.
support::Status verifyAndOptimize(llvm::Module& m, const std::string& name, llvm::TargetMachine* tm = nullptr);

/// Every LLVM target registered, once.
void initTargets();
/// Whether LLVM knows `cpu` for `triple`; asked without making a machine,
/// since LLVM warns on stderr about an unknown CPU when it makes one.
bool knownCpu(const std::string& triple, const std::string& cpu);
/// A code generator for `triple`, `cpu` and LLVM's `features` string,
/// position-independent code (a shared library's); `name` locates errors.
support::Expected<std::unique_ptr<llvm::TargetMachine>> machineFor(const std::string& triple, const std::string& cpu,
                                                                  const std::string& features, const std::string& name);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_MODULE_IMPL_H_
