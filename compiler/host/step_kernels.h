// compiler/host/step_kernels.h — generated kernels for a bundle's host steps.
//
// A host step becomes one fused elementwise chain (elementwise.h) when it is a
// float32 Add, Sub, Mul, Div, Pow, Relu, Sigmoid, Tanh, Erf, Sqrt or Gelu
// (either form) whose every input has the output's element count or a single
// element; the JIT compiles it, and the executor runs it in place of the
// reference kernel (runtime/host_kernels.h). Every other host step keeps its
// reference kernel. The chains compute what the reference kernels compute,
// bit for bit.
#ifndef ACCELC_COMPILER_HOST_STEP_KERNELS_H_
#define ACCELC_COMPILER_HOST_STEP_KERNELS_H_

#include <optional>

#include "compiler/host/jit.h"
#include "runtime/bundle.h"
#include "runtime/host_kernels.h"

namespace accelc::compiler::host {

/// The chain of host step `s` of `b`, when it has one.
std::optional<EwKernel> stepChain(const runtime::Bundle& b, const runtime::Step& s);

/// Kernels for every host step of `b` with a chain, compiled by `jit`; `name` locates errors.
support::Expected<runtime::HostKernels> generatedHostKernels(const runtime::Bundle& b, HostJit& jit,
                                                             const std::string& name);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_STEP_KERNELS_H_
