// compiler/driver/partition.cc — the `partition` pass.
//
//   before: every node unplaced
//   after:  c1/Conv   accelerator: 3 legal tilings; chose ..., the lowest replayed estimate ...
//           flatten   host: not an accelerator operator
#include "compiler/driver/partition.h"

#include <algorithm>

#include "compiler/lower/add.h"
#include "compiler/lower/cost.h"
#include "compiler/passes/channel_slices.h"
#include "compiler/passes/concat_chains.h"
#include "compiler/passes/rewrite.h"
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
  int64_t cycles = 0;
  if (st) {
    trial.text(isa::textStart(s.t, k.uops.size() * s.t.uopBytes()));
    support::Expected<isa::Program> program = trial.finish(s.g.nodes[i].name);
    st = program.status();
    if (program && s.estimateCycles) {  // an estimate that fails leaves the layer where it is, weighed as free
      support::Expected<int64_t> c = lower::estimateProgram(*program, s.t);
      cycles = c ? *c : 0;
    }
  }
  Placement& p = s.placements[i];
  p.cycles = cycles;
  p.plan = st ? std::move(plan) : Plan(HostPlan{});
  p.why = st ? "accelerator: " + why : "host: the lowered layer does not encode: " + st.diag().message;
  return st.isOk();
}

/// Records `l` for the tuner, and gives the tuning log's choice for it when the log has a legal one.
const TunedChoice* tunedChoice(Lowering& s, const TunableLayer& l) {
  if (!s.tune) return nullptr;
  if (s.tune->seen) s.tune->seen->push_back(l);
  if (!s.tune->tuned) return nullptr;
  const auto it = s.tune->tuned->find(layerKey(l, s.hw));
  if (it == s.tune->tuned->end()) return nullptr;
  if (const support::Status st = checkChoice(l, it->second.choice, s.hw); !st) {
    s.say(layerName(l) + ": the tuning log's schedule is not legal here, searched instead: " + st.diag().message);
    return nullptr;
  }
  return &it->second;
}

