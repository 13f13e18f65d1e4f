// compiler/host/nn_kernels.h — the float32 loop kernels of convolutions,
// matrix products and pools, with the schedules they run under.
//
// Each builder takes the op's attributes and its static shapes and returns a
// LoopKernel (the algorithm) and a KernelSchedule (how it runs on a CPU with
// the given vector width), or nullopt when the shapes or attributes fall
// outside what the kernel covers (the step then keeps its reference kernel):
// - Conv (1-D and 2-D, any padding, stride, dilation and groups): depthwise
//   convolutions as one direct stage over the output rows; the others as an
//   im2col copy per (image, group) and a register-tiled matrix product whose
//   epilogue adds the bias (a 1x1 convolution without stride or padding reads
//   its input in place);
// - Gemm (transA, transB, alpha, beta, C broadcast to the output) and MatMul
//   (batched, numpy broadcasting over the batch dimensions);
// - MaxPool (one output), AveragePool (ceil_mode, count_include_pad; no
//   dilation with count_include_pad) and GlobalAveragePool, 1-D and 2-D.
// - Softmax, LayerNormalization and ReduceMean, as reductions into
//   temporaries and a stage that reads them;
// - elementwise chains over inputs that broadcast to the output.
// Buffers come in the step's order: inputs, then the output, then temporaries.
#ifndef ACCELC_COMPILER_HOST_NN_KERNELS_H_
#define ACCELC_COMPILER_HOST_NN_KERNELS_H_

#include <functional>
#include <optional>

#include "compiler/host/elementwise.h"
#include "compiler/host/loop_ir.h"
#include "runtime/attrs.h"
#include "runtime/ops.h"
#include "runtime/tensor.h"

namespace accelc::compiler::host {

/// What the schedules are shaped for.
struct CpuShape {
  int vectorWidth = 8;  ///< floats per vector register (16 with AVX-512)
  int registers = 16;   ///< vector registers (32 with AVX-512)
  bool vnni = false;    ///< x86's vpdpbusd at this vector width (AVX512-VNNI; AVX-VNNI at 8 lanes)
  bool pmaddwd =
      false;  ///< x86's vpmaddwd at this vector width (AVX2, AVX512-BW): without VNNI, Dot2 sums, or Dot4 as two
  /// x86's AMX-INT8 tiles (tdpbusd, tdpbssd; with AVX-512): the dense int8 products (QGemm, QConv) run on them.
  bool amx = false;
  /// Whether int8 products run over words: 4 bytes (Dot4) with vpdpbusd, or pairs of halves (Dot2) with vpmaddwd.
  bool wordProducts() const { return vnni || pmaddwd; }
};

/// The shape of x86-64 code, from whether it uses AVX-512 and which of LLVM's features its target has.
CpuShape x86CpuShape(bool avx512, const std::function<bool(const char*)>& has);

/// A kernel and its schedule.
struct KernelPlan {
  LoopKernel kernel;
  KernelSchedule schedule;
};

/// With `constWeights` (w a constant of the bundle), what depends on w alone is computed on the first run.
std::optional<KernelPlan> convPlan(const runtime::ConvAttrs& a, const runtime::Shape& x, const runtime::Shape& w,
                                   bool bias, const CpuShape& cpu, bool constWeights = false);
/// With `constB` (B a constant of the bundle), B is packed once into panels that the product walks straight
/// through (its columns of whole vectors; the last few, a plain product reading B's rows; a transposed B only
/// where whole vectors divide its columns; MatMul: where one B serves every batch); a MatMul of 64 rows or
/// more packs any B, at every batch point.
std::optional<KernelPlan> gemmPlan(const runtime::GemmAttrs& a, const runtime::Shape& A, const runtime::Shape& B,
                                   const runtime::Shape* C, const runtime::Shape& y, const CpuShape& cpu,
                                   bool constB = false);
std::optional<KernelPlan> matmulPlan(const runtime::Shape& A, const runtime::Shape& B, const runtime::Shape& y,
                                     const CpuShape& cpu, bool constB = false);
/// An elementwise chain whose inputs broadcast (numpy's rules) to `out`: one
/// stage over the output's dimensions (adjacent ones merged where every input
/// allows), each input read with stride 0 along its broadcast dimensions.
std::optional<KernelPlan> broadcastPlan(const EwKernel& chain, const std::vector<runtime::Shape>& inputs,
                                        const runtime::Shape& out, const CpuShape& cpu);
/// Softmax along its axis (or, legacy, over every axis from it): the row's
/// max, the sum of exp(x - max), then exp(x - max) / sum, in float (the
/// reference sums in double; the float tolerance covers it).
std::optional<KernelPlan> softmaxPlan(const runtime::SoftmaxAttrs& a, const runtime::Shape& x, const CpuShape& cpu);
/// LayerNormalization (one output): the mean, the inverse deviation
/// 1 / sqrt(var + epsilon), then (x - mean) · inv · scale + bias.
std::optional<KernelPlan> layerNormPlan(const runtime::NormAttrs& a, const runtime::Shape& x, bool bias,
                                        const CpuShape& cpu);
/// ReduceMean over the attribute's axes (not axes given as an input).
std::optional<KernelPlan> reduceMeanPlan(const runtime::ReduceAttrs& a, const runtime::Shape& x, const CpuShape& cpu);
/// MaxPool, AveragePool or GlobalAveragePool (`a` is ignored for the last);
/// MaxPool over int8 or uint8 too (`type`).
std::optional<KernelPlan> poolPlan(runtime::OpKind k, const runtime::PoolAttrs& a, const runtime::Shape& x,
                                   const CpuShape& cpu, support::DType type = support::DType::kFloat32);

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_NN_KERNELS_H_
