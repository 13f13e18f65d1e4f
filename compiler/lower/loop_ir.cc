// compiler/lower/loop_ir.cc — expressions and the text form of the loop IR.
#include "compiler/lower/loop_ir.h"

#include <sstream>

#include "support/check.h"

namespace accelc::compiler::lower {

Expr Expr::operator+(const Expr& o) const {
  Expr e = *this;
  e.terms.insert(e.terms.end(), o.terms.begin(), o.terms.end());
  return e;
}

Expr Expr::operator*(int64_t k) const {
  Expr e = *this;
  for (Term& t : e.terms) t.scale *= k;
  return e;
}

Expr Expr::mod(int64_t m, int64_t scale) const {
  ACCELC_CHECK(terms.size() == 1 && terms[0].mod == 0 && terms[0].scale == 1) << "mod of a compound expression";
  Expr e = *this;
  e.terms[0].mod = m;
  e.terms[0].scale = scale;
  return e;
}

int64_t Expr::eval(const std::vector<int64_t>& vars) const {
  int64_t v = 0;
  for (const Term& t : terms) {
    int64_t s = t.constant;
    for (const auto& [id, c] : t.coeffs) s += c * vars[id];
    if (t.mod > 0) s = ((s % t.mod) + t.mod) % t.mod;
    v += s * t.scale;
  }
  return v;
}

namespace {

std::string termText(const Term& t, const std::vector<std::string>& names) {
  std::string s;
  if (t.constant || t.coeffs.empty()) s = std::to_string(t.constant);
  for (const auto& [id, c] : t.coeffs)
    s += (s.empty() ? "" : "+") + (c == 1 ? "" : std::to_string(c) + "*") + names[id];
  if (t.mod > 0) s = "((" + s + ") mod " + std::to_string(t.mod) + ")";
  if (t.scale != 1) s = std::to_string(t.scale) + "*" + (t.mod > 0 || t.coeffs.size() + (t.constant != 0) <= 1 ? s : "(" + s + ")");
  return s;
}

std::string exprText(const Expr& e, const std::vector<std::string>& names) {
  std::string s;
  for (const Term& t : e.terms) {
    if (t.constant == 0 && t.coeffs.empty() && e.terms.size() > 1) continue;
    s += (s.empty() ? "" : "+") + termText(t, names);
  }
  return s.empty() ? "0" : s;
}

void printStmts(const std::vector<Stmt>& body, const std::vector<std::string>& names, int indent, std::ostringstream& o) {
  for (const Stmt& s : body) {
    o << std::string(indent * 2, ' ');
    if (s.var >= 0) {
      o << "for " << names[s.var] << " in 0.." << s.extent << ":\n";
      printStmts(s.body, names, indent + 1, o);
      continue;
    }
    o << isa::opcodeName(s.opcode);
    for (const auto& [f, e] : s.fields) {
      const bool constant = e.terms.size() == 1 && e.terms[0].coeffs.empty() && e.terms[0].mod == 0;
      const int64_t v = constant ? e.eval({}) : 0;
      if (f == "buffer" && constant) o << " buffer=" << isa::bufferName(isa::Buffer(v));
      else if (f == "alu_op" && constant) o << " alu_op=" << isa::aluOpName(isa::AluOp(v));
      else o << " " << f << "=" << exprText(e, names);
    }
    for (const Flag& f : s.flags) {
      o << " " << f.name;
      const bool always = f.lo == INT64_MIN && f.hi == INT64_MAX;
      if (always) continue;
      o << "[";
      if (f.lo != INT64_MIN) o << f.lo << "<=";
      o << exprText(f.value, names);
      if (f.hi != INT64_MAX) o << "<" << f.hi;
      o << "]";
    }
    if (!s.comment.empty()) o << "  ; " << s.comment;
    o << "\n";
  }
}

}  // namespace

std::string printKernel(const Kernel& k) {
  std::ostringstream o;
  o << "kernel \"" << k.name << "\" uops=" << k.uops.size() << "\n";
  printStmts(k.body, k.vars, 0, o);
  return o.str();
}

}  // namespace accelc::compiler::lower