void placeAdd(Lowering& s, size_t i) {
  const Node& n = s.g.nodes[i];
  const Value &a = s.g.values[n.inputs[0]], &b = s.g.values[n.inputs[1]];
  if (a.shape.size() < 2 || a.shape != b.shape) {
    s.placements[i].why = "host: only additions of two tensors of one shape (rank 2 or more) run on the accelerator";
    return;
  }
  lower::AddLayer l;
  l.name = n.name;
  // 4-D tensors blocked as images; any other rank as rows of pixels (elementwise, the same addition).
  auto layout = [&](int v) { return onRows(s, n) ? s.rowsLayout(v) : s.trialLayout(v); };
  l.a = layout(n.inputs[0]), l.b = layout(n.inputs[1]), l.y = layout(n.outputs[0]);
  l.attrs = std::get<runtime::QAddAttrs>(n.attrs);
  auto rows = lower::chooseAddRows(l, s.hw);
  if (!rows) {
    s.placements[i].why = "host: " + rows.diag().message;
    return;
  }
  if (const TunedChoice* tuned = tunedChoice(s, l)) {
    const AddChoice& c = std::get<AddChoice>(tuned->choice);
    l.loops = c.loops;
    if (accept(s, i, lower::lowerAdd(l, c.rows, s.hw, 0, 0, 0, 0), AddPlan{c.rows, c.loops}, "tuned: " + tuned->why))
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
  if (const TunedChoice* tuned = tunedChoice(s, *l)) {
    const int64_t r = std::get<PoolChoice>(tuned->choice).rows;
    if (accept(s, i, lower::lowerPool(*l, r, s.hw, 0, 0, 0), PoolPlan{r, -128}, "tuned: " + tuned->why)) return;
  }
  accept(s, i, lower::lowerPool(*l, *rows, s.hw, 0, 0, 0), PoolPlan{*rows, -128},
         std::string(l->average ? "ALU average" : "ALU max") + " over " + std::to_string(*rows) + "-row tiles");
}

/// Node `i` as GEMM layer `l` (or on the host with why there is none) under its searched schedule; `form`
/// begins the reason.
void placeGemm(Lowering& s, size_t i, const support::Expected<lower::ConvLayer>& l, const std::string& form) {
  Placement& p = s.placements[i];
  const std::string& name = s.g.nodes[i].name;
  if (const TunedChoice* tuned = l ? tunedChoice(s, *l) : nullptr) {
    const auto& sched = std::get<lower::ConvSchedule>(tuned->choice);
    if (accept(s, i, lower::lowerConv(*l, sched, s.hw, lower::ConvAddrs{0, 0, 0, 0}), ConvPlan{sched, false},
               form + "tuned: " + tuned->why))
      return;
  }
  auto sched = l ? searchConvSchedule(*l, s.t, s.serialize) : support::Expected<lower::ConvSchedule>(l.diag());
  if (!sched) {
    p.why = "host: " + sched.diag().message;
    s.say(name + ": " + p.why);
    return;
  }
  const lower::Kernel k = lower::lowerConv(*l, *sched, s.hw, lower::ConvAddrs{0, 0, 0, 0});
  if (!accept(s, i, k, ConvPlan{*sched, false}, form + sched->why)) s.say(name + ": " + p.why);
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
  const std::string form = qa.group == 1 || !l ? ""
                           : l->group == 1 ? std::to_string(qa.group) + " groups as a dense convolution with zero weights; "
                                           : std::to_string(qa.group) + " groups as block-diagonal GEMMs; ";
  placeGemm(s, i, l, form);
}

void placeMatMul(Lowering& s, size_t i) {
  placeGemm(s, i, matmulLayerOf(s, s.g.nodes[i]), "GEMM of two activations, the right one packed as weights; ");
}

void placeEltwise(Lowering& s, size_t i) {
  const Node& n = s.g.nodes[i];
  auto l = eltwiseLayerOf(s, n);
  support::Status ok = l ? lower::eltwiseSupported(*l, s.hw) : l.status();
  auto rows = ok ? lower::chooseEltwiseRows(*l, s.hw) : support::Expected<int64_t>(ok.diag());
  if (!rows) {
    s.placements[i].why = "host: " + rows.diag().message;
    return;
  }
  accept(s, i, lower::lowerEltwise(*l, *rows, s.hw, 0, 0, 0, 0), EltwisePlan{*rows},
         "ALU " + std::string(runtime::opInfo(n.kind).name) + " over " + std::to_string(*rows) + "-row tiles");
}

/// Why channel Split or Slice `n` cannot be views of its input, or "" when it can: an int8 4-D input cut
/// along channels at step 1 (channel_slices.h), every part whole channel blocks (but one ending at the last
/// channel), the input itself no view, and no part another view (a view is one level deep).
std::string sliceViewsRefused(const Lowering& s, const Node& n) {
  const auto starts = channelStarts(s.g, n);
  const Value& x = s.g.values[n.inputs[0]];
  if (!starts || x.dtype != support::DType::kInt8)
    return "only a cut of an int8 4-D value's channels, at step 1, is placed in DRAM";
  for (size_t k = 0; k < n.outputs.size(); ++k) {
    const int64_t end = (*starts)[k] + s.g.values[n.outputs[k]].shape[1], b = s.hw.blockIn;
    if ((*starts)[k] % b || (end % b && end != x.shape[1]))
      return "part '" + s.g.values[n.outputs[k]].name + "' is channels " + std::to_string((*starts)[k]) + " to " +
             std::to_string(end) + ", not whole blocks of " + std::to_string(b);
  }
  if (s.views[n.inputs[0]].parent >= 0 ||
      std::any_of(n.outputs.begin(), n.outputs.end(), [&](int y) { return s.views[y].parent >= 0; }))
    return "its input or a part is already a view of a Concat (a view is one level deep)";
  return "";
}

/// Every channel Split and Slice that can be views of its input gets them (after the Concats' views).
void planSliceViews(Lowering& s) {
  for (const Node& n : s.g.nodes) {
    if ((n.kind != OpKind::kSplit && n.kind != OpKind::kSlice) || !sliceViewsRefused(s, n).empty()) continue;
    const auto starts = *channelStarts(s.g, n);
    for (size_t k = 0; k < n.outputs.size(); ++k)
      s.views[n.outputs[k]] = View{n.inputs[0], starts[k] / s.hw.blockIn};
  }
}

void placeSlice(Lowering& s, size_t i) {
  const Node& n = s.g.nodes[i];
  if (s.views[n.outputs[0]].parent == n.inputs[0]) {
    s.placements[i] = {SlicePlan{}, "accelerator: in place: each part is a view of its input's channel blocks"};
    return;
  }
  const std::string why = sliceViewsRefused(s, n);
  s.placements[i].why = "host: " + (why.empty() ? std::string("its parts are not views") : why);
}

/// Why QConcat `n` cannot be its inputs' views, or "" when it can: along channels of 4-D tensors, every
/// input copied unchanged (QConcatAttrs' identity), and all but the last filling whole channel blocks.
std::string viewsRefused(const Lowering& s, const Node& n) {
  const auto& a = std::get<runtime::QConcatAttrs>(n.attrs);
  const Shape& y = s.g.values[n.outputs[0]].shape;
  if (y.size() != 4 || (a.axis != 1 && a.axis != -3) || a.zeros.size() != n.inputs.size() ||
      a.mults.size() != n.inputs.size())
    return "only a concatenation of channels is placed in DRAM";
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    const std::string name = "input '" + s.g.values[n.inputs[k]].name + "'";
    if (!concatCopies(a, k)) return name + " is rescaled, which needs a pass over it";
    if (k + 1 < n.inputs.size() && s.g.values[n.inputs[k]].shape[1] % s.hw.blockIn)
      return name + " has " + std::to_string(s.g.values[n.inputs[k]].shape[1]) + " channels, not whole blocks of " +
             std::to_string(s.hw.blockIn);
  }
  return "";
}

