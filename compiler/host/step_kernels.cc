// compiler/host/step_kernels.cc — host steps as chains, compiled and wrapped.
#include "compiler/host/step_kernels.h"

#include <utility>

#include "compiler/host/compiled_kernel.h"

namespace accelc::compiler::host {

namespace {

using runtime::OpKind;

/// The single-operation chains, by op kind.
std::optional<EwOp> binaryOp(OpKind k) {
  const std::pair<OpKind, EwOp> ops[] = {{OpKind::kAdd, EwOp::kAdd}, {OpKind::kSub, EwOp::kSub}, {OpKind::kMul, EwOp::kMul},
                                         {OpKind::kDiv, EwOp::kDiv}, {OpKind::kPow, EwOp::kPow}};
  for (const auto& [op, ew] : ops)
    if (op == k) return ew;
  return std::nullopt;
}

std::optional<EwOp> unaryOp(OpKind k) {
  const std::pair<OpKind, EwOp> ops[] = {{OpKind::kRelu, EwOp::kRelu}, {OpKind::kSigmoid, EwOp::kSigmoid},
                                         {OpKind::kTanh, EwOp::kTanh}, {OpKind::kErf, EwOp::kErf},
                                         {OpKind::kSqrt, EwOp::kSqrt}};
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

}  // namespace

std::optional<EwKernel> stepChain(const runtime::Bundle& b, const runtime::Step& s) {
  if (s.kind != runtime::Step::Kind::kHost || s.outputs.size() != 1) return std::nullopt;
  const runtime::TensorSlot& out = b.tensors[static_cast<size_t>(s.outputs[0])];
  if (out.dtype != support::DType::kFloat32 || out.blocked) return std::nullopt;
  const int64_t n = support::shapeElements(out.shape);
  EwKernel k;
  k.numInputs = static_cast<int>(s.inputs.size());
  std::vector<int> in;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    if (s.inputs[i] < 0) return std::nullopt;
    const runtime::TensorSlot& t = b.tensors[static_cast<size_t>(s.inputs[i])];
    const int64_t m = support::shapeElements(t.shape);
    if (t.dtype != support::DType::kFloat32 || t.blocked || (m != n && m != 1)) return std::nullopt;
    in.push_back(k.input(static_cast<int>(i), m != n));
  }
  if (std::optional<EwOp> op = binaryOp(s.op); op && in.size() == 2) {
    k.binary(*op, in[0], in[1]);
  } else if (std::optional<EwOp> u = unaryOp(s.op); u && in.size() == 1) {
    k.unary(*u, in[0]);
  } else if (s.op == OpKind::kGelu && in.size() == 1) {
    gelu(k, in[0], std::get<runtime::GeluAttrs>(s.attrs).approximate == runtime::GeluApprox::kTanh);
  } else {
    return std::nullopt;
  }
  return k;
}

std::optional<KernelPlan> stepPlan(const runtime::Bundle& b, const runtime::Step& s, const CpuShape& cpu) {
  if (s.kind != runtime::Step::Kind::kHost || s.outputs.size() != 1) return std::nullopt;
  std::vector<const runtime::Shape*> in;
  for (int t : s.inputs) {
    if (t < 0) {
      in.push_back(nullptr);
      continue;
    }
    const runtime::TensorSlot& slot = b.tensors[static_cast<size_t>(t)];
    if (slot.dtype != support::DType::kFloat32 || slot.blocked) return std::nullopt;
    in.push_back(&slot.shape);
  }
  const runtime::TensorSlot& out = b.tensors[static_cast<size_t>(s.outputs[0])];
  if (out.dtype != support::DType::kFloat32 || out.blocked || in.empty() || !in[0]) return std::nullopt;
  auto has = [&](size_t i) { return i < in.size() && in[i]; };
  const bool two = has(1);
  if (s.op == OpKind::kConv && two)
    return convPlan(std::get<runtime::ConvAttrs>(s.attrs), *in[0], *in[1], has(2), cpu);
  if (s.op == OpKind::kGemm && two)
    return gemmPlan(std::get<runtime::GemmAttrs>(s.attrs), *in[0], *in[1], has(2) ? in[2] : nullptr, out.shape, cpu);
  if (s.op == OpKind::kMatMul && two) return matmulPlan(*in[0], *in[1], out.shape, cpu);
  if (s.op == OpKind::kMaxPool || s.op == OpKind::kAveragePool)
    return poolPlan(s.op, std::get<runtime::PoolAttrs>(s.attrs), *in[0], cpu);
  if (s.op == OpKind::kGlobalAveragePool) return poolPlan(s.op, runtime::PoolAttrs{}, *in[0], cpu);
  return std::nullopt;  // no loop kernel for this op
}

namespace {

/// The step's loop kernel as a host kernel: inputs and output as the kernel's leading buffers.
runtime::HostKernel loopKernel(CompiledKernel k, const runtime::Shape& shape, std::string kind, std::string where,
                               std::string name, std::shared_ptr<support::ThreadPool> pool) {
  return runtime::HostKernel{
      std::move(kind), [k = std::move(k), shape, where, name, pool](const std::vector<const runtime::Tensor*>& inputs,
                                                                   std::vector<runtime::Tensor>& outputs) -> support::Status {
        runtime::Tensor out(support::DType::kFloat32, shape);
        std::vector<float*> io;
        for (const runtime::Tensor* t : inputs) {
          if (!t) continue;  // an omitted optional input has no buffer
          const size_t i = io.size();
          if (t->dtype() != support::DType::kFloat32 || i >= k.buffers().size() ||
              k.buffers()[i].role != LoopBuffer::Role::kInput)
            return support::error(support::Location::node(name, where),
                                  "the generated kernel expects float32 inputs of the compiled shapes");
          io.push_back(const_cast<float*>(t->data<float>()));  // the kernel only reads its inputs
        }
        io.push_back(out.data<float>());
        io.resize(k.buffers().size(), nullptr);
        k.run(io, pool.get());
        outputs[0] = std::move(out);
        return support::Status::ok();
      }};
}

}  // namespace

support::Expected<runtime::HostKernels> generatedHostKernels(const runtime::Bundle& b, HostJit& jit,
                                                             const std::string& name,
                                                             std::shared_ptr<support::ThreadPool> pool) {
  runtime::HostKernels kernels;
  const EwSchedule schedule{jit.usesAvx512() ? 16 : 8, 2};
  const CpuShape cpu{jit.usesAvx512() ? 16 : 8, jit.usesAvx512() ? 32 : 16};
  const std::string kind = std::string("jit x86-64") + (jit.usesAvx512() ? " avx512" : "");
  for (size_t i = 0; i < b.steps.size(); ++i) {
    const runtime::Step& s = b.steps[i];
    std::optional<EwKernel> chain = stepChain(b, s);
    if (!chain) {
      if (std::optional<KernelPlan> plan = stepPlan(b, s, cpu)) {
        ACCELC_ASSIGN_OR_RETURN(CompiledKernel k, CompiledKernel::compile(jit, plan->kernel, plan->schedule, name + ":" + s.name));
        kernels[i] = loopKernel(std::move(k), b.tensors[static_cast<size_t>(s.outputs[0])].shape, kind, s.name, name, pool);
      }
      continue;
    }
    ACCELC_ASSIGN_OR_RETURN(HostJit::EwFn fn, jit.compile(*chain, schedule, name + ":" + s.name));
    const runtime::Shape shape = b.tensors[static_cast<size_t>(s.outputs[0])].shape;
    const std::string where = s.name;
    kernels[i] = runtime::HostKernel{
        kind, [fn, shape, where, name](const std::vector<const runtime::Tensor*>& inputs,
                                       std::vector<runtime::Tensor>& outputs) -> support::Status {
          runtime::Tensor out(support::DType::kFloat32, shape);
          std::vector<const float*> ptrs;
          for (const runtime::Tensor* t : inputs) {
            if (!t || t->dtype() != support::DType::kFloat32 || (t->numel() != out.numel() && t->numel() != 1))
              return support::error(support::Location::node(name, where),
                                    "the generated kernel expects float32 inputs of the compiled shapes");
            ptrs.push_back(t->data<float>());
          }
          fn(ptrs.data(), out.data<float>(), out.numel());
          outputs[0] = std::move(out);
          return support::Status::ok();
        }};
  }
  return kernels;
}

}  // namespace accelc::compiler::host
