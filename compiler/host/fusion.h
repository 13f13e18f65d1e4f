// compiler/host/fusion.h — elementwise host steps fused into the kernel of
// the step before them.
//
// A group is a run of host steps one kernel computes: its first step has a
// generated kernel (a chain or a loop kernel), and each later step is an
// elementwise chain that reads what the run computed, with every other input
// holding the first step's element count, one element, or the output's
// trailing dimensions (a bias broadcast over rows). Every value the run
// computes, but its last step's output, must be read inside the run and be
// no output of the bundle, since the fused kernel never stores it (the
// executor's contract, runtime/host_kernels.h). A chain after a chain makes
// one longer chain; a chain after a loop kernel becomes the epilogue of its
// last stage, so a convolution's ReLU or HardSwish costs no pass over memory.
#ifndef ACCELC_COMPILER_HOST_FUSION_H_
#define ACCELC_COMPILER_HOST_FUSION_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/host/elementwise.h"
#include "compiler/host/nn_kernels.h"
#include "runtime/bundle.h"

namespace accelc::compiler::host {

/// Host steps [first, last] of a bundle.
struct StepGroup {
  size_t first = 0, last = 0;
};

/// The longest group that starts at step `first` and ends before step `below` (just that step when nothing
/// fuses). A group whose kernel cannot be made is retried ending before its last step.
StepGroup fusedGroup(const runtime::Bundle& b, size_t first, size_t below = SIZE_MAX);

/// The slots the group's kernel receives, in the executor's order: every
/// step's inputs, -1 for an omitted one and for a value the group computes.
std::vector<int> groupInputs(const runtime::Bundle& b, const StepGroup& g);

/// The group's chain over its present inputs, numbered in order. With
/// `firstIsAcc`, the first step's result is an extra input numbered after
/// them all (the loop kernel's folded value); else the first step is a chain.
std::optional<EwKernel> groupChain(const runtime::Bundle& b, const StepGroup& g, bool firstIsAcc);

/// Appends `chain` to the epilogue of `plan`'s last stage (of each stage that writes the output, where
/// several sums write disjoint parts of it and none reads it: a product's panels and its tail): its input
/// numbered `sizes.size()` is the stage's value, inputs [0, skip) are the
/// plan's own inputs (not read by the chain), and each other input i becomes
/// a new buffer of sizes[i] elements (the output's count, read where the
/// output is written, one element, or fewer: the output's trailing
/// dimensions, read where the output's index modulo sizes[i] is written),
/// placed before the output buffer. False (and `plan` unchanged) unless the
/// last stage writes the output (alone, or as above), in float32, and each input of fewer
/// elements is read at an index affine in the stage's axes (each axis moves
/// the output by a multiple of its count, or within it).
bool fuseEpilogue(KernelPlan& plan, const EwKernel& chain, const std::vector<int64_t>& sizes, size_t skip);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_FUSION_H_