/// Whether a chain's Concats nest in others: its root's or a prefix's output is another Concat's input, or
/// an input is another Concat's output (a view is one level deep).
bool nested(const Lowering& s, const ConcatChain& c) {
  auto concat = [](const Node* n) { return n && (n->kind == OpKind::kQConcat || n->kind == OpKind::kConcat); };
  const Node& root = s.g.nodes[c.root];
  if (std::any_of(root.inputs.begin(), root.inputs.end(), [&](int v) { return concat(producer(s.g, v)); })) return true;
  std::vector<int> outs{root.outputs[0]};
  for (size_t p : c.prefixes) outs.push_back(s.g.nodes[p].outputs[0]);
  for (const Node& n : s.g.nodes)
    if (concat(&n) && std::any_of(n.inputs.begin(), n.inputs.end(), [&](int v) {
          return std::find(outs.begin(), outs.end(), v) != outs.end() && &n != &root &&
                 std::none_of(c.prefixes.begin(), c.prefixes.end(), [&](size_t p) { return &n == &s.g.nodes[p]; });
        }))
      return true;
  return false;
}

/// Every chain of channel Concats (concat_chains.h) that can be views of its root's output gets them now, so
/// that the producers are tried (and encoded) writing in place; placeConcat keeps them only when every
/// producer runs on the accelerator. A prefix Concat's output is the first channels of the root's.
void planViews(Lowering& s) {
  s.views.assign(s.g.values.size(), View{});
  for (const ConcatChain& c : concatChains(s.g)) {
    const Node& root = s.g.nodes[c.root];
    if (root.kind != OpKind::kQConcat || !viewsRefused(s, root).empty() || nested(s, c) ||
        std::any_of(c.prefixes.begin(), c.prefixes.end(),
                    [&](size_t p) { return !viewsRefused(s, s.g.nodes[p]).empty(); }))
      continue;
    int64_t block = 0;
    for (int v : root.inputs) {
      s.views[v] = View{root.outputs[0], block};
      block += (s.g.values[v].shape[1] + s.hw.blockIn - 1) / s.hw.blockIn;
    }
    for (size_t p : c.prefixes) s.views[s.g.nodes[p].outputs[0]] = View{root.outputs[0], 0};
  }
  planSliceViews(s);
  s.shareViewBorders();
}

