// compiler/host/step_kernels.h — generated kernels for a bundle's host steps.
//
// A host step becomes one fused elementwise chain (elementwise.h) when it is a
// float32 Add, Sub, Mul, Div, Pow, Relu, Sigmoid, Tanh, Erf, Sqrt or Gelu
// (either form) whose every input has the output's element count or a single
// element, and a loop kernel when one covers it: the float ops of
// nn_kernels.h, and the integer ops, quantization and copies of
// int_kernels.h (Split, the one step of several outputs, among them). The JIT
// or a library compiles it, and the executor runs it in place of the
// reference kernel (runtime/host_kernels.h). Every other host step keeps its
// reference kernel. The chains and the integer kernels compute what the
// reference kernels compute, bit for bit; the float loop kernels sum in
// another order (and with fma), within the float tolerance.
#ifndef ACCELC_COMPILER_HOST_STEP_KERNELS_H_
#define ACCELC_COMPILER_HOST_STEP_KERNELS_H_

#include <memory>
#include <optional>

#include "compiler/host/jit.h"
#include "compiler/host/nn_kernels.h"
#include "runtime/bundle.h"
#include "runtime/host_kernels.h"
#include "support/thread_pool.h"

namespace accelc::compiler::host {

/// Whether op `k` has a generated kernel in some form (each step's own form
/// decides: stepChain, stepPlan).
bool generatesKernel(runtime::OpKind k);

/// Adds to the reason of each of `b`'s host layers what runs it under
/// `b.host`: its generated kernel, the kernel it is fused into, or its
/// reference kernel and why.
void noteHostKernels(runtime::Bundle& b);

/// The chain of host step `s` of `b`, when it has one.
std::optional<EwKernel> stepChain(const runtime::Bundle& b, const runtime::Step& s);

/// The loop kernel of host step `s` of `b` (nn_kernels.h), when it has one.
std::optional<KernelPlan> stepPlan(const runtime::Bundle& b, const runtime::Step& s, const CpuShape& cpu);

/// The code of `b`'s host steps for a CPU of shape `cpu`: each kernel's IR
/// added to `module` (symbols accelc_step<N>...), and its description.
/// `flatChains` false makes every chain a loop kernel (a GPU runs only those).
support::Expected<runtime::HostCode> hostCodeFor(const runtime::Bundle& b, const CpuShape& cpu, HostModule& module,
                                                 const std::string& name, bool flatChains = true);
/// The shape of the JIT's CPU, and how reports name its code.
CpuShape jitCpuShape(const HostJit& jit);
std::string jitKind(const HostJit& jit);

/// Kernels for every host step of `b` with a chain or a loop kernel, compiled
/// by `jit`; loop kernels divide their parallel loops over `pool` when it is
/// not null (it must outlive the kernels). `name` locates errors.
support::Expected<runtime::HostKernels> generatedHostKernels(const runtime::Bundle& b, HostJit& jit,
                                                             const std::string& name,
                                                             std::shared_ptr<support::ThreadPool> pool = nullptr);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_STEP_KERNELS_H_
