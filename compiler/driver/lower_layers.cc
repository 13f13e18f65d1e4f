// compiler/driver/lower_layers.cc — the `lower` pass.
//
//   before: step c1/Conv  accelerator (input:blocked) -> (c1:blocked), at their addresses
//   after:  kernel c1/Conv { for tile ... { load inp ...; gemm ...; alu ...; store ... } }
//           constants c1/Conv:weights, c1/Conv:params; its micro-ops and text placed
#include "compiler/driver/lower_layers.h"

#include "compiler/lower/add.h"
#include "compiler/lower/elementwise.h"
#include "compiler/lower/pool.h"
#include "isa/builder.h"

namespace accelc::compiler {

using runtime::Step;
using runtime::TensorSlot;
using support::Expected;

namespace {

/// A bundle constant of `bytes` at a fresh address; returns the address.
uint64_t constant(Lowering& s, const std::string& name, const std::vector<uint8_t>& bytes) {
  const uint64_t at = s.alloc(bytes.size());
  s.bundle.constants.push_back({name, at, bytes});
  return at;
}

lower::Kernel addKernel(Lowering& s, const Node& n, const Step& step, const AddPlan& plan) {
  const TensorSlot &a = s.bundle.tensors[step.inputs[0]], &b = s.bundle.tensors[step.inputs[1]],
                   &y = s.bundle.tensors[step.outputs[0]];
  lower::AddLayer l;
  l.name = n.name;
  l.a = *a.blocked, l.b = *b.blocked, l.y = *y.blocked;
  l.attrs = std::get<runtime::QAddAttrs>(n.attrs);
  l.loops = plan.loops;
  const uint64_t params = constant(s, n.name + ":params", lower::packAddParams(l, s.hw));
  return lower::lowerAdd(l, plan.rows, s.hw, a.addr, b.addr, y.addr, params);
}

Expected<lower::Kernel> poolKernel(Lowering& s, const Node& n, const Step& step, const PoolPlan& plan) {
  const TensorSlot &x = s.bundle.tensors[step.inputs[0]], &y = s.bundle.tensors[step.outputs[0]];
  ACCELC_ASSIGN_OR_RETURN(lower::PoolLayer l, poolLayerOf(s, n));
  l.x = *x.blocked, l.y = *y.blocked, l.lo = plan.lo;
  const uint64_t params = l.average ? constant(s, n.name + ":params", lower::packPoolParams(l, s.hw)) : 0;
  return lower::lowerPool(l, plan.rows, s.hw, x.addr, y.addr, params);
}

/// A QMatMul's kernel: its weights are its right operand's slot, which a pack step fills at run time.
Expected<lower::Kernel> matmulKernel(Lowering& s, const Node& n, const Step& step, const ConvPlan& plan) {
  const TensorSlot &x = s.bundle.tensors[step.inputs[0]], &w = s.bundle.tensors[step.inputs[1]],
                   &y = s.bundle.tensors[step.outputs[0]];
  ACCELC_ASSIGN_OR_RETURN(lower::ConvLayer l, matmulLayerOf(s, n));
  l.x = *x.blocked, l.y = *y.blocked;
  const uint64_t params = constant(s, n.name + ":params", lower::packConvParams(l, s.hw));
  return lower::lowerConv(l, plan.schedule, s.hw, lower::ConvAddrs{x.addr, y.addr, w.addr, params});
}

Expected<lower::Kernel> convKernel(Lowering& s, const Node& n, const Step& step, const ConvPlan& plan) {
  if (n.kind == OpKind::kQMatMul) return matmulKernel(s, n, step, plan);
  const TensorSlot &x = s.bundle.tensors[step.inputs[0]], &y = s.bundle.tensors[step.outputs[0]];
  const runtime::BlockedLayout& bx = *x.blocked;
  ACCELC_ASSIGN_OR_RETURN(lower::ConvLayer l, convLayerOf(s, n, Shape{bx.top, bx.left, bx.bottom, bx.right}));
  l.x = *x.blocked, l.y = *y.blocked;
  if (plan.clampMoved) l.lo = -128;
  const std::vector<uint8_t> w = lower::packConvWeights(l, s.hw), p = lower::packConvParams(l, s.hw);
  lower::ConvAddrs a{x.addr, y.addr, s.alloc(w.size()), 0};
  a.params = s.alloc(p.size());
  s.bundle.constants.push_back({n.name + ":weights", a.weights, w});
  s.bundle.constants.push_back({n.name + ":params", a.params, p});
  return lower::lowerConv(l, plan.schedule, s.hw, a);
}

Expected<lower::Kernel> eltwiseKernel(Lowering& s, const Node& n, const Step& step, const EltwisePlan& plan) {
  ACCELC_ASSIGN_OR_RETURN(lower::EltwiseLayer l, eltwiseLayerOf(s, n));
  const TensorSlot &x = s.bundle.tensors[step.inputs[0]], &y = s.bundle.tensors[step.outputs[0]];
  l.x = *x.blocked, l.y = *y.blocked;
  uint64_t b = 0;
  if (step.inputs.size() > 1) l.b = *s.bundle.tensors[step.inputs[1]].blocked, b = s.bundle.tensors[step.inputs[1]].addr;
  const uint64_t params = constant(s, n.name + ":params", lower::packEltwiseParams(l, s.hw));
  return lower::lowerEltwise(l, plan.rows, s.hw, x.addr, b, y.addr, params);
}

/// The kernel of accelerator step `step` of node `i`.
Expected<lower::Kernel> kernelOf(Lowering& s, size_t i, const Step& step) {
  const Node& n = s.g.nodes[i];
  const Plan& plan = s.placements[i].plan;
  if (const auto* a = std::get_if<AddPlan>(&plan)) return addKernel(s, n, step, *a);
  if (const auto* p = std::get_if<PoolPlan>(&plan)) return poolKernel(s, n, step, *p);
  if (const auto* c = std::get_if<ConvPlan>(&plan)) return convKernel(s, n, step, *c);
  if (const auto* e = std::get_if<EltwisePlan>(&plan)) return eltwiseKernel(s, n, step, *e);
  const bool concat = std::holds_alternative<ConcatPlan>(plan);
  if (concat || std::holds_alternative<SlicePlan>(plan)) {  // views: nothing left to do
    lower::Kernel k;
    k.name = n.name;
    k.body.push_back(lower::Stmt::intrinsic(isa::Opcode::kFinish, concat ? "in place: its producers wrote every input"
                                                                          : "in place: its parts are views of its input"));
    return k;
  }
  return support::error(s.g.loc(n), "an accelerator step of a node placed on the host");
}

}  // namespace

support::Status lowerLayers(Lowering& s) {
  for (size_t si = 0; si < s.bundle.steps.size(); ++si) {
    Step& step = s.bundle.steps[si];
    if (step.kind != Step::Kind::kAccel) continue;
    const size_t i = static_cast<size_t>(s.stepNode[si]);
    ACCELC_ASSIGN_OR_RETURN(lower::Kernel k, kernelOf(s, i, step));
    isa::ProgramBuilder scratch(s.t);  // to learn the instruction count
    ACCELC_TRY(lower::emitKernel(k, s.t, {0, 0}, s.serialize, scratch));
    lower::CodegenPlacement at{s.alloc(k.uops.size() * s.t.uopBytes()), 0};
    s.cursor = isa::textStart(s.t, s.cursor);  // fetch's bursts stay inside 4 KiB pages
    at.text = s.alloc(scratch.size() * s.t.insnBytes());
    step.program = static_cast<int>(s.pending.size());
    s.pending.push_back({i, s.g.nodes[i].name, std::move(k), at});
  }
  return support::Status::ok();
}

}  // namespace accelc::compiler
