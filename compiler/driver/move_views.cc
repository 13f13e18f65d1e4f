// compiler/driver/move_views.cc — moves of rows of pixels as views.
//
//   before: /attn/Transpose  host: not an accelerator operator
//   after:  /attn/Transpose  accelerator: in place: a view of '/attn/MatMul:rows' from byte 0 ...
//
// A view is stored as rows of pixels, or, for Kᵀ read as a matrix product's
// right operand, as weights: the weights form holds a matrix's transpose as
// rows (runtime::BlockedForm::kWeights), so Kᵀ's weight blocks are K's rows.
//
// A chain of moves (attention's Reshape [S, H, d] then Transpose [H, S, d])
// permutes elements. Whether its end can be read in place is decided by
// running the chain's own reference kernels on the root's element indices,
// then comparing, element by element, where the root's rows storage holds
// each one and where the end's rows storage would: both are checked, so no
// case analysis of the moves can be wrong.
#include "compiler/driver/move_views.h"

#include <algorithm>
#include <map>

#include "compiler/passes/rewrite.h"
#include "runtime/ops.h"

namespace accelc::compiler {

using runtime::Tensor;

namespace {

/// Chains longer than this many elements are left to the host (the check walks every element).
constexpr int64_t kMaxElements = int64_t{1} << 22;

/// Whether an accelerator layer writes value `v` as rows of pixels.
bool storedAsRows(const Lowering& s, int v) {
  const Node* p = producer(s.g, v);
  if (!p || p->outputs.size() != 1) return false;
  const Placement& at = s.placements[static_cast<size_t>(p - s.g.nodes.data())];
  return at.onAccelerator() && !std::holds_alternative<MovePlan>(at.plan) && onRows(s, *p) &&
         s.g.values[v].shape.size() >= 2;
}

/// The byte at which layout `l` of a value of `shape` stored as `st` holds its element `e` (row-major index):
/// as rows (kDense), [..., M, K] with K in the lanes and M the pixels; as weights (kWeights), [..., K, N] with
/// K in the lanes and N the pixels (runtime::BlockedForm).
int64_t storedByte(const runtime::BlockedLayout& l, const Shape& shape, Storage st, int64_t e) {
  ACCELC_CHECK(st == Storage::kDense || st == Storage::kWeights) << "a move's view is rows or weights";
  const int64_t last = shape.back(), before = shape[shape.size() - 2], b = e / (before * last);
  const bool rows = st == Storage::kDense;
  const int64_t px = rows ? e / last % before : e % last, ch = rows ? e % last : e / last % before;
  return l.entry(b, 0, ch / l.block, px) * l.block + ch % l.block;
}

/// The layout of value `y` stored as `st`, when every byte of it holds an element (whole channel blocks, and
/// as weights whole columns of blocks too: padding would show the root's bytes).
std::optional<runtime::BlockedLayout> wholeLayout(const Lowering& s, int y, Storage st) {
  const Shape& ys = s.g.values[y].shape;
  const int64_t blk = s.hw.blockIn;
  if (ys.size() < 2) return std::nullopt;
  if (st == Storage::kDense) return ys.back() % blk ? std::nullopt : std::optional(s.rowsLayout(y));
  if (ys.back() % blk || ys[ys.size() - 2] % blk) return std::nullopt;
  const Shape d = *runtime::blockedShape(ys, runtime::BlockedForm::kWeights, blk);
  return runtime::BlockedLayout{d[0], d[1], d[2], d[3], blk, 0, 0, 0, 0, 0};
}

/// The byte offset in `root`'s rows storage from which value `y` stored as `st`, laid there, holds every
/// element where the root holds it; `index` gives each element of y's root element. Nothing when y's storage
/// is not whole blocks or the bytes differ anywhere.
std::optional<uint64_t> contiguousView(const Lowering& s, int root, int y, const Tensor& index, Storage st) {
  const Shape &ys = s.g.values[y].shape, &rs = s.g.values[root].shape;
  const auto ly = wholeLayout(s, y, st);
  if (!ly || index.numel() == 0 || index.shape() != ys) return std::nullopt;  // (the graph's shape, checked)
  const runtime::BlockedLayout lr = s.rowsLayout(root);
  const int32_t* idx = index.data<int32_t>();
  const int64_t offset = storedByte(lr, rs, Storage::kDense, idx[0]) - storedByte(*ly, ys, st, 0);
  // The loads address DRAM in their buffer's entries: a weight entry is a whole block × block.
  const int64_t entry = st == Storage::kWeights ? s.hw.entryBytes(hwspec::BufferKind::kWeight)
                                                : s.hw.entryBytes(hwspec::BufferKind::kInput);
  if (offset < 0 || offset % entry) return std::nullopt;
  for (int64_t e = 0; e < index.numel(); ++e)
    if (storedByte(*ly, ys, st, e) + offset != storedByte(lr, rs, Storage::kDense, idx[e])) return std::nullopt;
  return static_cast<uint64_t>(offset);
}

/// Whether every reader of value `v` is an accelerator QMatMul that reads it as its right operand (weights).
bool readAsWeights(const Lowering& s, int v) {
  bool read = false;
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    const Node& m = s.g.nodes[i];
    for (size_t k = 0; k < m.inputs.size(); ++k) {
      if (m.inputs[k] != v) continue;
      if (m.kind != OpKind::kQMatMul || k != 1 || !std::holds_alternative<ConvPlan>(s.placements[i].plan)) return false;
      read = true;
    }
  }
  return read && std::find(s.g.outputs.begin(), s.g.outputs.end(), v) == s.g.outputs.end();
}

/// Per value reached from a rows root through moves: the root, and the root's element of each element.
struct Chain {
  int root = -1;
  Tensor index;  ///< int32, the value's shape
};

/// The chain of move `n`'s output: its input's, or one starting at its input when an accelerator layer
/// stores that as rows; run through `n`'s reference kernel.
std::optional<Chain> chainOf(const Lowering& s, const Node& n, const std::map<int, Chain>& chains) {
  const int x = n.inputs[0];
  Chain in;
  if (auto it = chains.find(x); it != chains.end()) {
    in.root = it->second.root, in.index = it->second.index;
  } else if (storedAsRows(s, x) && support::shapeElements(s.g.values[x].shape) <= kMaxElements) {
    in.root = x, in.index = Tensor(support::DType::kInt32, s.g.values[x].shape);
    int32_t* p = in.index.data<int32_t>();
    for (int64_t e = 0; e < in.index.numel(); ++e) p[e] = static_cast<int32_t>(e);
  } else {
    return std::nullopt;
  }
  std::vector<const Tensor*> inputs{&in.index};
  for (size_t k = 1; k < n.inputs.size(); ++k)
    inputs.push_back(n.inputs[k] < 0 ? nullptr : &*s.g.values[n.inputs[k]].constant);
  std::vector<Tensor> out(1);
  if (!runtime::runOp(n.kind, n.attrs, inputs, out, s.g.loc(n))) return std::nullopt;
  return Chain{in.root, std::move(out[0])};
}

/// Whether every reader of value `v` is a move placed as a view or folded into one, and v no graph output.
bool onlyViewsRead(const Lowering& s, int v) {
  if (std::find(s.g.outputs.begin(), s.g.outputs.end(), v) != s.g.outputs.end()) return false;
  bool read = false;
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    const Node& m = s.g.nodes[i];
    if (std::find(m.inputs.begin(), m.inputs.end(), v) == m.inputs.end()) continue;
    if (!std::holds_alternative<MovePlan>(s.placements[i].plan)) return false;
    read = true;
  }
  return read;
}

}  // namespace

