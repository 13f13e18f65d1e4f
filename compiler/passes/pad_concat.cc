// compiler/passes/pad_concat.cc — see pad_concat.h. With blocks of 16:
//
//   before: a = QConv(x, w_a[24,C,1,1]); b = QConv(...)[24]; y = QConcat(a, b)[48]; z = QConv(y, w_z[M,48,3,3])
//   after:  a = QConv(x, w_a[32,C,1,1]) (rows 24..31 zero, bias 0); y = QConcat(a, b)[56];
//           z = QConv(y, w_z'[M,56,3,3]) (w_z' columns 0..23 and 32..55 are w_z's, 24..31 zero)
#include "compiler/passes/pad_concat.h"

#include <algorithm>

#include "compiler/passes/concat_chains.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

using runtime::OpKind;
using runtime::Tensor;

namespace {

/// Whether node `n` is a QConv of one group whose weights and requantization are constants.
bool constantConv(const Graph& g, const Node& n) {
  if (n.kind != OpKind::kQConv || std::get<runtime::QConvAttrs>(n.attrs).group != 1 || n.inputs.size() != 5)
    return false;
  return std::all_of(n.inputs.begin() + 1, n.inputs.end(), [&](int v) { return constantOf(g, v) != nullptr; });
}

/// The channels of `c`'s inputs after padding: every input but the last rounded up to whole blocks of `block`
/// where its producer can compute them; empty when the Concat is left as it is.
std::vector<int64_t> paddedChannels(const Graph& g, const Node& c, int64_t block) {
  if (c.kind != OpKind::kQConcat) return {};
  const auto& a = std::get<runtime::QConcatAttrs>(c.attrs);
  const int y = c.outputs[0];
  if (g.values[y].shape.size() != 4 || (a.axis != 1 && a.axis != -3) || isBoundary(g, y)) return {};
  std::vector<int64_t> padded;
  bool any = false;
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const int v = c.inputs[k];
    const int64_t ch = g.values[v].shape[1];
    const Node* p = producer(g, v);
    // A Concat nested in another stays on the host (partition.cc): padding would gain nothing.
    if (!concatCopies(a, k) || (p && (p->kind == OpKind::kQConcat || p->kind == OpKind::kConcat))) return {};
    if (k + 1 == c.inputs.size() || ch % block == 0) {
      padded.push_back(ch);
      continue;
    }
    if (!p || !constantConv(g, *p) || useCount(g, v) != 1 || isBoundary(g, v)) return {};
    padded.push_back((ch + block - 1) / block * block);
    any = true;
  }
  int readers = 0;
  for (const Node& n : g.nodes) {
    if (std::find(n.inputs.begin(), n.inputs.end(), y) == n.inputs.end()) continue;
    if (!constantConv(g, n) || n.inputs[0] != y || std::count(n.inputs.begin(), n.inputs.end(), y) != 1) return {};
    ++readers;
  }
  return any && readers == useCount(g, y) ? padded : std::vector<int64_t>{};
}

/// `t` [rows, ...] with `more` rows of zeros after its own.
Tensor moreRows(const Tensor& t, int64_t more) {
  runtime::Shape s = t.shape();
  s[0] += more;
  Tensor out(t.dtype(), s);  // zeros
  std::copy(t.bytes().begin(), t.bytes().end(), out.bytes().begin());
  return out;
}

/// `t` [rows] (int32) with `more` copies of its first value after its own.
Tensor moreOfTheFirst(const Tensor& t, int64_t more) {
  Tensor out = moreRows(t, more);
  for (int64_t i = t.numel(); i < out.numel(); ++i) out.data<int32_t>()[i] = t.data<int32_t>()[0];
  return out;
}

/// Producer `p` computes `channels` output channels: the new ones with zero weights and bias, so a sum of 0
/// whose requantization is the zero point (which the readers' zero weights ignore) whatever the multiplier
/// and shift. They take channel 0's, so that a layer whose multipliers all are INT32_MAX (no mulq) stays so.
void padProducer(Graph& g, Node& p, int64_t channels) {
  const int64_t more = channels - g.values[p.outputs[0]].shape[1];
  // Named after the output: value names are unique, node names need not be.
  const std::string at = g.values[p.outputs[0]].name + ":more_outputs";
  p.inputs[1] = addConstant(g, at + "_weight", moreRows(*constantOf(g, p.inputs[1]), more));
  p.inputs[2] = addConstant(g, at + "_bias", moreRows(*constantOf(g, p.inputs[2]), more));
  p.inputs[3] = addConstant(g, at + "_mult", moreOfTheFirst(*constantOf(g, p.inputs[3]), more));
  p.inputs[4] = addConstant(g, at + "_shift", moreOfTheFirst(*constantOf(g, p.inputs[4]), more));
  g.values[p.outputs[0]].shape[1] = channels;
}

/// Reader `r`'s weights [M, C, KH, KW] spread over the padded channels: input k's channel j moves from
/// Σ_{i<k} old[i] + j to Σ_{i<k} padded[i] + j, and the channels between get zero weights.
void padReader(Graph& g, Node& r, const std::vector<int64_t>& old, const std::vector<int64_t>& padded, int64_t total) {
  const Tensor& w = *constantOf(g, r.inputs[1]);
  const runtime::Shape& s = w.shape();
  const int64_t c = s[1], window = s[2] * s[3];
  Tensor nw(w.dtype(), {s[0], total, s[2], s[3]});
  for (int64_t m = 0; m < s[0]; ++m) {
    int64_t from = 0, to = 0;
    for (size_t k = 0; k < old.size(); ++k) {
      std::copy_n(w.data<int8_t>() + (m * c + from) * window, old[k] * window,
                  nw.data<int8_t>() + (m * total + to) * window);
      from += old[k], to += padded[k];
    }
  }
  r.inputs[1] = addConstant(g, g.values[r.outputs[0]].name + ":more_inputs_weight", std::move(nw));
}

}  // namespace

void padConcatChannels(Graph& g, const hwspec::HwSpec& hw, std::vector<std::string>* log) {
  if (hw.batch != 1 || hw.blockIn != hw.blockOut) return;  // no Concat is placed in DRAM there
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const std::vector<int64_t> padded = paddedChannels(g, g.nodes[i], hw.blockIn);
    if (padded.empty()) continue;
    const Node c = g.nodes[i];
    std::vector<int64_t> old;
    for (size_t k = 0; k < c.inputs.size(); ++k) {
      old.push_back(g.values[c.inputs[k]].shape[1]);
      if (padded[k] != old.back()) padProducer(g, *producer(g, c.inputs[k]), padded[k]);
    }
    const int y = c.outputs[0];
    int64_t total = 0;
    for (int64_t p : padded) total += p;
    for (Node& n : g.nodes)
      if (!n.inputs.empty() && n.inputs[0] == y) padReader(g, n, old, padded, total);
    const int64_t before = g.values[y].shape[1];
    g.values[y].shape[1] = total;
    if (log)
      log->push_back(c.name + ": inputs padded to whole blocks of " + std::to_string(hw.blockIn) + " channels (" +
                     std::to_string(before) + " to " + std::to_string(total) + "), so that it can be placed in DRAM");
  }
}

}  // namespace accelc::compiler
