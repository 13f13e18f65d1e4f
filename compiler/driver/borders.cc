// compiler/driver/borders.cc — the `trial-borders` and `infer-borders` passes.
//
//   before: every value without a border
//   after:  input   border 1,1,1,1     (read by a 3x3 convolution padded by 1)
#include "compiler/driver/borders.h"

#include <algorithm>
#include <optional>

namespace accelc::compiler {

namespace {

/// The borders node `n` needs of its input, or nothing when it reads no blocked 2-D input.
std::optional<Shape> borderNeeded(const Graph& g, const Node& n) {
  if (n.kind != OpKind::kQConv && n.kind != OpKind::kMaxPool) return std::nullopt;
  const Value &x = g.values[n.inputs[0]], &y = g.values[n.outputs[0]];
  if (x.shape.size() != 4 || y.shape.size() != 4) return std::nullopt;
  if (n.kind == OpKind::kMaxPool && std::get<runtime::PoolAttrs>(n.attrs).kernelShape.size() != 2) return std::nullopt;
  Shape p{0, 0, 0, 0}, st{1, 1}, k;
  if (n.kind == OpKind::kQConv) {
    const auto& a = std::get<runtime::QConvAttrs>(n.attrs);
    p = padsOf(a), k = {g.values[n.inputs[1]].shape[2], g.values[n.inputs[1]].shape[3]};
    if (!a.strides.empty()) st = a.strides;
  } else {
    const auto& a = std::get<runtime::PoolAttrs>(n.attrs);
    if (!a.pads.empty()) p = a.pads;
    if (!a.strides.empty()) st = a.strides;
    k = a.kernelShape;
  }
  return Shape{p[0], p[1], std::max<int64_t>(0, (y.shape[2] - 1) * st[0] + k[0] - p[0] - x.shape[2]),
               std::max<int64_t>(0, (y.shape[3] - 1) * st[1] + k[1] - p[1] - x.shape[3])};
}

void borders(Lowering& s, bool all) {
  s.borders.assign(s.g.values.size(), Shape{0, 0, 0, 0});
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    const Node& n = s.g.nodes[i];
    if (!all && !s.placements[i].onAccelerator()) continue;
    const std::optional<Shape> need = borderNeeded(s.g, n);
    if (!need) continue;
    Shape& b = s.borders[n.inputs[0]];
    for (int j = 0; j < 4; ++j) b[j] = std::max(b[j], (*need)[j]);
  }
}

}  // namespace

support::Status trialBorders(Lowering& s) {
  borders(s, true);
  return support::Status::ok();
}

support::Status inferBorders(Lowering& s) {
  borders(s, false);
  s.shareViewBorders();  // a view is stored inside its Concat's output, borders and all
  return support::Status::ok();
}

}  // namespace accelc::compiler
