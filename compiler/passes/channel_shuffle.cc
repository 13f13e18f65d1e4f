// compiler/passes/channel_shuffle.cc — channel shuffles folded into the
// readers' weights (float) or made 1×1 QConvs (integer).
#include "compiler/passes/channel_shuffle.h"

#include <algorithm>
#include <utility>

#include "compiler/passes/channel_slices.h"
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

using runtime::OpKind;

namespace {

/// The index of the node that computes value `id`, or nothing.
std::optional<size_t> producerIndex(const Graph& g, int id) {
  const Node* p = producer(g, id);
  if (!p) return std::nullopt;
  return static_cast<size_t>(p - g.nodes.data());
}

/// Whether `s` is [N, f1..fk, H, W] (k >= 2) around the 4-D shape `x`, the
/// factors multiplying to C.
bool splitsChannels(const Shape& x, const Shape& s) {
  if (x.size() != 4 || s.size() < 5 || s[0] != x[0] || s[s.size() - 2] != x[2] || s.back() != x[3]) return false;
  int64_t c = 1;
  for (size_t i = 1; i + 2 < s.size(); ++i) c *= s[i];
  return c == x[1];
}

/// Output channel j of the permuted factors `t` (t[i] = s[perm[i]]) as an
/// input channel: j's digits over t's factor axes, placed at the axes they
/// came from in s and read back over s's factors.
std::vector<int64_t> sourceChannels(const Shape& s, const runtime::Ints& perm, int64_t c) {
  const size_t k = s.size() - 3;  // factor axes 1..k
  std::vector<int64_t> source(static_cast<size_t>(c)), digit(s.size());
  for (int64_t j = 0; j < c; ++j) {
    int64_t rest = j;
    for (size_t i = k; i >= 1; --i) {  // t's last factor varies fastest
      const int64_t f = s[static_cast<size_t>(perm[i])];
      digit[static_cast<size_t>(perm[i])] = rest % f, rest /= f;
    }
    int64_t src = 0;
    for (size_t i = 1; i <= k; ++i) src = src * s[i] + digit[i];
    source[static_cast<size_t>(j)] = src;
  }
  return source;
}

/// Whether `perm` moves only the factor axes of a rank-r shape.
bool permutesFactorsOnly(const runtime::Ints& perm, size_t r) {
  if (perm.size() != r || perm[0] != 0 || perm[r - 2] != static_cast<int64_t>(r - 2) ||
      perm[r - 1] != static_cast<int64_t>(r - 1))
    return false;
  std::vector<bool> seen(r, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(r) || seen[static_cast<size_t>(p)]) return false;
    seen[static_cast<size_t>(p)] = true;
  }
  return true;
}

/// Whether a reader of the shuffled value can take the permutation into its weights.
bool foldableReader(const Graph& g, const Node& n, int id) {
  if (n.kind != OpKind::kConv || n.inputs[0] != id || std::get<runtime::ConvAttrs>(n.attrs).group != 1) return false;
  for (size_t i = 1; i < n.inputs.size(); ++i)
    if (n.inputs[i] == id) return false;
  const Tensor* w = constantOf(g, n.inputs[1]);
  return w && w->dtype() == support::DType::kFloat32 && w->rank() == 4 && w->dim(1) == g.values[id].shape[1];
}

/// Moves the shuffle into every reader's weights; false (nothing changed) when
/// a reader cannot take it.
bool foldIntoReaders(Graph& g, const ChannelShuffle& s) {
  if (isBoundary(g, s.output)) return false;
  std::vector<size_t> readers;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const auto& in = g.nodes[i].inputs;
    if (std::find(in.begin(), in.end(), s.output) == in.end()) continue;
    if (!foldableReader(g, g.nodes[i], s.output)) return false;
    readers.push_back(i);
  }
  for (size_t r : readers) {
    Node& conv = g.nodes[r];
    const Tensor& w = *constantOf(g, conv.inputs[1]);
    Tensor nw = w;
    const int64_t m = w.dim(0), c = w.dim(1), window = w.dim(2) * w.dim(3);
    for (int64_t o = 0; o < m; ++o)
      for (int64_t j = 0; j < c; ++j)
        std::copy_n(w.data<float>() + (o * c + j) * window, window,
                    nw.data<float>() + (o * c + s.source[static_cast<size_t>(j)]) * window);
    conv.inputs[1] = addConstant(g, conv.name + ":weight_shuffled", std::move(nw));
    conv.inputs[0] = s.input;
  }
  return true;
}

/// The 1×1 QConv `name` that copies int8 channel source[first + j] to channel j of `output`.
Node permutationConv(Graph& g, const ChannelShuffle& s, int64_t zero, int64_t first, int output,
                     const std::string& name) {
  const int64_t c = static_cast<int64_t>(s.source.size()), m = g.values[output].shape[1];
  Tensor w(support::DType::kInt8, {m, c, 1, 1});
  for (int64_t j = 0; j < m; ++j) w.data<int8_t>()[j * c + s.source[static_cast<size_t>(first + j)]] = 2;
  runtime::QConvAttrs a;
  a.padValue = zero, a.zeroPoint = zero;
  Node q;
  q.kind = OpKind::kQConv, q.name = name, q.attrs = a;
  q.inputs = {s.input, addConstant(g, name + ":weight", std::move(w)),
              addConstant(g, name + ":bias", Tensor::of<int32_t>({m}, std::vector<int32_t>(m, static_cast<int32_t>(-2 * zero)))),
              addConstant(g, name + ":mult", Tensor::of<int32_t>({m}, std::vector<int32_t>(m, int32_t{1} << 30))),
              addConstant(g, name + ":shift", Tensor::of<int32_t>({m}, std::vector<int32_t>(m, 0)))};
  q.outputs = {output};
  return q;
}