bool isMove(const Graph& g, const Node& n) {
  // The ops that move values, but a max pool's choice; one output (no Split).
  if (!movesValues(n.kind) || n.kind == OpKind::kMaxPool) return false;
  if (n.inputs.empty() || n.inputs[0] < 0 || n.outputs.size() != 1) return false;
  if (g.values[n.inputs[0]].dtype != support::DType::kInt8 || g.values[n.outputs[0]].dtype != support::DType::kInt8)
    return false;
  return std::all_of(n.inputs.begin() + 1, n.inputs.end(), [&](int v) { return v < 0 || g.values[v].constant; });
}

void planMoveViews(Lowering& s) {
  std::map<int, Chain> chains;
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    const Node& n = s.g.nodes[i];
    if (!std::holds_alternative<HostPlan>(s.placements[i].plan) || !isMove(s.g, n)) continue;
    auto c = chainOf(s, n, chains);
    if (!c) continue;
    const int y = n.outputs[0];
    auto view = [&](uint64_t offset, Storage st, const char* what) {
      const std::string of = "a view of '" + s.g.values[c->root].name + "' from byte " + std::to_string(offset);
      s.placements[i] = {MovePlan{c->root, offset, st},
                         "accelerator: in place: " + of + ", whose rows storage holds " + what};
    };
    if (const auto offset = contiguousView(s, c->root, y, c->index, Storage::kDense))
      view(*offset, Storage::kDense, "its rows as they are");
    else if (const auto at = readAsWeights(s, y) ? contiguousView(s, c->root, y, c->index, Storage::kWeights)
                                                 : std::nullopt)
      view(*at, Storage::kWeights, "the weight blocks of the product that reads it (its transpose's rows)");
    chains[y] = std::move(*c);
  }
  for (size_t i = s.g.nodes.size(); i-- > 0;) {  // readers first
    const Node& n = s.g.nodes[i];
    if (std::holds_alternative<HostPlan>(s.placements[i].plan) && chains.count(n.outputs.empty() ? -1 : n.outputs[0]) &&
        onlyViewsRead(s, n.outputs[0]))
      s.placements[i] = {MovePlan{}, "accelerator: in place: folded into the views below it, which alone read it"};
  }
}

}  // namespace accelc::compiler
