// compiler/driver/move_clamps.cc — the `move-clamps` pass.
//
//   before: conv1   accelerator: ... (clamps at 0)      maxpool   accelerator: ALU max over 8-row tiles
//   after:  conv1   accelerator: ...; its clamp below moves to maxpool
//           maxpool accelerator: ALU max over 8-row tiles; it clamps below at 0 for conv1
#include "compiler/driver/move_clamps.h"

#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

support::Status moveClamps(Lowering& s) {
  for (size_t p = 0; p < s.g.nodes.size(); ++p) {
    const Node& pool = s.g.nodes[p];
    auto* pp = std::get_if<PoolPlan>(&s.placements[p].plan);
    if (pool.kind != OpKind::kMaxPool || !pp) continue;
    const int v = pool.inputs[0];
    if (useCount(s.g, v) != 1) continue;  // the pool alone reads it, and it is no graph output
    for (size_t c = 0; c < s.g.nodes.size(); ++c) {
      const Node& conv = s.g.nodes[c];
      if (conv.outputs.empty() || conv.outputs[0] != v) continue;
      const int64_t lo = conv.kind == OpKind::kQConv ? std::get<runtime::QConvAttrs>(conv.attrs).lo : -128;
      auto* cp = std::get_if<ConvPlan>(&s.placements[c].plan);
      // At or above the zero point the pool's border (which holds it) still stands in for -infinity.
      if (cp && lo > -128 && lo >= s.bareFill(v)) {
        cp->clampMoved = true, pp->lo = lo;
        s.placements[c].why += "; its clamp below moves to " + pool.name;
        s.placements[p].why += "; it clamps below at " + std::to_string(lo) + " for " + conv.name;
      }
      break;
    }
  }
  return support::Status::ok();
}

}  // namespace accelc::compiler
