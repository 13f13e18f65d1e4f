// compiler/passes/channel_slices.cc — Split and Slice as channel ranges.
#include "compiler/passes/channel_slices.h"

#include <algorithm>

#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

namespace {

/// The integers of constant `id` (int32 or int64), or nothing.
std::optional<std::vector<int64_t>> intsOf(const Graph& g, int id) {
  const Tensor* t = constantOf(g, id);
  if (!t || (t->dtype() != support::DType::kInt64 && t->dtype() != support::DType::kInt32)) return std::nullopt;
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t->numel(); ++i) v.push_back(static_cast<int64_t>(t->at(i)));
  return v;
}

std::optional<std::vector<int64_t>> splitStarts(const Graph& g, const Node& n, const Shape& x) {
  const auto& a = std::get<runtime::SplitAttrs>(n.attrs);
  if (a.axis != 1 && a.axis != -3) return std::nullopt;
  std::vector<int64_t> starts;
  int64_t at = 0;
  for (int y : n.outputs) {  // the parts' sizes are their static shapes (checked against the sizes by the kernel)
    const Shape& s = g.values[y].shape;
    if (s.size() != 4 || s[0] != x[0] || s[2] != x[2] || s[3] != x[3]) return std::nullopt;
    starts.push_back(at);
    at += s[1];
  }
  return at == x[1] ? std::optional<std::vector<int64_t>>(starts) : std::nullopt;
}

std::optional<std::vector<int64_t>> sliceStart(const Graph& g, const Node& n, const Shape& x) {
  const auto starts = intsOf(g, n.inputs[1]);
  const auto axes = n.inputs.size() > 3 && n.inputs[3] >= 0 ? intsOf(g, n.inputs[3]) : std::nullopt;
  const auto steps = n.inputs.size() > 4 && n.inputs[4] >= 0 ? intsOf(g, n.inputs[4]) : std::nullopt;
  if (!starts || (n.inputs.size() > 3 && n.inputs[3] >= 0 && !axes) || (n.inputs.size() > 4 && n.inputs[4] >= 0 && !steps))
    return std::nullopt;
  if (steps && std::any_of(steps->begin(), steps->end(), [](int64_t s) { return s != 1; })) return std::nullopt;
  const Shape& y = g.values[n.outputs[0]].shape;
  if (y.size() != 4 || y[0] != x[0] || y[2] != x[2] || y[3] != x[3]) return std::nullopt;  // cut channels only
  int64_t first = 0;
  for (size_t i = 0; i < starts->size(); ++i) {
    const int64_t ax = axes ? ((*axes)[i] < 0 ? (*axes)[i] + 4 : (*axes)[i]) : static_cast<int64_t>(i);
    if (ax != 1) continue;  // another axis keeps its whole extent (the shapes say so), from 0 at step 1
    const int64_t s = (*starts)[i] < 0 ? (*starts)[i] + x[1] : (*starts)[i];
    first = std::clamp<int64_t>(s, 0, x[1]);
  }
  if (first + y[1] > x[1]) return std::nullopt;
  return std::vector<int64_t>{first};
}

}  // namespace

std::optional<std::vector<int64_t>> channelStarts(const Graph& g, const Node& n) {
  if ((n.kind != OpKind::kSplit && n.kind != OpKind::kSlice) || n.inputs.empty() || n.outputs.empty())
    return std::nullopt;
  const Shape& x = g.values[n.inputs[0]].shape;
  if (x.size() != 4) return std::nullopt;
  return n.kind == OpKind::kSplit ? splitStarts(g, n, x) : sliceStart(g, n, x);
}

}  // namespace accelc::compiler
