// compiler/host/step_kernels.cc — host steps as chains, compiled and wrapped.
#include "compiler/host/step_kernels.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "compiler/host/compiled_kernel.h"
#include "compiler/host/int_kernels.h"
#include "runtime/host_code.h"
#include "compiler/host/fusion.h"

namespace accelc::compiler::host {

namespace {

using runtime::OpKind;

/// The single-operation chains, by op kind.
std::optional<EwOp> binaryOp(OpKind k) {
  const std::pair<OpKind, EwOp> ops[] = {{OpKind::kAdd, EwOp::kAdd}, {OpKind::kSub, EwOp::kSub}, {OpKind::kMul, EwOp::kMul},
                                         {OpKind::kDiv, EwOp::kDiv}, {OpKind::kPow, EwOp::kPow}, {OpKind::kMin, EwOp::kMin},
                                         {OpKind::kMax, EwOp::kMax}};
  for (const auto& [op, ew] : ops)
    if (op == k) return ew;
  return std::nullopt;
}

std::optional<EwOp> unaryOp(OpKind k) {
  const std::pair<OpKind, EwOp> ops[] = {{OpKind::kRelu, EwOp::kRelu}, {OpKind::kSigmoid, EwOp::kSigmoid},
                                         {OpKind::kTanh, EwOp::kTanh}, {OpKind::kErf, EwOp::kErf},
                                         {OpKind::kSqrt, EwOp::kSqrt}, {OpKind::kExp, EwOp::kExp}};
  for (const auto& [op, ew] : ops)
    if (op == k) return ew;
  return std::nullopt;
}

/// Gelu as the reference writes it (runtime/kernels/activation.cc): the erf
/// form 0.5 x (1 + erf(x / sqrt 2)), or the tanh form
/// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), each operation in its order.
void gelu(EwKernel& k, int x, bool tanhForm) {
  int inner;
  if (tanhForm) {
    const int cube = k.binary(EwOp::kMul, k.binary(EwOp::kMul, k.binary(EwOp::kMul, k.constant(0.044715f), x), x), x);
    inner = k.unary(EwOp::kTanh, k.binary(EwOp::kMul, k.constant(0.7978845608028654f), k.binary(EwOp::kAdd, x, cube)));
  } else {
    inner = k.unary(EwOp::kErf, k.binary(EwOp::kMul, x, k.constant(0.7071067811865476f)));
  }
  k.binary(EwOp::kMul, k.binary(EwOp::kMul, k.constant(0.5f), x), k.binary(EwOp::kAdd, k.constant(1.0f), inner));
}

/// max(0, min(1, v)) in std::max/std::min's order, as the reference's HardSigmoid and HardSwish clamp.
int unitClamp(EwKernel& k, int v) {
  return k.binary(EwOp::kMax, k.constant(0.0f), k.binary(EwOp::kMin, k.constant(1.0f), v));
}

/// The chain of one op over chain inputs `in`; false when the op has none.
bool opChain(EwKernel& k, const runtime::Step& s, const std::vector<int>& in) {
  if (std::optional<EwOp> op = binaryOp(s.op); op && in.size() == 2) {
    k.binary(*op, in[0], in[1]);
  } else if (std::optional<EwOp> u = unaryOp(s.op); u && in.size() == 1) {
    k.unary(*u, in[0]);
  } else if (s.op == OpKind::kGelu && in.size() == 1) {
    gelu(k, in[0], std::get<runtime::GeluAttrs>(s.attrs).approximate == runtime::GeluApprox::kTanh);
  } else if (s.op == OpKind::kHardSigmoid && in.size() == 1) {  // max(0, min(1, alpha x + beta))
    const auto& ab = std::get<runtime::AlphaBetaAttrs>(s.attrs);
    unitClamp(k, k.binary(EwOp::kAdd, k.binary(EwOp::kMul, k.constant(ab.alpha), in[0]), k.constant(ab.beta)));
  } else if (s.op == OpKind::kHardSwish && in.size() == 1) {  // x max(0, min(1, x / 6 + 0.5))
    k.binary(EwOp::kMul, in[0],
             unitClamp(k, k.binary(EwOp::kAdd, k.binary(EwOp::kDiv, in[0], k.constant(6.0f)), k.constant(0.5f))));
  } else {
    return false;
  }
  return true;
}

/// Clip(x, lo, hi) = min(max(x, lo), hi), an omitted bound the type's extreme.
bool clipChain(EwKernel& k, const runtime::Step& s) {
  if (s.op != OpKind::kClip || s.inputs.empty() || s.inputs[0] < 0) return false;
  int x = k.input(0), next = 1;  // inputs are numbered over the present ones
  int lo = -1, hi = -1;
  for (size_t i = 1; i < s.inputs.size() && i < 3; ++i)
    if (s.inputs[i] >= 0) (i == 1 ? lo : hi) = k.input(next++, true);
  if (lo < 0) lo = k.constant(std::numeric_limits<float>::lowest());
  if (hi < 0) hi = k.constant(std::numeric_limits<float>::max());
  k.binary(EwOp::kMin, k.binary(EwOp::kMax, x, lo), hi);
  return true;
}

/// Whether `in` broadcasts to `out` under numpy's rules.
bool broadcasts(const runtime::Shape& in, const runtime::Shape& out) {
  if (in.size() > out.size()) return false;
  for (size_t d = 0; d < in.size(); ++d) {
    const int64_t i = in[in.size() - 1 - d], o = out[out.size() - 1 - d];
    if (i != 1 && i != o) return false;
  }
  return true;
}

/// Whether slot `id` holds a constant: a value no step writes and no input of the bundle.
bool constantSlot(const runtime::Bundle& b, int id) {
  for (int in : b.inputs)
    if (in == id) return false;
  for (const runtime::Step& s : b.steps)
    for (int out : s.outputs)
      if (out == id) return false;
  return true;
}

/// The values of int64 or int32 constant slot `id` (bundle constants hold them at its address), or nullopt.
std::optional<runtime::Ints> constantInts(const runtime::Bundle& b, int id) {
  const runtime::TensorSlot& s = b.tensors[static_cast<size_t>(id)];
  const bool wide = s.dtype == support::DType::kInt64;
  if ((!wide && s.dtype != support::DType::kInt32) || s.blocked || !constantSlot(b, id)) return std::nullopt;
  for (const runtime::ConstantData& c : b.constants)
    if (c.addr <= s.addr && s.addr + s.bytes() <= c.addr + c.bytes.size()) {
      runtime::Ints v(static_cast<size_t>(support::shapeElements(s.shape)));
      const uint8_t* at = c.bytes.data() + (s.addr - c.addr);
      for (size_t i = 0; i < v.size(); ++i) {
        if (wide) {
          std::memcpy(&v[i], at + i * sizeof(int64_t), sizeof(int64_t));
        } else {
          int32_t w;
          std::memcpy(&w, at + i * sizeof(int32_t), sizeof(int32_t));
          v[i] = w;
        }
      }
      return v;
    }
  return std::nullopt;
}

/// A Slice whose starts, ends, axes and steps are constants of the bundle, as a copy.
std::optional<KernelPlan> slice(const runtime::Bundle& b, const runtime::Step& s,
                                const std::vector<const runtime::TensorSlot*>& in, const CpuShape& cpu) {
  std::vector<runtime::Ints> args(4);  // starts, ends, axes, steps (the last two may be omitted)
  std::vector<int64_t> unread;
  for (size_t i = 1; i < in.size() && i < 5; ++i) {
    if (!in[i]) continue;
    std::optional<runtime::Ints> v = constantInts(b, s.inputs[i]);
    if (!v || in[i]->dtype != support::DType::kInt64) return std::nullopt;
    args[i - 1] = *v, unread.push_back(support::shapeElements(in[i]->shape));
  }
  if (in.size() < 3 || !in[1] || !in[2]) return std::nullopt;
  runtime::SliceGeometry g;
  if (!runtime::sliceGeometry(in[0]->shape, args[0], args[1], args[2], args[3], g).empty()) return std::nullopt;
  return slicePlan(g, in[0]->shape, in[0]->dtype, unread, cpu);
}

/// A Split into the parts `outs`, whose shapes say where each begins (a sizes input, opset 13, is not read).
std::optional<KernelPlan> split(const runtime::Bundle& b, const runtime::Step& s,
                                const std::vector<const runtime::TensorSlot*>& in, const CpuShape& cpu) {
  std::vector<runtime::Shape> outs;
  for (int y : s.outputs) {
    const runtime::TensorSlot& t = b.tensors[static_cast<size_t>(y)];
    if (t.blocked || t.dtype != in[0]->dtype) return std::nullopt;
    outs.push_back(t.shape);
  }
  std::vector<int64_t> unread;
  if (in.size() > 1 && in[1]) {
    if (in[1]->dtype != support::DType::kInt64) return std::nullopt;
    unread.push_back(support::shapeElements(in[1]->shape));
  }
  return splitPlan(std::get<runtime::SplitAttrs>(s.attrs).axis, in[0]->shape, outs, in[0]->dtype, unread, cpu);
}

/// A Gather whose indices are a constant of the bundle, as strided copies.
std::optional<KernelPlan> gather(const runtime::Bundle& b, const runtime::Step& s,
                                 const std::vector<const runtime::TensorSlot*>& in, const CpuShape& cpu) {
  if (in.size() != 2 || !in[1]) return std::nullopt;
  std::optional<runtime::Ints> idx = constantInts(b, s.inputs[1]);
  if (!idx) return std::nullopt;
  return gatherPlan(std::get<runtime::AxisAttrs>(s.attrs).axis, in[0]->shape, *idx,
                    support::shapeElements(in[1]->shape), in[1]->dtype, in[0]->dtype, cpu);
}

/// Whether every slot in `in` from `first` on is present and of type `t`.
bool allOf(const std::vector<const runtime::TensorSlot*>& in, size_t first, support::DType t) {
  for (size_t i = first; i < in.size(); ++i)
    if (!in[i] || in[i]->dtype != t) return false;
  return true;
}

/// The kernels of the integer ops, quantization and copies, which check their
/// own types (the buffers take the slots' types); nullopt for any other op.
std::optional<KernelPlan> typedPlan(const runtime::Bundle& b, const runtime::Step& s,
                                    const std::vector<const runtime::TensorSlot*>& in, const runtime::TensorSlot& out,
                                    const CpuShape& cpu) {
  using support::DType;
  const runtime::Shape& x = in[0]->shape;
  const DType xt = in[0]->dtype;
  const OpKind op = s.op;
  if (op == OpKind::kQConv || op == OpKind::kQGemm) {
    if (in.size() != 5 || xt != DType::kInt8 || !in[1] || in[1]->dtype != DType::kInt8 ||
        !allOf(in, 2, DType::kInt32) || out.dtype != DType::kInt8)
      return std::nullopt;
    return qconvPlan(op, std::get<runtime::QConvAttrs>(s.attrs), x, in[1]->shape, cpu, constantSlot(b, s.inputs[1]));
  }
  if (op == OpKind::kQAdd) {
    if (!allOf(in, 0, DType::kInt8) || in.size() != 2 || in[1]->shape != x || out.dtype != DType::kInt8)
      return std::nullopt;
    return qaddPlan(std::get<runtime::QAddAttrs>(s.attrs), x, cpu);
  }
  if (op == OpKind::kQAveragePool || op == OpKind::kIm2col) {
    if (xt != DType::kInt8 || out.dtype != DType::kInt8) return std::nullopt;
    if (op == OpKind::kIm2col) return im2colPlan(std::get<runtime::Im2colAttrs>(s.attrs), x, cpu);
    return qavgpoolPlan(std::get<runtime::QPoolAttrs>(s.attrs), x, cpu);
  }
  if ((op == OpKind::kQClip || op == OpKind::kQHardSigmoid || op == OpKind::kQHardSwish) && in.size() == 1) {
    if (xt != DType::kInt8 || out.dtype != DType::kInt8) return std::nullopt;
    if (op == OpKind::kQHardSwish) return qhardswishPlan(std::get<runtime::QHardSwishAttrs>(s.attrs), x, cpu);
    return qrescalePlan(std::get<runtime::QRescaleAttrs>(s.attrs), x, cpu);
  }
  if (op == OpKind::kQMul) {
    if (in.size() != 2 || !allOf(in, 0, DType::kInt8) || out.dtype != DType::kInt8 || !broadcasts(x, out.shape) ||
        !broadcasts(in[1]->shape, out.shape))
      return std::nullopt;
    return qmulPlan(std::get<runtime::QMulAttrs>(s.attrs), x, in[1]->shape, out.shape, cpu);
  }
  if (op == OpKind::kQMatMul) {
    if (in.size() != 2 || !allOf(in, 0, DType::kInt8) || out.dtype != DType::kInt8) return std::nullopt;
    return qmatmulPlan(std::get<runtime::QMulAttrs>(s.attrs), x, in[1]->shape, cpu);
  }
  if (op == OpKind::kQConcat) {
    if (!allOf(in, 0, DType::kInt8) || out.dtype != DType::kInt8) return std::nullopt;
    std::vector<runtime::Shape> shapes;
    for (const runtime::TensorSlot* t : in) shapes.push_back(t->shape);
    return qconcatPlan(std::get<runtime::QConcatAttrs>(s.attrs), shapes, cpu);
  }
  const bool zp = in.size() > 2 && in[2];
  if (op == OpKind::kQuantizeLinear) {
    if (xt != DType::kFloat32 || !in[1] || in[1]->dtype != DType::kFloat32 ||
        (zp && (in[2]->dtype != out.dtype || in[2]->shape != in[1]->shape)))
      return std::nullopt;
    return quantizePlan(std::get<runtime::AxisAttrs>(s.attrs), x, in[1]->shape,
                        zp ? std::optional<DType>(out.dtype) : std::nullopt, cpu);
  }
  if (op == OpKind::kDequantizeLinear) {
    if (!in[1] || in[1]->dtype != DType::kFloat32 || (zp && (in[2]->dtype != xt || in[2]->shape != in[1]->shape)) ||
        out.dtype != DType::kFloat32)
      return std::nullopt;
    return dequantizePlan(std::get<runtime::AxisAttrs>(s.attrs), x, xt, in[1]->shape, zp, cpu);
  }
  if (out.dtype != xt) return std::nullopt;
  if (op == OpKind::kMaxPool && xt != DType::kFloat32 && in.size() == 1)
    return poolPlan(op, std::get<runtime::PoolAttrs>(s.attrs), x, cpu, xt);
  if ((op == OpKind::kFlatten || op == OpKind::kIdentity) && in.size() == 1)
    return copyPlan(support::shapeElements(x), xt, cpu);
  if (op == OpKind::kReshape && in.size() == 2 && in[1] && in[1]->dtype == DType::kInt64)
    return copyPlan(support::shapeElements(x), xt, cpu, {support::shapeElements(in[1]->shape)});
  if (op == OpKind::kSlice) return slice(b, s, in, cpu);
  if (op == OpKind::kGather) return gather(b, s, in, cpu);
  if (op == OpKind::kTranspose) return transposePlan(std::get<runtime::PermAttrs>(s.attrs), x, xt, cpu);
  if (op == OpKind::kConcat && allOf(in, 0, xt)) {
    std::vector<runtime::Shape> shapes;
    for (const runtime::TensorSlot* t : in) shapes.push_back(t->shape);
    return concatPlan(std::get<runtime::AxisAttrs>(s.attrs), shapes, xt, cpu);
  }
  return std::nullopt;
}

}  // namespace

bool generatesKernel(OpKind k) {
  if (binaryOp(k) || unaryOp(k)) return true;
  for (OpKind g : {OpKind::kGelu, OpKind::kHardSigmoid, OpKind::kHardSwish, OpKind::kClip, OpKind::kConv,
                   OpKind::kGemm, OpKind::kMatMul, OpKind::kMaxPool, OpKind::kAveragePool, OpKind::kGlobalAveragePool,
                   OpKind::kSoftmax, OpKind::kLayerNormalization, OpKind::kReduceMean, OpKind::kQConv, OpKind::kQGemm,
                   OpKind::kQAdd, OpKind::kQAveragePool, OpKind::kQClip, OpKind::kQHardSigmoid, OpKind::kQHardSwish,
                   OpKind::kQMul, OpKind::kQMatMul, OpKind::kQConcat, OpKind::kIm2col, OpKind::kQuantizeLinear,
                   OpKind::kDequantizeLinear, OpKind::kFlatten, OpKind::kIdentity, OpKind::kReshape, OpKind::kSlice,
                   OpKind::kGather, OpKind::kSplit, OpKind::kTranspose, OpKind::kConcat})
    if (k == g) return true;
  return false;
}

std::optional<EwKernel> stepChain(const runtime::Bundle& b, const runtime::Step& s) {
  if (s.kind != runtime::Step::Kind::kHost || s.outputs.size() != 1) return std::nullopt;
  const runtime::TensorSlot& out = b.tensors[static_cast<size_t>(s.outputs[0])];
  if (out.dtype != support::DType::kFloat32 || out.blocked) return std::nullopt;
  EwKernel k;
  for (int id : s.inputs) k.numInputs += id >= 0;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    if (s.inputs[i] < 0) {
      if (s.op == OpKind::kClip && i > 0) continue;  // an omitted bound
      return std::nullopt;
    }
    const runtime::TensorSlot& t = b.tensors[static_cast<size_t>(s.inputs[i])];
    if (t.dtype != support::DType::kFloat32 || t.blocked || !broadcasts(t.shape, out.shape)) return std::nullopt;
  }
  if (clipChain(k, s)) {
    for (size_t i = 1; i < s.inputs.size(); ++i)  // the reference takes one-element bounds only
      if (s.inputs[i] >= 0 && support::shapeElements(b.tensors[static_cast<size_t>(s.inputs[i])].shape) != 1)
        return std::nullopt;
    return k;
  }
  std::vector<int> in;
  for (size_t i = 0; i < s.inputs.size(); ++i) in.push_back(k.input(static_cast<int>(i)));
  if (!opChain(k, s, in)) return std::nullopt;
  return k;
}

