// compiler/passes/im2col.cc — QConv over few channels becomes Im2col + 1×1 QConv.
#include "compiler/passes/im2col.h"

#include <utility>

#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

using runtime::OpKind;

namespace {

int64_t blocks(int64_t channels, int64_t width) { return (channels + width - 1) / width; }

/// Whether unrolling `n` pays: a QConv of one group fed from the host, a
/// window above 1×1, at least half the GEMM passes. (Im2col unrolls every
/// input channel, which a grouped convolution's weights do not cover.)
bool worthUnrolling(const Graph& g, const Node& n, const hwspec::HwSpec& hw) {
  if (n.kind != OpKind::kQConv || std::get<runtime::QConvAttrs>(n.attrs).group != 1) return false;
  const Value &x = g.values[n.inputs[0]], &w = g.values[n.inputs[1]];
  if (x.shape.size() != 4 || w.shape.size() != 4 || !w.constant) return false;
  const Node* p = producer(g, n.inputs[0]);
  if (!p || p->kind != OpKind::kQuantizeLinear) return false;
  const int64_t c = w.shape[1], window = w.shape[2] * w.shape[3];
  return window > 1 && 2 * blocks(c * window, hw.blockIn) <= window * blocks(c, hw.blockIn);
}

}  // namespace

void im2colNarrowConvs(Graph& g, const hwspec::HwSpec& hw, std::vector<std::string>* log) {
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!worthUnrolling(g, g.nodes[i], hw)) continue;
    Node conv = g.nodes[i];
    auto attrs = std::get<runtime::QConvAttrs>(conv.attrs);
    const Value x = g.values[conv.inputs[0]], w = g.values[conv.inputs[1]];
    const Shape& ys = g.values[conv.outputs[0]].shape;
    const int64_t k = w.shape[1] * w.shape[2] * w.shape[3];
    runtime::Im2colAttrs ia;
    ia.kernelShape = {w.shape[2], w.shape[3]}, ia.strides = attrs.strides, ia.pads = attrs.pads;
    ia.padValue = attrs.padValue;
    Value cols = x;
    cols.name = conv.name + ":im2col", cols.shape = {x.shape[0], k, ys[2], ys[3]};
    Value wk = w;
    wk.name = w.name + ":im2col", wk.shape = {w.shape[0], k, 1, 1};
    wk.constant->reshape(wk.shape);
    Node unroll;
    unroll.kind = OpKind::kIm2col, unroll.name = conv.name + ":im2col", unroll.attrs = ia;
    unroll.inputs = {conv.inputs[0]};
    unroll.outputs = {g.addValue(std::move(cols))};
    conv.inputs[0] = unroll.outputs[0], conv.inputs[1] = g.addValue(std::move(wk));
    attrs.strides.clear(), attrs.pads.clear();
    conv.attrs = attrs;
    g.nodes[i] = std::move(conv);
    g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(i), std::move(unroll));
    if (log)
      log->push_back(g.nodes[i + 1].name + ": " + std::to_string(k / ia.kernelShape[0] / ia.kernelShape[1]) +
                     " input channels unrolled to " + std::to_string(k) + " on the host (Im2col), then a 1x1 QConv");
    ++i;
  }
}

}  // namespace accelc::compiler
