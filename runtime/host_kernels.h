// runtime/host_kernels.h — kernels for a bundle's host steps other than the
// reference ones.
//
// The runtime runs a host step on its reference kernel (runtime/ops.h) unless
// the caller hands the executor another kernel for that step: generated host
// code (compiler/host compiles them with LLVM). A kernel keeps runOp's
// contract: it fills the step's outputs from its inputs, or fails with a
// located diagnostic. The runtime itself never links LLVM.
#ifndef ACCELC_RUNTIME_HOST_KERNELS_H_
#define ACCELC_RUNTIME_HOST_KERNELS_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "runtime/tensor.h"
#include "support/status.h"

namespace accelc::runtime {

/// One host step's kernel. A kernel may also compute the `fuses` host steps
/// that follow its step (an elementwise chain fused into it): it then reads
/// the inputs of all of them, in step order, with null for an omitted input
/// and for every value one of those steps computes, and writes the outputs
/// of the last; the values computed in between are never stored, so nothing
/// outside those steps may read them. An output may arrive holding a tensor
/// from an earlier run, whose memory the kernel may reuse when its type and
/// shape fit (its contents mean nothing).
struct HostKernel {
  std::string kind;  ///< what runs it, for reports ("jit x86-64")
  std::function<support::Status(const std::vector<const Tensor*>& inputs, std::vector<Tensor>& outputs)> run;
  size_t fuses = 0;  ///< following steps it computes too
};

/// Kernels by bundle step index; every other host step runs on its reference kernel.
using HostKernels = std::map<size_t, HostKernel>;

/// What runs a host step that has no generated kernel.
inline constexpr const char* kReferenceKernel = "reference";

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_HOST_KERNELS_H_