std::optional<KernelPlan> stepPlan(const runtime::Bundle& b, const runtime::Step& s, const CpuShape& cpu) {
  if (s.kind != runtime::Step::Kind::kHost || s.outputs.empty()) return std::nullopt;
  std::vector<const runtime::TensorSlot*> in;
  for (int t : s.inputs) {
    in.push_back(t < 0 ? nullptr : &b.tensors[static_cast<size_t>(t)]);
    if (in.back() && in.back()->blocked) return std::nullopt;
  }
  if (in.empty() || !in[0]) return std::nullopt;
  if (s.op == OpKind::kSplit) return split(b, s, in, cpu);  // the one op of several outputs
  const runtime::TensorSlot& out = b.tensors[static_cast<size_t>(s.outputs[0])];
  if (s.outputs.size() != 1 || out.blocked) return std::nullopt;
  if (std::optional<KernelPlan> p = typedPlan(b, s, in, out, cpu)) return p;
  for (const runtime::TensorSlot* t : in)
    if (t && t->dtype != support::DType::kFloat32) return std::nullopt;
  if (out.dtype != support::DType::kFloat32) return std::nullopt;
  auto has = [&](size_t i) { return i < in.size() && in[i]; };
  const runtime::Shape& x = in[0]->shape;
  const bool two = has(1);
  if (s.op == OpKind::kConv && two)
    return convPlan(std::get<runtime::ConvAttrs>(s.attrs), x, in[1]->shape, has(2), cpu, constantSlot(b, s.inputs[1]));
  if (s.op == OpKind::kGemm && two)
    return gemmPlan(std::get<runtime::GemmAttrs>(s.attrs), x, in[1]->shape, has(2) ? &in[2]->shape : nullptr, out.shape,
                    cpu, constantSlot(b, s.inputs[1]));
  if (s.op == OpKind::kMatMul && two) return matmulPlan(x, in[1]->shape, out.shape, cpu, constantSlot(b, s.inputs[1]));
  if (s.op == OpKind::kMaxPool || s.op == OpKind::kAveragePool)
    return poolPlan(s.op, std::get<runtime::PoolAttrs>(s.attrs), x, cpu);
  if (s.op == OpKind::kGlobalAveragePool) return poolPlan(s.op, runtime::PoolAttrs{}, x, cpu);
  if (s.op == OpKind::kSoftmax) return softmaxPlan(std::get<runtime::SoftmaxAttrs>(s.attrs), x, cpu);
  if (s.op == OpKind::kLayerNormalization && two)
    return layerNormPlan(std::get<runtime::NormAttrs>(s.attrs), x, has(2), cpu);
  if (s.op == OpKind::kReduceMean && in.size() == 1)
    return reduceMeanPlan(std::get<runtime::ReduceAttrs>(s.attrs), x, cpu);
  return std::nullopt;  // no loop kernel for this op
}

