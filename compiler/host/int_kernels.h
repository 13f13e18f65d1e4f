// compiler/host/int_kernels.h — loop kernels of the integer ops, of
// QuantizeLinear and DequantizeLinear, and of the ops that only move data.
//
// Each builder computes exactly what the op's reference kernel computes
// (runtime/kernels/qops.cc, quantize.cc, data_ops.cc): the integer ops'
// arithmetic is isa/arith.h's (loop_ir.h's AddSat, Mulq, Shrr; int32 sums
// wrap), so their outputs are the reference's bits. Like nn_kernels.h, a
// builder returns nullopt for shapes or types it does not cover, and the step
// keeps its reference kernel:
// - QConv (grouped: im2col and an int32 product; depthwise: direct, summed
//   in float where that is exact) and QGemm (the weights transposed into a
//   temporary), the requantization in the product's epilogue; on x86
//   (CpuShape::wordProducts) the products run over 4-byte words, with
//   vpdpbusd where the CPU has VNNI and as vpmaddwd pairs where it has not;
// - QAdd, flat; QAveragePool, a window of at most 65536 taps;
// - Im2col, the copy the accelerator's first convolution reads;
// - QuantizeLinear of float32 to int8 or uint8 and DequantizeLinear of int8
//   or uint8 to float32, per tensor or per axis;
// - Reshape, Flatten and Identity (one flat copy), Transpose, Concat and
//   Slice (with constant starts, ends, axes and steps), over float32, int8,
//   uint8 or int32.
// Buffers come in the step's order: inputs, the output, then temporaries.
#ifndef ACCELC_COMPILER_HOST_INT_KERNELS_H_
#define ACCELC_COMPILER_HOST_INT_KERNELS_H_

#include <optional>
#include <vector>

#include "compiler/host/nn_kernels.h"
#include "runtime/attrs.h"
#include "runtime/geometry.h"
#include "runtime/ops.h"
#include "runtime/tensor.h"

namespace accelc::compiler::host {

/// QConv (x [N,C,H,W], w [M,C/G,KH,KW]) or QGemm (x [N,K], w [M,K]); bias, mult and shift int32 [M].
/// With `constWeights` (w is a constant of the bundle), what depends on w
/// alone (its packed or transposed form) is computed on the first run only.
std::optional<KernelPlan> qconvPlan(runtime::OpKind k, const runtime::QConvAttrs& a, const runtime::Shape& x,
                                    const runtime::Shape& w, const CpuShape& cpu, bool constWeights = false);
std::optional<KernelPlan> qaddPlan(const runtime::QAddAttrs& a, const runtime::Shape& x, const CpuShape& cpu);
std::optional<KernelPlan> qavgpoolPlan(const runtime::QPoolAttrs& a, const runtime::Shape& x, const CpuShape& cpu);
std::optional<KernelPlan> im2colPlan(const runtime::Im2colAttrs& a, const runtime::Shape& x, const CpuShape& cpu);

/// QuantizeLinear of float32 x; `zeroPoint` is the zero point's type, or
/// nullopt when it is omitted (the output is then uint8).
std::optional<KernelPlan> quantizePlan(const runtime::AxisAttrs& a, const runtime::Shape& x, const runtime::Shape& scale,
                                       std::optional<support::DType> zeroPoint, const CpuShape& cpu);
/// DequantizeLinear of int8 or uint8 x (`type`), with or without a zero point.
std::optional<KernelPlan> dequantizePlan(const runtime::AxisAttrs& a, const runtime::Shape& x, support::DType type,
                                         const runtime::Shape& scale, bool zeroPoint, const CpuShape& cpu);

/// QClip and QHardSigmoid (one rescale with an offset, then a clamp), QHardSwish,
/// QMul of two int8 tensors under numpy's broadcast into `out`, and QConcat
/// (each input rescaled as it is copied), each bit for bit the reference's
/// (runtime/kernels/qelementwise.cc); nullopt for attributes the reference
/// refuses, which it reports.
std::optional<KernelPlan> qrescalePlan(const runtime::QRescaleAttrs& a, const runtime::Shape& x, const CpuShape& cpu);
std::optional<KernelPlan> qhardswishPlan(const runtime::QHardSwishAttrs& a, const runtime::Shape& x, const CpuShape& cpu);
std::optional<KernelPlan> qmulPlan(const runtime::QMulAttrs& a, const runtime::Shape& sa, const runtime::Shape& sb,
                                   const runtime::Shape& out, const CpuShape& cpu);
std::optional<KernelPlan> qconcatPlan(const runtime::QConcatAttrs& a, const std::vector<runtime::Shape>& inputs,
                                      const CpuShape& cpu);
/// QMatMul of int8 a [..., M, K] by int8 b [..., K, N], batch dimensions
/// broadcast as numpy's matmul: a wrapping int32 sum of (a - zero_a)(b - zero_b),
/// requantized as QMul's.
std::optional<KernelPlan> qmatmulPlan(const runtime::QMulAttrs& a, const runtime::Shape& sa, const runtime::Shape& sb,
                                      const CpuShape& cpu);

/// A flat copy of `elements` values of `type` (Reshape and its kin); `unread`
/// more inputs (a Reshape's shape: their element counts) are handed over and not read.
std::optional<KernelPlan> copyPlan(int64_t elements, support::DType type, const CpuShape& cpu,
                                   const std::vector<int64_t>& unread = {});
/// A Slice of x (`type`) whose starts, ends, axes and steps the compiler knew
/// (`g`); those inputs (`unread`, their element counts) are handed over and not read.
std::optional<KernelPlan> slicePlan(const runtime::SliceGeometry& g, const runtime::Shape& x, support::DType type,
                                    const std::vector<int64_t>& unread, const CpuShape& cpu);
std::optional<KernelPlan> transposePlan(const runtime::PermAttrs& a, const runtime::Shape& x, support::DType type,
                                        const CpuShape& cpu);
/// A Split of x (`type`) along `axis` into parts of shapes `outputs`, which
/// together cover the axis in order; `unread`: the sizes input (opset 13), not read.
std::optional<KernelPlan> splitPlan(int64_t axis, const runtime::Shape& x, const std::vector<runtime::Shape>& outputs,
                                    support::DType type, const std::vector<int64_t>& unread, const CpuShape& cpu);
/// A Gather of x (`type`) along `axis` at `indices` the compiler knew (a
/// constant of `indexElements` elements of `indexType`, handed over and not
/// read): each run of indices in arithmetic progression is one strided copy.
/// nullopt for an index out of range (the reference kernel reports it) or more
/// than 64 runs.
std::optional<KernelPlan> gatherPlan(int64_t axis, const runtime::Shape& x, const runtime::Ints& indices,
                                     int64_t indexElements, support::DType indexType, support::DType type,
                                     const CpuShape& cpu);
std::optional<KernelPlan> concatPlan(const runtime::AxisAttrs& a, const std::vector<runtime::Shape>& inputs,
                                     support::DType type, const CpuShape& cpu);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_INT_KERNELS_H_
