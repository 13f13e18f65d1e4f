// compiler/lower/loop_ir.h — the loop-level IR an accelerator kernel lowers to.
//
// A kernel is a tree of loops over tiles whose leaves are intrinsics: one ISA
// instruction each (LOAD, STORE, GEMM, ALU, FINISH) with every field an
// integer expression of the enclosing loop variables, and dependency-token
// flags that hold when a predicate on the loop variables does. Double
// buffering appears as expressions taken modulo 2 (which half of a buffer an
// iteration uses). Accelerator codegen walks the tree and evaluates the
// expressions; the text form (printKernel) is what golden tests and
// `--dump-after=lower` show:
//
//   kernel "conv1" uops=288
//   for t in 0..4:
//     LOAD buffer=inp sram_base=512*(t mod 2) dram_base=40+80*t y_size=1 ... push_next
#ifndef ACCELC_COMPILER_LOWER_LOOP_IR_H_
#define ACCELC_COMPILER_LOWER_LOOP_IR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/instruction.h"

namespace accelc::compiler::lower {

/// c + Σ coeff·var, optionally taken modulo `mod`, times `scale`.
struct Term {
  int64_t constant = 0;                          ///< c
  std::vector<std::pair<int, int64_t>> coeffs;   ///< (loop variable id, coefficient)
  int64_t mod = 0;                               ///< > 0: (c + Σ) mod mod
  int64_t scale = 1;                             ///< multiplies the (modded) sum
};

/// An integer expression: a sum of terms.
struct Expr {
  std::vector<Term> terms;
  Expr() = default;
  Expr(int64_t c) { terms.push_back(Term{c, {}, 0, 1}); }  // NOLINT: constants convert
  /// `coeff · var`.
  static Expr var(int id, int64_t coeff = 1) {
    Expr e;
    e.terms.push_back(Term{0, {{id, coeff}}, 0, 1});
    return e;
  }
  Expr operator+(const Expr& o) const;
  Expr operator*(int64_t k) const;
  /// (this mod m) · scale; this must be a single unmodded term.
  Expr mod(int64_t m, int64_t scale = 1) const;
  int64_t eval(const std::vector<int64_t>& vars) const;
};

/// A token flag that is set when lo <= value < hi.
struct Flag {
  std::string name;  ///< pop_prev, pop_next, push_prev, push_next
  Expr value;        ///< usually a linear iteration counter
  int64_t lo = INT64_MIN, hi = INT64_MAX;
};

/// A loop or an intrinsic.
struct Stmt {
  // Loop: var >= 0.
  int var = -1;                 ///< loop variable id
  int64_t extent = 0;           ///< iterations
  std::vector<Stmt> body;       ///< loop body
  // Intrinsic: var == -1.
  isa::Opcode opcode = isa::Opcode::kFinish;  ///< the instruction
  std::vector<std::pair<std::string, Expr>> fields;  ///< ISA field name -> value (enum fields: the enumerator)
  std::vector<Flag> flags;      ///< token flags
  std::string comment;          ///< what it does, for the text form

  static Stmt loop(int var, int64_t extent) {
    Stmt s;
    s.var = var;
    s.extent = extent;
    return s;
  }
  static Stmt intrinsic(isa::Opcode op, std::string comment) {
    Stmt s;
    s.opcode = op;
    s.comment = std::move(comment);
    return s;
  }
  Stmt& set(const std::string& field, Expr e) {
    fields.emplace_back(field, std::move(e));
    return *this;
  }
  Stmt& flag(const std::string& name, Expr value = 0, int64_t lo = INT64_MIN, int64_t hi = INT64_MAX) {
    flags.push_back({name, std::move(value), lo, hi});
    return *this;
  }
};

/// One accelerator kernel (one layer).
struct Kernel {
  std::string name;                 ///< the layer
  std::vector<std::string> vars;    ///< loop variable names by id
  std::vector<isa::Uop> uops;       ///< the micro-op table LOADed at the start
  std::vector<Stmt> body;           ///< the loop nest
  int newVar(const std::string& n) {
    vars.push_back(n);
    return static_cast<int>(vars.size()) - 1;
  }
};

/// The text form.
std::string printKernel(const Kernel& k);

}  // namespace accelc::compiler::lower

#endif  // ACCELC_COMPILER_LOWER_LOOP_IR_H_