namespace {

/// Builds the code of a bundle's host steps: each kernel's IR into one
/// module, and how the runtime runs it.
struct CodeMaker {
  const runtime::Bundle& b;
  HostModule& module;
  const std::string& name;
  EwSchedule schedule;
  CpuShape cpu;
  bool flatChains;
  runtime::HostCode code;

  /// The code of group `g` (one step, or a fused run), when it has one.
  support::Expected<bool> make(const StepGroup& g) {
    const runtime::Step& s = b.steps[g.first];
    const std::string where = name + ":" + s.name, symbol = "accelc_step" + std::to_string(g.first);
    runtime::KernelCode k;
    k.step = static_cast<uint32_t>(g.first), k.fuses = static_cast<uint32_t>(g.last - g.first);
    for (int y : b.steps[g.last].outputs) k.outputs.push_back(b.tensors[static_cast<size_t>(y)].shape);
    const std::vector<int> ids = groupInputs(b, g);
    std::vector<int64_t> present;  // the present inputs' element counts
    for (int t : ids) {
      k.sizes.push_back(t < 0 ? -1 : support::shapeElements(b.tensors[static_cast<size_t>(t)].shape));
      if (t >= 0) present.push_back(k.sizes.back());
    }
    std::optional<KernelPlan> plan;
    if (stepChain(b, s)) {
      std::optional<EwKernel> chain = groupChain(b, g, false);
      if (!chain) return false;
      const int64_t n = support::shapeElements(k.outputs[0]);
      if (flatChains && std::all_of(present.begin(), present.end(), [&](int64_t m) { return m == n || m == 1; })) {
        for (EwNode& node : chain->nodes)  // one-element inputs broadcast on the flat path
          if (node.op == EwOp::kInput) node.scalar = present[static_cast<size_t>(node.input)] != n;
        ACCELC_TRY(module.addChain(*chain, schedule, symbol, where));
        k.chain = symbol;
        code.kernels.push_back(std::move(k));
        return true;
      }
      std::vector<runtime::Shape> shapes;
      for (int t : ids)
        if (t >= 0) shapes.push_back(b.tensors[static_cast<size_t>(t)].shape);
      plan = broadcastPlan(*chain, shapes, k.outputs[0], cpu);
    } else {
      plan = stepPlan(b, s, cpu);
      if (plan && g.last > g.first) {
        std::optional<EwKernel> chain = groupChain(b, g, true);
        if (!chain) return false;
        size_t own = 0;
        for (int t : s.inputs) own += t >= 0;
        if (!fuseEpilogue(*plan, *chain, present, own)) return false;
      }
    }
    if (!plan) return false;
    runtime::KernelCode loops = loopKernelCode(plan->kernel, plan->schedule, symbol);
    std::vector<std::string> symbols;
    for (const runtime::StageCode& st : loops.stages) symbols.push_back(st.symbol);
    ACCELC_TRY(module.addLoops(plan->kernel, plan->schedule, symbols, where));
    k.buffers = std::move(loops.buffers), k.batch = std::move(loops.batch), k.stages = std::move(loops.stages);
    code.kernels.push_back(std::move(k));
    return true;
  }
};

}  // namespace

