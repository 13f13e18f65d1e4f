// compiler/driver/pipeline_text.cc — the back end's results as text.
#include "compiler/driver/pipeline_text.h"

#include <sstream>

#include "compiler/lower/loop_ir.h"

namespace accelc::compiler {

namespace {

std::string slotList(const runtime::Bundle& b, const std::vector<int>& ids) {
  std::string r;
  for (int id : ids) r += (r.empty() ? "" : ", ") + (id < 0 ? std::string("_") : b.tensors[id].name);
  return "(" + r + ")";
}

const char* stepKind(runtime::Step::Kind k) {
  switch (k) {
    case runtime::Step::Kind::kAccel:
      return "accelerator";
    case runtime::Step::Kind::kHost:
      return "host";
    case runtime::Step::Kind::kPack:
      return "pack";
    case runtime::Step::Kind::kUnpack:
      return "unpack";
  }
  return "?";
}

std::string hex(uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

}  // namespace

std::string bordersText(const Lowering& s) {
  std::string out;
  for (size_t v = 0; v < s.borders.size(); ++v) {
    const Shape& b = s.borders[v];
    if (b[0] || b[1] || b[2] || b[3])
      out += "border " + s.g.values[v].name + " " + std::to_string(b[0]) + "," + std::to_string(b[1]) + "," +
             std::to_string(b[2]) + "," + std::to_string(b[3]) + "\n";
  }
  return out;
}

std::string placementsText(const Lowering& s) {
  std::string out;
  for (size_t i = 0; i < s.placements.size(); ++i)
    out += "node " + s.g.nodes[i].name + ": " + s.placements[i].why + "\n";
  return out;
}

std::string stepsText(const Lowering& s) {
  const runtime::Bundle& b = s.bundle;
  std::string out;
  for (const runtime::Step& st : b.steps) {
    out += "step " + st.name + ": " + stepKind(st.kind);
    if (st.kind == runtime::Step::Kind::kHost) out += std::string(" ") + runtime::opInfo(st.op).name;
    out += " " + slotList(b, st.inputs) + " -> " + slotList(b, st.outputs) + "\n";
  }
  return out + "inputs " + slotList(b, b.inputs) + "\noutputs " + slotList(b, b.outputs) + "\n";
}

std::string dramPlanText(const Lowering& s) {
  const runtime::Bundle& b = s.bundle;
  std::string out;
  for (const runtime::TensorSlot& t : b.tensors) {
    out += "slot " + t.name + " " + support::dtypeName(t.dtype) + " " + support::shapeStr(t.shape) + " @" +
           hex(t.addr) + " " + std::to_string(t.bytes()) + " bytes";
    if (const auto& l = t.blocked)
      out += std::string(t.form == runtime::BlockedForm::kRows      ? " dense"
                         : t.form == runtime::BlockedForm::kWeights ? " weights"
                                                                    : " blocked") +
             " by " + std::to_string(l->block) + ", border " +
             std::to_string(l->top) + "," + std::to_string(l->left) + "," + std::to_string(l->bottom) + "," +
             std::to_string(l->right) + ", fill " + std::to_string(int{l->fill});
    out += "\n";
  }
  for (const runtime::ConstantData& c : b.constants)
    out += "constant " + c.name + " @" + hex(c.addr) + " " + std::to_string(c.bytes.size()) + " bytes\n";
  return out + "dram " + std::to_string(s.cursor) + " bytes, aligned to " + std::to_string(s.align) + "\n";
}

std::string kernelsText(const Lowering& s) {
  std::string out;
  for (const PendingProgram& p : s.pending) out += lower::printKernel(p.kernel);
  return out;
}

std::string programsText(const Lowering& s) {
  const runtime::Bundle& b = s.bundle;
  std::string out;
  for (size_t i = 0; i < b.programs.size() && i < s.pending.size(); ++i) {
    const isa::Program& p = b.programs[i];
    out += "program " + s.pending[i].name + ": " + std::to_string(p.text().bytes.size() / s.t.insnBytes()) +
           " instructions at " + hex(s.pending[i].at.text) + ", micro-ops at " + hex(s.pending[i].at.uops) + "\n";
  }
  return out + "window " + std::to_string(b.window) + " bytes\n";
}

std::string layersText(const Lowering& s) {
  std::string out;
  for (const runtime::LayerInfo& l : s.bundle.layers)
    out += "layer " + l.name + ": " + l.where + ", " + std::to_string(l.macs) + " MACs, " + std::to_string(l.cycles) +
           " estimated cycles, " + std::to_string(l.dramBytes) + " DRAM bytes; " + l.why + "\n";
  return out;
}

}  // namespace accelc::compiler
