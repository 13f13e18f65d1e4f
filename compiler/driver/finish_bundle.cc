// compiler/driver/finish_bundle.cc — the `finish-bundle` pass.
//
//   before: steps, tensors, constants and programs
//   after:  layer c1/Conv  accelerator  25600 MACs  1536 est. cycles  accelerator: 3 legal tilings; ...
#include "compiler/driver/finish_bundle.h"

#include "compiler/graph/graph_text.h"
#include "compiler/lower/cost.h"

namespace accelc::compiler {

namespace {

/// The layer record of node `i`, whose program (or -1) is `program`.
support::Expected<runtime::LayerInfo> layerInfo(const Lowering& s, size_t i, int program) {
  const Node& n = s.g.nodes[i];
  const Placement& p = s.placements[i];
  runtime::LayerInfo info{n.name, p.onAccelerator() ? "accelerator" : "host", p.why, 0, 0, 0, 0};
  for (const std::vector<int>* ids : {&n.inputs, &n.outputs})  // every operand read or written once
    for (int id : *ids)
      if (id >= 0)
        info.compulsoryBytes +=
            support::shapeElements(s.g.values[id].shape) * support::dtypeBytes(s.g.values[id].dtype);
  if (std::holds_alternative<ConcatPlan>(p.plan) || std::holds_alternative<SlicePlan>(p.plan) ||
      std::holds_alternative<MovePlan>(p.plan))
    info.compulsoryBytes = 0;  // in place: its producers wrote it, or its readers read it or its parts
  info.dramBytes = info.compulsoryBytes;
  info.macs = nodeMacs(s.g, n);
  // The cost formulas applied to the program itself (the schedule's own estimate is in `why`).
  if (program >= 0) {  // (a move in place has none)
    ACCELC_ASSIGN_OR_RETURN(info.cycles, lower::estimateProgram(s.bundle.programs[static_cast<size_t>(program)], s.t));
  }
  return info;
}

}  // namespace

support::Status finishBundle(Lowering& s) {
  runtime::Bundle& b = s.bundle;
  b.hwspecYaml = s.hw.canonicalYaml();
  b.isaYaml = s.t.isa.yamlText;
  b.hash = s.t.hash;
  std::vector<int> program(s.g.nodes.size(), -1), step(s.g.nodes.size(), -1);  // per node: its program and step
  for (size_t si = 0; si < b.steps.size(); ++si) {
    if (s.stepNode[si] < 0) continue;  // a pack or unpack
    step[static_cast<size_t>(s.stepNode[si])] = static_cast<int>(si);
    if (b.steps[si].kind == runtime::Step::Kind::kAccel)
      program[static_cast<size_t>(s.stepNode[si])] = b.steps[si].program;
  }
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    ACCELC_ASSIGN_OR_RETURN(runtime::LayerInfo info, layerInfo(s, i, program[i]));
    info.step = step[i];
    b.layers.push_back(std::move(info));
  }
  b.graphText = printGraph(s.g);
  return runtime::validateBundle(b, s.t, s.g.model);
}

}  // namespace accelc::compiler
