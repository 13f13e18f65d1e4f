// compiler/driver/partition.cc — the `partition` pass.
//
//   before: every node unplaced
//   after:  c1/Conv   accelerator: 3 legal tilings; chose ..., the lowest replayed estimate ...
//           flatten   host: not an accelerator operator
#include "compiler/driver/partition.h"

#include <algorithm>

#include "compiler/lower/add.h"
#include "compiler/lower/pool.h"
#include "compiler/schedule/search.h"
#include "isa/builder.h"

namespace accelc::compiler {

namespace {

/// Node `i` on `plan` when `k` (lowered at address 0) encodes in the ISA's
/// fields; otherwise on the host with the reason.
bool accept(Lowering& s, size_t i, const lower::Kernel& k, Plan plan, const std::string& why) {
  isa::ProgramBuilder trial(s.t);
  support::Status st = lower::emitKernel(k, s.t, {0, 0}, s.serialize, trial);
  if (st) {
    trial.text(k.uops.size() * s.t.uopBytes());
    st = trial.finish(s.g.nodes[i].name).status();
  }
  Placement& p = s.placements[i];
  p.plan = st ? std::move(plan) : Plan(HostPlan{});
  p.why = st ? "accelerator: " + why : "host: the lowered layer does not encode: " + st.diag().message;
  return st.isOk();
}

void placeAdd(Lowering& s, size_t i) {
  const Node& n = s.g.nodes[i];
  const Value &a = s.g.values[n.inputs[0]], &b = s.g.values[n.inputs[1]];
  if (a.shape.size() != 4 || a.shape != b.shape) {
    s.placements[i].why = "host: only additions of two 4-D tensors of one shape run on the accelerator";
    return;
  }
  lower::AddLayer l;
  l.name = n.name;
  l.a = s.trialLayout(n.inputs[0]), l.b = s.trialLayout(n.inputs[1]), l.y = s.trialLayout(n.outputs[0]);
  l.attrs = std::get<runtime::QAddAttrs>(n.attrs);
  auto rows = lower::chooseAddRows(l, s.hw);
  if (!rows) {
    s.placements[i].why = "host: " + rows.diag().message;
    return;
  }
  // The GEMM form's passes in loops when the ISA's loop fields hold a tile, else one micro-op per pixel.
  l.loops = lower::addOnGemm(l, s.hw);
  const std::string why =
      std::string(l.loops ? "GEMM-form" : "ALU-form") + " add over " + std::to_string(*rows) + "-row tiles";
  if (!accept(s, i, lower::lowerAdd(l, *rows, s.hw, 0, 0, 0, 0), AddPlan{*rows, l.loops}, why) && l.loops)
    l.loops = false, accept(s, i, lower::lowerAdd(l, *rows, s.hw, 0, 0, 0, 0), AddPlan{*rows, false}, why);
}

void placePool(Lowering& s, size_t i) {
  const Node& n = s.g.nodes[i];
  auto l = poolLayerOf(s, n);
  auto rows = l ? lower::choosePoolRows(*l, s.hw) : support::Expected<int64_t>(l.diag());
  if (!rows) {
    s.placements[i].why = "host: " + rows.diag().message;
    return;
  }
  l->x = s.trialLayout(n.inputs[0]), l->y = s.trialLayout(n.outputs[0]);
  accept(s, i, lower::lowerPool(*l, *rows, s.hw, 0, 0, 0), PoolPlan{*rows, -128},
         std::string(l->average ? "ALU average" : "ALU max") + " over " + std::to_string(*rows) + "-row tiles");
}

void placeConv(Lowering& s, size_t i) {
  const Node& n = s.g.nodes[i];
  Placement& p = s.placements[i];
  if (s.hw.batch != 1 || s.hw.blockIn != s.hw.blockOut) {
    p.why = "host: the lowering needs gemm.batch = 1 and block_in = block_out";
    return;
  }
  const auto& qa = std::get<runtime::QConvAttrs>(n.attrs);
  const Shape pads = padsOf(qa);
  const int64_t fill = s.bareFill(n.inputs[0]);
  if (std::any_of(pads.begin(), pads.end(), [](int64_t v) { return v != 0; }) && qa.padValue != fill) {
    p.why = "host: it pads with " + std::to_string(qa.padValue) + " but its input's border holds the zero point " +
            std::to_string(fill);
    return;
  }
  auto l = convLayerOf(s, n, s.borders[n.inputs[0]]);
  if (l && n.kind == OpKind::kQConv) l->y = s.trialLayout(n.outputs[0]), l->y.fill = static_cast<int8_t>(qa.zeroPoint);
  auto sched = l ? searchConvSchedule(*l, s.t, s.serialize) : support::Expected<lower::ConvSchedule>(l.diag());
  if (!sched) {
    p.why = "host: " + sched.diag().message;
    s.say(n.name + ": " + p.why);
    return;
  }
  const lower::Kernel k = lower::lowerConv(*l, *sched, s.hw, lower::ConvAddrs{0, 0, 0, 0});
  const std::string form = qa.group == 1 ? ""
                           : l->group == 1 ? std::to_string(qa.group) + " groups as a dense convolution with zero weights; "
                                           : std::to_string(qa.group) + " groups as block-diagonal GEMMs; ";
  if (!accept(s, i, k, ConvPlan{*sched, false}, form + sched->why)) s.say(n.name + ": " + p.why);
}

}  // namespace

support::Status partition(Lowering& s) {
  s.placements.assign(s.g.nodes.size(), Placement{HostPlan{}, "host: not an accelerator operator"});
  const bool square = s.hw.batch == 1 && s.hw.blockIn == s.hw.blockOut;
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    const OpKind kind = s.g.nodes[i].kind;
    if (kind == OpKind::kQAdd && square) {
      placeAdd(s, i);
    } else if ((kind == OpKind::kMaxPool || kind == OpKind::kQAveragePool) && square) {
      placePool(s, i);
    } else if (kind == OpKind::kQConv || kind == OpKind::kQGemm) {
      placeConv(s, i);
    } else if (kind == OpKind::kConv || kind == OpKind::kGemm || kind == OpKind::kMatMul) {
      s.placements[i].why = "host: not quantized (see the quantization notes)";
    }
  }
  return support::Status::ok();
}

}  // namespace accelc::compiler
