// compiler/driver/build_steps.cc — the `build-steps` pass.
//
//   before: placements, borders
//   after:  step input:pack     pack   input -> input:blocked
//           step c1/Conv        accelerator (input:blocked) -> (c1:blocked)
//           step flatten        host Flatten (c2) -> (flat)
#include "compiler/driver/build_steps.h"

namespace accelc::compiler {

using runtime::Step;
using runtime::TensorSlot;
using support::Expected;

namespace {

runtime::BlockedForm formOf(Storage st) {
  return st == Storage::kDense     ? runtime::BlockedForm::kRows
         : st == Storage::kWeights ? runtime::BlockedForm::kWeights
                                   : runtime::BlockedForm::kImage;
}

runtime::BlockedLayout layoutFor(const Lowering& s, int v, Storage st) {
  if (st == Storage::kConv) return s.trialLayout(v);  // the final borders, and a view's pitch
  if (st == Storage::kDense) return s.rowsLayout(v);
  const Shape d = *runtime::blockedShape(s.g.values[v].shape, formOf(st), s.hw.blockIn);  // the placement's rank
  return {d[0], d[1], d[2], d[3], s.hw.blockIn, 0, 0, 0, 0, 0};  // zero weights past the channels
}

int slotFor(Lowering& s, int v, Storage st);

/// Records slot `slot` of value `v` as a view inside its Concat output's blocked slot.
void recordView(Lowering& s, int v, int slot) {
  const View& view = s.views[v];
  const int parent = slotFor(s, view.parent, Storage::kConv);
  const runtime::BlockedLayout& l = *s.bundle.tensors[parent].blocked;
  s.slotViews[slot] = {parent, static_cast<uint64_t>(l.entry(0, 0, view.block, 0) * l.block)};
}

/// The slot of value `v` in storage `st`, made when new.
int slotFor(Lowering& s, int v, Storage st) {
  auto key = std::make_pair(v, static_cast<int>(st));
  auto it = s.slots.find(key);
  if (it != s.slots.end()) return it->second;
  TensorSlot slot;
  const Value& val = s.g.values[v];
  slot.name = val.name + (st == Storage::kConv      ? ":blocked"
                           : st == Storage::kDense   ? ":dense"
                           : st == Storage::kWeights ? ":weights"
                                                     : "");
  slot.dtype = val.dtype, slot.shape = val.shape;
  if (st != Storage::kPlain) slot.blocked = layoutFor(s, v, st), slot.form = formOf(st);
  s.bundle.tensors.push_back(std::move(slot));
  const int id = s.slots[key] = static_cast<int>(s.bundle.tensors.size()) - 1;
  if (st == Storage::kConv && s.views[v].parent >= 0) recordView(s, v, id);
  if (const MovePlan* m = s.moveView(v); m && m->storage == st) {
    const int root = slotFor(s, m->root, Storage::kDense);
    s.slotViews[id] = {root, m->offset};
  }
  return id;
}

/// A pack or unpack step from slot `from` to slot `to` of value `v`.
void layoutStep(Lowering& s, Step::Kind kind, int v, int from, int to) {
  const std::string name = s.g.values[v].name + (kind == Step::Kind::kPack ? ":pack" : ":unpack");
  s.bundle.steps.push_back(Step{kind, name, -1, OpKind::kIdentity, runtime::NoAttrs{}, {from}, {to}});
  s.stepNode.push_back(-1);
}

/// The slot of value `v` in storage `st`, adding the pack or unpack step that makes it.
Expected<int> ensure(Lowering& s, int v, Storage st) {
  auto it = s.slots.find({v, static_cast<int>(st)});
  if (it != s.slots.end()) return it->second;
  if (const MovePlan* m = s.moveView(v)) {  // a view of rows that a layer wrote: read there
    const int view = slotFor(s, v, m->storage);
    if (st == m->storage) return view;
  }
  if (st == Storage::kPlain) {  // available only blocked: unpack
    for (Storage from : {Storage::kConv, Storage::kDense, Storage::kWeights}) {
      auto f = s.slots.find({v, static_cast<int>(from)});
      if (f == s.slots.end()) continue;
      const int to = slotFor(s, v, Storage::kPlain);
      layoutStep(s, Step::Kind::kUnpack, v, f->second, to);
      return to;
    }
    if (s.g.values[v].constant) return slotFor(s, v, Storage::kPlain);
    return support::error(support::Location::file(s.g.model),
                          "value '" + s.g.values[v].name + "' is used before it is computed");
  }
  ACCELC_ASSIGN_OR_RETURN(int plain, ensure(s, v, Storage::kPlain));
  const int to = slotFor(s, v, st);
  layoutStep(s, Step::Kind::kPack, v, plain, to);
  return to;
}

/// The step of node `i`.
Expected<Step> nodeStep(Lowering& s, size_t i) {
  const Node& n = s.g.nodes[i];
  Step step;
  step.name = n.name;
  if (s.placements[i].onAccelerator()) {  // QConv and MaxPool read and write blocked tensors, QGemm rows of pixels
    const Storage st = onRows(s, n) ? Storage::kDense : Storage::kConv;
    step.kind = Step::Kind::kAccel;
    const size_t operands =
        n.kind == OpKind::kQAdd || n.kind == OpKind::kQMatMul ? 2 : n.kind == OpKind::kQConcat ? n.inputs.size() : 1;
    const std::vector<int> values = isEltwise(n) ? eltwiseOperands(s, n)
                                                 : std::vector<int>(n.inputs.begin(), n.inputs.begin() + operands);
    for (size_t k = 0; k < values.size(); ++k) {  // a matrix product's right operand: its weights
      ACCELC_ASSIGN_OR_RETURN(int x, ensure(s, values[k], n.kind == OpKind::kQMatMul && k ? Storage::kWeights : st));
      step.inputs.push_back(x);
    }
    for (int y : n.outputs) step.outputs.push_back(slotFor(s, y, st));  // a Split's parts: views of its input
    return step;
  }
  step.kind = Step::Kind::kHost;
  step.op = n.kind;
  step.attrs = n.attrs;
  for (int id : n.inputs) {
    if (id < 0) {
      step.inputs.push_back(-1);
      continue;
    }
    ACCELC_ASSIGN_OR_RETURN(int slot, ensure(s, id, Storage::kPlain));
    step.inputs.push_back(slot);
  }
  for (int id : n.outputs) step.outputs.push_back(slotFor(s, id, Storage::kPlain));
  return step;
}

}  // namespace

support::Status buildSteps(Lowering& s) {
  for (int id : s.g.inputs) slotFor(s, id, Storage::kPlain);
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    if (std::holds_alternative<MovePlan>(s.placements[i].plan)) continue;  // its readers read in place
    ACCELC_ASSIGN_OR_RETURN(Step step, nodeStep(s, i));
    s.bundle.steps.push_back(std::move(step));
    s.stepNode.push_back(static_cast<int>(i));
  }
  for (int id : s.g.outputs) {
    ACCELC_ASSIGN_OR_RETURN(int slot, ensure(s, id, Storage::kPlain));
    s.bundle.outputs.push_back(slot);
  }
  for (int id : s.g.inputs) s.bundle.inputs.push_back(s.slots.at({id, 0}));
  return support::Status::ok();
}

}  // namespace accelc::compiler