support::Expected<runtime::HostCode> hostCodeFor(const runtime::Bundle& b, const CpuShape& cpu, HostModule& module,
                                                 const std::string& name, bool flatChains) {
  CodeMaker maker{b, module, name, EwSchedule{cpu.vectorWidth, 2}, cpu, flatChains, {}};
  for (size_t i = 0; i < b.steps.size(); ++i) {
    const runtime::Step& s = b.steps[i];
    if (s.kind != runtime::Step::Kind::kHost || s.outputs.empty()) continue;
    StepGroup g = fusedGroup(b, i);  // the longest fused run first, then shorter ones, down to the step alone
    ACCELC_ASSIGN_OR_RETURN(bool made, maker.make(g));
    while (!made && g.last > i) {
      g = fusedGroup(b, i, g.last);
      ACCELC_ASSIGN_OR_RETURN(made, maker.make(g));
    }
    if (made) i = g.last;
  }
  return std::move(maker.code);
}

void noteHostKernels(runtime::Bundle& b) {
  std::vector<std::string> note(b.steps.size());
  for (const runtime::KernelCode& k : b.host.kernels) {
    note[k.step] = "generated kernel (" + b.host.triple + ")";
    for (uint32_t j = 1; j <= k.fuses; ++j)
      note[k.step + j] = "fused into the generated kernel of '" + b.steps[k.step].name + "'";
  }
  const std::vector<size_t> steps = runtime::layerSteps(b);
  for (size_t i = 0; i < b.layers.size(); ++i) {
    if (steps[i] >= b.steps.size() || b.steps[steps[i]].kind != runtime::Step::Kind::kHost) continue;
    const runtime::Step& s = b.steps[steps[i]];
    const std::string op = runtime::opInfo(s.op).name;
    const std::string& n = note[steps[i]];
    b.layers[i].why += "; " + (!n.empty() ? n
                               : generatesKernel(s.op)
                                   ? "reference kernel: this " + op + "'s types, shapes or attributes have no generated form"
                                   : "reference kernel: no generated kernel for " + op);
  }
}