void placeConcat(Lowering& s, size_t i) {
  const Node& n = s.g.nodes[i];
  std::string why = viewsRefused(s, n);
  if (why.empty() && s.views[n.inputs[0]].parent < 0)
    why = "an input is also read by other nodes, is no layer's output, or is a concatenation itself, so it cannot be "
          "written in place";
  for (int v : n.inputs) {
    if (!why.empty()) break;
    const Node* p = producer(s.g, v);
    const Plan& plan = s.placements[static_cast<size_t>(p - s.g.nodes.data())].plan;
    if (std::holds_alternative<HostPlan>(plan) || onRows(s, *p))
      why = "the producer of input '" + s.g.values[v].name + "' does not write a blocked tensor on the accelerator";
  }
  if (why.empty()) {
    s.placements[i] = {ConcatPlan{}, "accelerator: in place: its producers write their channel blocks of it"};
    return;
  }
  s.placements[i].why = "host: " + why;
}

/// A chain whose root stays on the host keeps no views: its prefixes move to the host too.
void dropHostChains(Lowering& s) {
  for (const ConcatChain& c : concatChains(s.g)) {
    if (std::holds_alternative<ConcatPlan>(s.placements[c.root].plan)) continue;
    for (int v : s.g.nodes[c.root].inputs) s.views[v] = View{};
    for (size_t p : c.prefixes) {
      s.views[s.g.nodes[p].outputs[0]] = View{};
      if (std::holds_alternative<ConcatPlan>(s.placements[p].plan))
        s.placements[p] = {HostPlan{}, "host: the Concat whose first channels it is stays on the host"};
    }
  }
}

}  // namespace

support::Status partition(Lowering& s, const std::vector<std::string>& forced) {
  s.placements.assign(s.g.nodes.size(), Placement{HostPlan{}, "host: not an accelerator operator"});
  planViews(s);
  const bool square = s.hw.batch == 1 && s.hw.blockIn == s.hw.blockOut;
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    const OpKind kind = s.g.nodes[i].kind;
    if (i < forced.size() && !forced[i].empty()) {
      s.placements[i].why = forced[i];
      if (kind == OpKind::kSplit || kind == OpKind::kSlice)  // its parts are no views then
        for (int y : s.g.nodes[i].outputs) s.views[y] = View{};
    } else if (kind == OpKind::kQAdd && square) {
      placeAdd(s, i);
    } else if ((kind == OpKind::kMaxPool || kind == OpKind::kQAveragePool) && square) {
      placePool(s, i);
    } else if (kind == OpKind::kQConv || kind == OpKind::kQGemm) {
      placeConv(s, i);
    } else if ((kind == OpKind::kSplit || kind == OpKind::kSlice) && square) {
      placeSlice(s, i);
    } else if (kind == OpKind::kQMatMul && square) {
      placeMatMul(s, i);
    } else if (kind == OpKind::kQConcat && square) {
      placeConcat(s, i);
    } else if (isEltwise(s.g.nodes[i]) && square) {
      placeEltwise(s, i);
    } else if (kind == OpKind::kConv || kind == OpKind::kGemm || kind == OpKind::kMatMul) {
      s.placements[i].why = "host: not quantized (see the quantization notes)";
    }
  }
  dropHostChains(s);
  return support::Status::ok();
}

void placeOnHost(Lowering& s, const std::string& why) {
  s.placements.assign(s.g.nodes.size(), Placement{HostPlan{}, why});
  s.views.assign(s.g.values.size(), View{});
}

}  // namespace accelc::compiler
