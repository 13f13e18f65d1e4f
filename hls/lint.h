// hls/lint.h — the Vitis HLS coding rules, checked on C++ sources.
//
// Vitis HLS synthesizes only a subset of C++. lintHls() parses a source with
// clang (the JSON AST of `clang++ -fsyntax-only -Xclang -ast-dump=json`) and
// checks, in the file itself (not the headers it includes: under Vitis those
// are the vendor's), that it has
//   - no dynamic memory (new, delete, malloc, calloc, realloc, free);
//   - no recursion (no cycle of calls among its functions);
//   - no STL containers (vector, list, deque, map, set, their unordered
//     forms, string, queue, stack) in a variable, field or parameter;
//   - a `#pragma HLS loop_tripcount` in the body of every loop whose bound is
//     not a constant (a literal, a constexpr or const variable, an enumerator
//     or a template parameter), outside the loops nested in it;
//   - a `#pragma HLS INTERFACE ... port=NAME` in the top function for each
//     of its arguments.
// The first violation is an error at its file:line:col naming the rule.
#ifndef ACCELC_HLS_LINT_H_
#define ACCELC_HLS_LINT_H_

#include <string>
#include <vector>

#include "support/status.h"

namespace accelc::hls {

/// Checks `path` against the rules above; `top` names the top function
/// ("" when the file has none), `includes` the folders its headers lie in.
support::Status lintHls(const std::string& path, const std::string& top, const std::vector<std::string>& includes);

}  // namespace accelc::hls

#endif  // ACCELC_HLS_LINT_H_