CpuShape jitCpuShape(const HostJit& jit) {
  // The features as LLVM reads them: comma-separated, a later "-name" turning off an earlier "+name".
  const std::string f = "," + jit.features() + ",";
  auto has = [&](const char* name) {
    const size_t on = f.rfind(std::string(",+") + name + ","), off = f.rfind(std::string(",-") + name + ",");
    return on != std::string::npos && (off == std::string::npos || off < on);
  };
  return x86CpuShape(jit.usesAvx512(), has);
}

std::string jitKind(const HostJit& jit) {
  return std::string("jit x86-64") + (jit.usesAvx512() ? " avx512" : "") + (jit.usesAmx() ? " amx" : "");
}

support::Expected<runtime::HostKernels> generatedHostKernels(const runtime::Bundle& b, HostJit& jit,
                                                             const std::string& name,
                                                             std::shared_ptr<support::ThreadPool> pool) {
  HostModule module;
  ACCELC_ASSIGN_OR_RETURN(runtime::HostCode code, hostCodeFor(b, jitCpuShape(jit), module, name));
  if (code.kernels.empty()) return runtime::HostKernels{};
  ACCELC_TRY(jit.add(std::move(module), name));
  return runtime::hostKernelsOf(code, [&](const std::string& symbol) { return jit.lookup(symbol); }, jitKind(jit),
                                std::move(pool), name);
}

}  // namespace accelc::compiler::host