/// The per-tensor int8 zero point that `from` and `to` share, or nothing.
std::optional<int64_t> copiedZero(const Graph& g, int from, int to) {
  const Value &x = g.values[from], &y = g.values[to];
  if (x.dtype != support::DType::kInt8 || y.dtype != support::DType::kInt8 || x.quant.scale.size() != 1 ||
      x.quant.zeroPoint.size() != 1 || !(x.quant == y.quant))
    return std::nullopt;
  return x.quant.zeroPoint[0];
}

/// The readers of the shuffle's output when each is a channel Split or Slice
/// (channel_slices.h) that copies its int8 values; empty otherwise.
std::vector<size_t> sliceReaders(const Graph& g, const ChannelShuffle& s) {
  if (isBoundary(g, s.output)) return {};
  std::vector<size_t> readers;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (std::find(n.inputs.begin(), n.inputs.end(), s.output) == n.inputs.end()) continue;
    if (n.inputs[0] != s.output || !channelStarts(g, n)) return {};
    for (int y : n.outputs)
      if (!copiedZero(g, s.input, y)) return {};
    readers.push_back(i);
  }
  return readers;
}

/// The QConvs that replace a shuffle, placed at the node they replace: one
/// per part of each reader when all its readers cut channels (each part is
/// then written by its own QConv, which a Concat can take in place), else one.
void replaceShuffle(Graph& g, const ChannelShuffle& s, int64_t zero, std::vector<std::vector<Node>>& at,
                    std::vector<bool>& drop) {
  drop[s.split] = drop[s.transpose] = true;
  const std::vector<size_t> readers = sliceReaders(g, s);
  if (readers.empty()) {
    at[s.merge].push_back(permutationConv(g, s, zero, 0, s.output, g.nodes[s.merge].name));
    return;
  }
  drop[s.merge] = true;
  for (size_t r : readers) {
    const Node n = g.nodes[r];
    const std::vector<int64_t> starts = *channelStarts(g, n);
    for (size_t k = 0; k < n.outputs.size(); ++k)
      at[r].push_back(permutationConv(g, s, zero, starts[k], n.outputs[k],
                                      n.outputs.size() == 1 ? n.name : n.name + ":" + std::to_string(k)));
  }
}

}  // namespace

std::optional<ChannelShuffle> channelShuffleEndingAt(const Graph& g, size_t merge) {
  ChannelShuffle s;
  s.merge = merge;
  const Node& m = g.nodes[merge];
  if (m.kind != OpKind::kReshape) return std::nullopt;
  const auto t = producerIndex(g, m.inputs[0]);
  if (!t || g.nodes[*t].kind != OpKind::kTranspose || useCount(g, m.inputs[0]) != 1) return std::nullopt;
  const Node& tn = g.nodes[*t];
  const auto sp = producerIndex(g, tn.inputs[0]);
  if (!sp || g.nodes[*sp].kind != OpKind::kReshape || useCount(g, tn.inputs[0]) != 1) return std::nullopt;
  s.split = *sp, s.transpose = *t, s.input = g.nodes[*sp].inputs[0], s.output = m.outputs[0];
  const Shape &x = g.values[s.input].shape, &split = g.values[tn.inputs[0]].shape;
  const auto& perm = std::get<runtime::PermAttrs>(tn.attrs).perm;
  if (!splitsChannels(x, split) || !permutesFactorsOnly(perm, split.size()) || g.values[s.output].shape != x)
    return std::nullopt;
  s.source = sourceChannels(split, perm, x[1]);
  return s;
}

support::Status foldChannelShuffles(Graph& g) {
  bool folded = false;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (auto s = channelShuffleEndingAt(g, i); s && g.values[s->input].dtype == support::DType::kFloat32)
      folded = foldIntoReaders(g, *s) || folded;
  if (folded) removeDeadNodes(g);
  return support::Status::ok();
}

void shuffleToConvs(Graph& g, std::vector<std::string>* log) {
  // Shuffles do not share nodes (their inner values have one reader each), and
  // each replacement writes the values the nodes it replaces wrote: found on
  // the graph as it is, replaced in one sweep.
  std::vector<std::vector<Node>> at(g.nodes.size());
  std::vector<bool> drop(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const auto s = channelShuffleEndingAt(g, i);
    const auto zero = s ? copiedZero(g, s->input, s->output) : std::nullopt;
    if (!zero) continue;
    replaceShuffle(g, *s, *zero, at, drop);
    if (log)
      log->push_back(g.nodes[i].name + ": a shuffle of " + std::to_string(s->source.size()) + " channels becomes " +
                     (drop[i] ? "a 1x1 QConv with permutation weights per channel slice read from it"
                              : "a 1x1 QConv with permutation weights"));
  }
  std::vector<Node> nodes;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!at[i].empty())
      for (Node& n : at[i]) nodes.push_back(std::move(n));
    else if (!drop[i])
      nodes.push_back(std::move(g.nodes[i]));
  }
  g.nodes = std::move(nodes);
}

}  // namespace accelc::compiler
