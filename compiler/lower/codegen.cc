// compiler/lower/codegen.cc — unrolling the loop IR into instructions.
#include "compiler/lower/codegen.h"

#include <algorithm>
#include <limits>

#include "isa/encoding.h"
#include "isa/semantics.h"

namespace accelc::compiler::lower {

namespace {

/// Walks the loop tree with the current values of the loop variables.
class Emitter {
 public:
  Emitter(const Kernel& k, const isa::Target& t, const CodegenPlacement& at, isa::ProgramBuilder& b)
      : k_(k), t_(t), at_(at), b_(b), vars_(k.vars.size(), 0) {}

  support::Status walk(const std::vector<Stmt>& body) {
    for (const Stmt& s : body) {
      if (s.var >= 0) {
        for (int64_t i = 0; i < s.extent; ++i) {
          vars_[s.var] = i;
          ACCELC_TRY(walk(s.body));
        }
        continue;
      }
      isa::Instruction insn = isa::makeInstruction(s.opcode);
      for (const auto& [name, e] : s.fields) {
        const bool ok = isa::setFieldValue(insn, name, e.eval(vars_));
        ACCELC_CHECK(ok) << "no field " << name << " in " << isa::opcodeName(s.opcode);
      }
      const bool uopLoad = s.opcode == isa::Opcode::kLoad && isa::Buffer(insn.mem().buffer) == isa::Buffer::kUop;
      if (uopLoad) insn.mem().dramBase = static_cast<int64_t>(at_.uops / t_.uopBytes());
      isa::Deps d;
      for (const Flag& f : s.flags) {
        const int64_t v = f.value.eval(vars_);
        if (v < f.lo || v >= f.hi) continue;
        if (f.name == "pop_prev") d.popPrev = true;
        if (f.name == "pop_next") d.popNext = true;
        if (f.name == "push_prev") d.pushPrev = true;
        if (f.name == "push_next") d.pushNext = true;
      }
      isa::setDeps(insn, d);
      if (uopLoad) appendUopLoad(insn);
      else out.push_back(insn);
    }
    return support::Status::ok();
  }

  std::vector<isa::Instruction> out;  ///< the instructions, in program order

 private:
  /// The micro-op table's load, split into loads of at most the ISA's
  /// largest x_size when the table is longer (narrow ISAs: 255 entries); the
  /// first piece keeps the pops, the last the pushes.
  void appendUopLoad(const isa::Instruction& load) {
    int64_t most = std::numeric_limits<int64_t>::max();
    for (const isa::FieldLayout& f : t_.isa.format(isa::Format::kMem).fields)
      if (f.name == "x_size" && f.bits < 62) most = (int64_t{1} << f.bits) - 1;
    const int64_t n = load.mem().xSize;
    const isa::Deps d = isa::depsOf(load);
    int64_t done = 0;
    do {
      isa::Instruction piece = load;
      isa::MemInsn& m = piece.mem();
      const bool first = done == 0, last = done + most >= n;
      m.sramBase += done, m.dramBase += done, m.xSize = m.xStride = std::min(most, n - done);
      isa::setDeps(piece, {d.popPrev && first, d.popNext && first, d.pushPrev && last, d.pushNext && last});
      out.push_back(piece);
      done += most;
    } while (done < n);
  }

  const Kernel& k_;
  const isa::Target& t_;
  const CodegenPlacement& at_;
  isa::ProgramBuilder& b_;
  std::vector<int64_t> vars_;  ///< current loop variable values
};

/// Replaces the tokens of a stream by a chain that orders every instruction
/// after the previous one. Units talk only to their neighbours, so a step
/// between load and store goes through a relay on the compute unit: a reload of
/// the first micro-op from its table, which changes nothing.
std::vector<isa::Instruction> serialized(const std::vector<isa::Instruction>& in, int64_t uopTable) {
  isa::Instruction relay = isa::makeInstruction(isa::Opcode::kLoad);
  relay.mem().buffer = static_cast<int64_t>(isa::Buffer::kUop);
  relay.mem().dramBase = uopTable, relay.mem().ySize = 1, relay.mem().xSize = 1, relay.mem().xStride = 1;
  std::vector<isa::Instruction> out;
  for (const isa::Instruction& i : in) {
    isa::Instruction next = i;
    isa::setDeps(next, {});
    if (!out.empty()) {
      const int a = static_cast<int>(isa::unitOf(out.back())), b = static_cast<int>(isa::unitOf(next));
      if (std::abs(a - b) == 2) {  // load <-> store: relay through compute
        isa::Instruction r = relay;
        isa::Deps dr;
        (a < b ? dr.popPrev : dr.popNext) = true;
        isa::Deps dp = isa::depsOf(out.back());
        (a < b ? dp.pushNext : dp.pushPrev) = true;
        isa::setDeps(out.back(), dp);
        isa::setDeps(r, dr);
        out.push_back(r);
      }
      const int c = static_cast<int>(isa::unitOf(out.back()));
      if (c != b) {
        isa::Deps dc = isa::depsOf(out.back()), dn = isa::depsOf(next);
        (b > c ? dc.pushNext : dc.pushPrev) = true;
        (b > c ? dn.popPrev : dn.popNext) = true;
        isa::setDeps(out.back(), dc);
        isa::setDeps(next, dn);
      }
    }
    out.push_back(next);
  }
  return out;
}

}  // namespace

support::Status emitKernel(const Kernel& k, const isa::Target& t, const CodegenPlacement& at, bool serialize,
                           isa::ProgramBuilder& b) {
  Emitter e(k, t, at, b);
  ACCELC_TRY(e.walk(k.body));
  std::vector<isa::Instruction> insns =
      serialize ? serialized(e.out, static_cast<int64_t>(at.uops / t.uopBytes())) : e.out;
  b.uops(k.name + ":uops", at.uops, k.uops);
  b.text(at.text);
  b.label(k.name);
  for (const isa::Instruction& i : insns) b.add(i);
  b.endLabel();
  return support::Status::ok();
}

}  // namespace accelc::compiler::lower
