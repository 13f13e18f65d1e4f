// compiler/driver/pipeline.cc — the pipeline's passes, their checks and their text forms.
#include "compiler/driver/pipeline.h"

#include <sys/stat.h>

#include <algorithm>

#include "compiler/driver/borders.h"
#include "compiler/driver/build_steps.h"
#include "compiler/driver/emit_programs.h"
#include "compiler/driver/finish_bundle.h"
#include "compiler/driver/lower_layers.h"
#include "compiler/driver/move_clamps.h"
#include "compiler/driver/move_views.h"
#include "compiler/driver/partition.h"
#include "compiler/driver/pipeline_text.h"
#include "compiler/driver/place_by_cost.h"
#include "compiler/driver/plan_dram.h"
#include "compiler/graph/graph_text.h"
#include "compiler/graph/static_shapes.h"
#include "compiler/passes/channel_shuffle.h"
#include "compiler/passes/host_weights.h"
#include "compiler/passes/im2col.h"
#include "compiler/passes/pad_concat.h"
#include "compiler/passes/passes.h"
#include "compiler/quant/quantize.h"

namespace accelc::compiler {

using support::error;
using support::Location;
using support::Status;

namespace {

std::string graphText(const CompileState& s) { return printGraph(s.graph, {true}); }

/// The back end's state, made by the first back-end pass.
void ensureLowering(CompileState& s) {
  if (s.lowering) return;
  s.lowering.emplace(s.graph, *s.t, s.o.serialize, s.log);
  s.lowering->tune = s.o.tune;
  s.lowering->windowLimit = s.o.window;
}

bool isQdq(const Graph& g) {
  for (const Node& n : g.nodes)
    if (n.kind == OpKind::kQuantizeLinear || n.kind == OpKind::kDequantizeLinear) return true;
  return false;
}

/// The model's quantization parameters: its own Q/DQ scales, or calibration
/// on --calibrate (or calib.npy beside the model).
Status quantizationParams(CompileState& s) {
  if (isQdq(s.graph)) return stripQdq(s.graph);
  if (!s.o.hostTarget.empty() && !s.o.quantize) {  // a float model on the host stays float
    s.floatOnHost = true;
    if (s.log) s.log->push_back("--target " + s.o.hostTarget + ": the float model runs on the host as it is");
    return Status::ok();
  }
  std::string calib = s.o.calibrate;
  if (calib.empty()) {
    const std::string& path = s.graph.model;
    const size_t slash = path.rfind('/');
    const std::string beside = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + "calib.npy";
    struct stat st;
    if (::stat(beside.c_str(), &st) != 0)
      return error(Location::file(path),
                   "a float model needs calibration data: pass --calibrate FILE.npy|DIR "
                   "(or put calib.npy beside the model)");
    calib = beside;
  }
  ACCELC_ASSIGN_OR_RETURN(auto samples, calibrationSamples(calib, s.graph));
  if (s.log) s.log->push_back("calibrated on " + std::to_string(samples.size()) + " samples from " + calib);
  ACCELC_TRY(calibrate(s.graph, samples, s.o.percentile));
  return verify(s.graph);
}

Status quantize(CompileState& s) {
  if (s.floatOnHost) return Status::ok();
  ACCELC_ASSIGN_OR_RETURN(Graph q, quantizeGraph(s.graph, s.log));
  s.graph = std::move(q);
  return verify(s.graph);
}

Status shuffles(CompileState& s) {
  if (s.floatOnHost) return Status::ok();
  shuffleToConvs(s.graph, s.log);
  return verify(s.graph);
}

Status padConcats(CompileState& s) {
  ACCELC_CHECK(s.t) << "pad-concats needs a target";
  if (!s.o.hostTarget.empty() || s.floatOnHost) return Status::ok();  // the accelerator runs nothing
  padConcatChannels(s.graph, s.t->spec, s.log);
  return verify(s.graph);
}

Status im2col(CompileState& s) {
  ACCELC_CHECK(s.t) << "im2col needs a target";
  if (!s.o.hostTarget.empty()) return Status::ok();  // the accelerator runs nothing
  im2colNarrowConvs(s.graph, s.t->spec, s.log);
  return verify(s.graph);
}

Status hostWeights(CompileState& s) {
  if (s.o.hostTarget.empty()) return Status::ok();
  transposeGemmWeights(s.graph, s.log);
  return verify(s.graph);
}

/// An error that names the pass whose result broke an invariant.
Status broken(const CompileState& s, const std::string& pass, const std::string& what) {
  return error(Location::file(s.graph.model), "internal: after " + pass + ", " + what);
}

/// Each accelerator plan fits its node's kind, and its reason says so.
Status checkPlacements(const CompileState& s, const std::string& pass) {
  const Lowering& l = *s.lowering;
  if (l.placements.size() != s.graph.nodes.size()) return broken(s, pass, "not every node has a placement");
  for (size_t i = 0; i < l.placements.size(); ++i) {
    const OpKind k = s.graph.nodes[i].kind;
    const Plan& p = l.placements[i].plan;
    const bool fits = std::holds_alternative<HostPlan>(p) ||
                      (std::holds_alternative<ConvPlan>(p) &&
                       (k == OpKind::kQConv || k == OpKind::kQGemm || k == OpKind::kQMatMul)) ||
                      (std::holds_alternative<PoolPlan>(p) && (k == OpKind::kMaxPool || k == OpKind::kQAveragePool)) ||
                      (std::holds_alternative<AddPlan>(p) && k == OpKind::kQAdd) ||
                      (std::holds_alternative<ConcatPlan>(p) && k == OpKind::kQConcat) ||
                      (std::holds_alternative<SlicePlan>(p) && (k == OpKind::kSplit || k == OpKind::kSlice)) ||
                      (std::holds_alternative<EltwisePlan>(p) && isEltwise(s.graph.nodes[i])) ||
                      (std::holds_alternative<MovePlan>(p) && isMove(s.graph, s.graph.nodes[i]));
    const bool said = l.placements[i].why.rfind(l.placements[i].onAccelerator() ? "accelerator: " : "host: ", 0) == 0;
    if (!fits || !said) return broken(s, pass, "node '" + s.graph.nodes[i].name + "' has a plan of another kind");
  }
  return Status::ok();
}

Status checkBorders(const CompileState& s, const std::string& pass) {
  for (const Shape& b : s.lowering->borders)
    if (b.size() != 4 || b[0] < 0 || b[1] < 0 || b[2] < 0 || b[3] < 0) return broken(s, pass, "a border is malformed");
  return s.lowering->borders.size() == s.graph.values.size() ? Status::ok() : broken(s, pass, "a value has no border");
}

/// One step per node, and every slot a step names exists.
Status checkSteps(const CompileState& s, const std::string& pass) {
  const Lowering& l = *s.lowering;
  const runtime::Bundle& b = l.bundle;
  if (l.stepNode.size() != b.steps.size()) return broken(s, pass, "a step has no node");
  const int n = static_cast<int>(b.tensors.size());
  for (const runtime::Step& st : b.steps)
    for (const std::vector<int>* ids : {&st.inputs, &st.outputs})
      for (int id : *ids)
        if (id >= n) return broken(s, pass, "step '" + st.name + "' names a slot that does not exist");
  return Status::ok();
}

/// Every slot lies, aligned, in the DRAM allocated so far.
Status checkDramPlan(const CompileState& s, const std::string& pass) {
  const Lowering& l = *s.lowering;
  for (size_t i = 0; i < l.bundle.tensors.size(); ++i) {
    const runtime::TensorSlot& t = l.bundle.tensors[i];
    // A view (in a Concat's output, a Split's input or a move's root) starts at one of its entries.
    const uint64_t align = l.slotViews.count(static_cast<int>(i)) ? static_cast<uint64_t>(t.blocked->block) : l.align;
    if (t.addr % align || t.addr + t.bytes() > l.cursor) return broken(s, pass, "slot '" + t.name + "' is not placed");
  }
  return Status::ok();
}

/// Every accelerator step has its lowered program.
Status checkPrograms(const CompileState& s, const std::string& pass, size_t programs) {
  for (const runtime::Step& st : s.lowering->bundle.steps)
    if (st.kind == runtime::Step::Kind::kAccel && (st.program < 0 || static_cast<size_t>(st.program) >= programs))
      return broken(s, pass, "accelerator step '" + st.name + "' has no program");
  return Status::ok();
}

/// A back-end pass: `run` on the lowering, then `check`, with `text` as its text form.
PipelinePass backEnd(const std::string& name, const std::string& summary, Status (*run)(Lowering&),
                     std::function<Status(const CompileState&, const std::string&)> check,
                     std::string (*text)(const Lowering&)) {
  return {name, summary,
          [name, run, check](CompileState& s) -> Status {
            ACCELC_CHECK(s.t) << "the back end needs a target";
            ensureLowering(s);
            ACCELC_TRY(run(*s.lowering));
            return check(s, name);
          },
          [text](const CompileState& s) { return s.lowering ? text(*s.lowering) : std::string(); }};
}

std::vector<PipelinePass> makePipeline() {
  std::vector<PipelinePass> p;
  for (const std::string& name : defaultPipeline()) {
    std::string summary;
    for (const PassInfo& info : allPasses())
      if (name == info.name) summary = info.summary;
    p.push_back({name, summary, [name](CompileState& s) { return runPipeline(s.graph, {name}); }, graphText});
  }
  p.push_back({"static-shapes", "every output shape fixed at compile time, or a located error",
               [](CompileState& s) { return checkStaticShapes(s.graph); }, graphText});
  p.push_back({"calibrate", "the quantization parameters: the model's own Q/DQ scales, or calibration",
               quantizationParams, graphText});
  p.push_back({"quantize", "the integer graph: QConv, QGemm, QAdd, ... with requantization", quantize, graphText});
  p.push_back({"channel-shuffle", "channel shuffles left in the integer graph become 1x1 QConvs that permute",
               shuffles, graphText});
  p.push_back({"pad-concats",
               "a channel Concat's inputs padded to whole channel blocks where their producers and readers allow",
               padConcats, graphText});
  p.push_back({"im2col", "narrow convolutions fed by the host unrolled into channels", im2col, graphText});
  p.push_back({"host-weights", "with --target: constant Gemm weights transposed once for the host's kernels",
               hostWeights, graphText});
  p.push_back(backEnd("trial-borders", "per value, the border every QConv and MaxPool reading it would need",
                      trialBorders, checkBorders, bordersText));
  p.push_back({"partition", "where each node runs, and why",
               [](CompileState& s) -> Status {
                 ACCELC_CHECK(s.t) << "the back end needs a target";
                 ensureLowering(s);
                 if (s.o.hostTarget.empty()) {
                   ACCELC_TRY(s.o.hostCost ? placeByCost(*s.lowering, *s.o.hostCost) : partition(*s.lowering));
                   planMoveViews(*s.lowering);
                 } else {
                   placeOnHost(*s.lowering,
                               "host: --target " + s.o.hostTarget + " compiles the whole model for the host");
                 }
                 return checkPlacements(s, "partition");
               },
               [](const CompileState& s) { return s.lowering ? placementsText(*s.lowering) : std::string(); }});
  p.push_back(backEnd("move-clamps", "a MaxPool takes over the clamp of the convolution it alone reads", moveClamps,
                      checkPlacements, placementsText));
  p.push_back(backEnd("infer-borders", "per value, the border its accelerator readers need", inferBorders, checkBorders,
                      bordersText));
  p.push_back(backEnd("build-steps", "the bundle's steps and tensor slots, with packs and unpacks", buildSteps,
                      checkSteps, stepsText));
  p.push_back(backEnd("plan-dram", "an address for every tensor; intermediates share DRAM by lifetime", planDram,
                      checkDramPlan, dramPlanText));
  p.push_back(backEnd(
      "lower", "every accelerator layer to loop IR, its weights and parameters placed", lowerLayers,
      [](const CompileState& s, const std::string& n) { return checkPrograms(s, n, s.lowering->pending.size()); },
      kernelsText));
  p.push_back(backEnd(
      "emit", "the DRAM window, and every layer encoded into a program", emitPrograms,
      [](const CompileState& s, const std::string& n) {
        return checkPrograms(s, n, s.lowering->bundle.programs.size());
      },
      programsText));
  p.push_back(backEnd(
      "finish-bundle", "the layer records, the graph text, and the bundle validated", finishBundle,
      [](const CompileState&, const std::string&) { return Status::ok(); }, layersText));
  return p;
}

}  // namespace

const std::vector<PipelinePass>& compilePipeline() {
  static const std::vector<PipelinePass> kPipeline = makePipeline();
  return kPipeline;
}

Status checkDumpAfter(const std::string& name) {
  std::vector<std::string> names;
  for (const PipelinePass& p : compilePipeline()) {
    if (name.empty() || p.name == name) return Status::ok();
    if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  }
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return error(Location(), "--dump-after '" + name + "': no such pass; the passes are: " + list);
}

Status runCompilePipeline(CompileState& s, const std::string& first, const std::string& last) {
  ACCELC_TRY(checkDumpAfter(s.o.dumpAfter));
  const std::vector<PipelinePass>& p = compilePipeline();
  size_t from = 0;
  while (from < p.size() && p[from].name != first) ++from;
  ACCELC_CHECK(from < p.size()) << "no pass named " << first;
  for (size_t i = from; i < p.size(); ++i) {
    ACCELC_TRY(p[i].run(s));
    if (s.o.dump && p[i].name == s.o.dumpAfter) *s.o.dump += "# after " + p[i].name + "\n" + p[i].text(s);
    if (p[i].name == last) break;
  }
  return Status::ok();
}

}  // namespace accelc::compiler
