// compiler/driver/compile.cc — partitioning, the DRAM plan, lowering, the bundle.
#include "compiler/driver/compile.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
#include "compiler/lower/add.h"
#include "compiler/lower/codegen.h"
#include "compiler/lower/conv.h"
#include "compiler/lower/cost.h"
#include "compiler/lower/pool.h"
#include "compiler/passes/im2col.h"
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite.h"
#include "compiler/quant/quantize.h"
#include "support/npy.h"

namespace accelc::compiler {

using hwspec::BufferKind;
using runtime::BlockedLayout;
using runtime::Step;
using runtime::TensorSlot;
using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

/// How a value is stored: plain row-major, blocked for convolutions, or blocked as a row of pixels (dense).
enum class Storage { kPlain = 0, kConv = 1, kDense = 2 };

/// Everything the compiler decides about one integer graph.
class Compiler {
 public:
  Compiler(const Graph& g, const isa::Target& t, bool serialize, std::vector<std::string>* log, std::string* loopIr)
      : g_(g), t_(t), hw_(t.spec), serialize_(serialize), log_(log), loopIr_(loopIr) {}
  Expected<runtime::Bundle> run();

 private:
  void say(const std::string& s) {
    if (log_) log_->push_back(s);
  }
  Expected<lower::ConvLayer> layerOf(const Node& n, const Shape& borders) const;
  /// Whether value `v` is known never to lie below its zero point (its
  /// producer clamps there, as a fused ReLU does).
  bool atLeastZeroPoint(int v) const;
  /// The accelerator MaxPool or QAveragePool of `n`, or why it stays on the host.
  Expected<lower::PoolLayer> poolOf(const Node& n) const;
  void partition();
  /// Gives each accelerator MaxPool the clamp below (a ReLU) of the QConv it
  /// alone reads: the maximum of clamped values is the clamped maximum, so
  /// the pool's outputs stay the same while the clamp runs on a fraction of
  /// the values (a quarter behind a 3x3 pool of stride 2). The convolution's
  /// output tensor, which nothing else reads, then holds unclamped values.
  void moveClamps();
  /// Places node `i` on the accelerator when `k` (lowered at address 0)
  /// encodes in the ISA's fields, otherwise on the host with the reason.
  bool accept(size_t i, const lower::Kernel& k, const std::string& why);
  Expected<lower::ConvSchedule> replayBest(const lower::ConvLayer& l) const;
  /// The blocked layout of value `v` with the borders border_ holds now.
  BlockedLayout trialLayout(int v) const;
  /// What the borders of value `v` hold: its zero point.
  int8_t bareFill(int v) const;
  /// Per value, the border its accelerator readers need; with `all`, every
  /// QConv and MaxPool counts (an upper bound the partitioner's trial uses).
  void borders(bool all);
  Expected<int> ensure(int value, Storage s);
  int slotFor(int value, Storage s);
  BlockedLayout layoutFor(int value, Storage s) const;
  Status steps();
  Status plan();
  Status programs();
  uint64_t alloc(uint64_t bytes) {
    const uint64_t at = cursor_;
    cursor_ = (cursor_ + bytes + align_ - 1) / align_ * align_;
    return at;
  }

  const Graph& g_;
  const isa::Target& t_;
  const hwspec::HwSpec& hw_;
  bool serialize_;
  std::vector<std::string>* log_;
  std::string* loopIr_;                           ///< receives every kernel's loop IR when set
  runtime::Bundle b_;
  std::vector<bool> accel_;                       ///< per node: runs on the accelerator
  std::vector<std::string> why_;                  ///< per node: why it runs where it runs
  std::vector<lower::ConvSchedule> sched_;        ///< per accelerator convolution
  std::vector<int64_t> poolRows_;                 ///< per accelerator MaxPool or QAdd: rows per tile
  std::vector<bool> addLoops_;                    ///< per accelerator QAdd: its passes in the instructions' loops
  std::vector<int64_t> poolLo_;                   ///< per accelerator MaxPool: the clamp below it took over
  std::vector<bool> loMoved_;                     ///< per accelerator QConv: its clamp below moved to its MaxPool
  std::vector<Shape> border_;                     ///< per value: conv border (top, left, bottom, right)
  std::map<std::pair<int, int>, int> slots_;      ///< (value, storage) -> tensor slot
  std::vector<int> stepNode_;                     ///< per step: its node (-1 for pack/unpack)
  uint64_t cursor_ = 0, align_ = 64;              ///< DRAM allocation
};

/// Pads needed to produce oh×ow outputs: (top, left, bottom, right).
Shape padsOf(const runtime::QConvAttrs& a) {
  return a.pads.empty() ? Shape{0, 0, 0, 0} : Shape(a.pads.begin(), a.pads.end());
}

Expected<lower::ConvLayer> Compiler::layerOf(const Node& n, const Shape& bx) const {
  const auto& a = std::get<runtime::QConvAttrs>(n.attrs);
  const Value &x = g_.values[n.inputs[0]], &y = g_.values[n.outputs[0]];
  lower::ConvLayer l;
  l.name = n.name;
  l.weight = *g_.values[n.inputs[1]].constant;
  for (int i = 2; i < 5; ++i)
    if (!g_.values[n.inputs[i]].constant) return error(g_.loc(n), "bias, multiplier and shift must be constants");
  auto ints = [&](int i) {
    const Tensor& c = *g_.values[n.inputs[i]].constant;
    return std::vector<int32_t>(c.data<int32_t>(), c.data<int32_t>() + c.numel());
  };
  l.bias = ints(2), l.mult = ints(3), l.shift = ints(4);
  l.zeroPoint = a.zeroPoint, l.lo = std::max<int64_t>(a.lo, -128), l.hi = std::min<int64_t>(a.hi, 127);
  const int8_t zx = static_cast<int8_t>(a.padValue);
  if (n.kind == OpKind::kQGemm) {  // [N, K] as a row of N pixels
    l.m = l.weight.dim(0);
    l.weight.reshape({l.m, l.weight.dim(1), 1, 1});
    l.oh = 1, l.ow = x.shape[0];
    l.x = {1, x.shape[1], 1, x.shape[0], hw_.blockIn, 0, 0, 0, 0, zx};
    l.y = {1, l.m, 1, x.shape[0], hw_.blockOut, 0, 0, 0, 0, static_cast<int8_t>(a.zeroPoint)};
    return l;
  }
  const Shape p = padsOf(a);
  l.m = l.weight.dim(0), l.kh = l.weight.dim(2), l.kw = l.weight.dim(3);
  l.sh = a.strides.empty() ? 1 : a.strides[0], l.sw = a.strides.empty() ? 1 : a.strides[1];
  l.pt = p[0], l.pl = p[1];
  l.oh = y.shape[2], l.ow = y.shape[3];
  l.x = {x.shape[0], x.shape[1], x.shape[2], x.shape[3], hw_.blockIn, bx[0], bx[1], bx[2], bx[3], zx};
  l.y = {y.shape[0], l.m, l.oh, l.ow, hw_.blockOut, 0, 0, 0, 0, static_cast<int8_t>(a.zeroPoint)};
  return l;
}

bool Compiler::atLeastZeroPoint(int v) const {
  const int64_t zp = bareFill(v);
  for (const Node& m : g_.nodes) {
    if (m.outputs.empty() || m.outputs[0] != v) continue;
    if (const auto* c = std::get_if<runtime::QConvAttrs>(&m.attrs)) return c->lo >= zp;
    if (const auto* a = std::get_if<runtime::QAddAttrs>(&m.attrs)) return a->lo >= zp;
    if (const auto* p = std::get_if<runtime::QPoolAttrs>(&m.attrs)) return p->lo >= zp;
    return false;
  }
  return false;
}

Expected<lower::PoolLayer> Compiler::poolOf(const Node& n) const {
  const Value &x = g_.values[n.inputs[0]], &y = g_.values[n.outputs[0]];
  auto refuse = [&](const std::string& why) { return error(g_.loc(n), why); };
  if (n.kind == OpKind::kQAveragePool) {  // unpadded by construction
    const auto& q = std::get<runtime::QPoolAttrs>(n.attrs);
    if (x.shape.size() != 4 || q.kernelShape.size() != 2) return refuse("only 2-D QAveragePool runs on the accelerator");
    lower::PoolLayer l;
    l.name = n.name, l.average = true, l.avg = q;
    l.kh = q.kernelShape[0], l.kw = q.kernelShape[1];
    l.sh = q.strides.empty() ? 1 : q.strides[0], l.sw = q.strides.empty() ? 1 : q.strides[1];
    l.oh = y.shape[2], l.ow = y.shape[3];
    return l;
  }
  const auto& a = std::get<runtime::PoolAttrs>(n.attrs);
  if (x.dtype != support::DType::kInt8 || x.shape.size() != 4 || a.kernelShape.size() != 2 || n.outputs.size() != 1)
    return refuse("only 2-D int8 MaxPool runs on the accelerator");
  for (int64_t v : a.dilations)
    if (v != 1) return refuse("dilated MaxPool stays on the host");
  if (a.autoPad == runtime::AutoPad::kSameUpper || a.autoPad == runtime::AutoPad::kSameLower)
    return refuse("auto-padded MaxPool stays on the host");
  lower::PoolLayer l;
  l.name = n.name;
  l.kh = a.kernelShape[0], l.kw = a.kernelShape[1];
  l.sh = a.strides.empty() ? 1 : a.strides[0], l.sw = a.strides.empty() ? 1 : a.strides[1];
  l.pt = a.pads.empty() ? 0 : a.pads[0], l.pl = a.pads.empty() ? 0 : a.pads[1];
  l.oh = y.shape[2], l.ow = y.shape[3];
  const bool padded = std::any_of(a.pads.begin(), a.pads.end(), [](int64_t v) { return v != 0; }) ||
                      (l.oh - 1) * l.sh + l.kh > x.shape[2] || (l.ow - 1) * l.sw + l.kw > x.shape[3];
  // Padding stands for -infinity; the border holds the zero point, which is as
  // good when no value lies below it (the producer clamps at or above it) and
  // every window holds at least one real value.
  if (padded && !(atLeastZeroPoint(n.inputs[0]) && l.pt < l.kh && l.pl < l.kw))
    return refuse("padded MaxPool runs on the accelerator only when its input never lies below its zero point");
  return l;
}

void Compiler::partition() {
  accel_.assign(g_.nodes.size(), false);
  why_.assign(g_.nodes.size(), "host: not an accelerator operator");
  sched_.assign(g_.nodes.size(), {});
  poolRows_.assign(g_.nodes.size(), 0);
  addLoops_.assign(g_.nodes.size(), false);
  for (size_t i = 0; i < g_.nodes.size(); ++i) {
    const Node& n = g_.nodes[i];
    if (n.kind == OpKind::kQAdd && hw_.batch == 1 && hw_.blockIn == hw_.blockOut) {
      const Value &a = g_.values[n.inputs[0]], &b = g_.values[n.inputs[1]];
      if (a.shape.size() != 4 || a.shape != b.shape) {
        why_[i] = "host: only additions of two 4-D tensors of one shape run on the accelerator";
        continue;
      }
      lower::AddLayer l;
      l.name = n.name;
      l.a = trialLayout(n.inputs[0]), l.b = trialLayout(n.inputs[1]), l.y = trialLayout(n.outputs[0]);
      l.attrs = std::get<runtime::QAddAttrs>(n.attrs);
      auto rows = lower::chooseAddRows(l, hw_);
      if (!rows) {
        why_[i] = "host: " + rows.diag().message;
        continue;
      }
      poolRows_[i] = *rows;
      // The GEMM form's passes in loops when the ISA's loop fields hold a tile, else one micro-op per pixel.
      l.loops = lower::addOnGemm(l, hw_);
      const std::string why =
          std::string(l.loops ? "GEMM-form" : "ALU-form") + " add over " + std::to_string(*rows) + "-row tiles";
      if (!accept(i, lower::lowerAdd(l, *rows, hw_, 0, 0, 0, 0), why) && l.loops)
        l.loops = false, accept(i, lower::lowerAdd(l, *rows, hw_, 0, 0, 0, 0), why);
      addLoops_[i] = l.loops;
      continue;
    }
    const bool pool = n.kind == OpKind::kMaxPool || n.kind == OpKind::kQAveragePool;
    if (pool && hw_.batch == 1 && hw_.blockIn == hw_.blockOut) {
      auto l = poolOf(n);
      auto rows = l ? lower::choosePoolRows(*l, hw_) : Expected<int64_t>(l.diag());
      if (!rows) {
        why_[i] = "host: " + rows.diag().message;
        continue;
      }
      poolRows_[i] = *rows;
      l->x = trialLayout(n.inputs[0]), l->y = trialLayout(n.outputs[0]);
      accept(i, lower::lowerPool(*l, *rows, hw_, 0, 0, 0),
             std::string(l->average ? "ALU average" : "ALU max") + " over " + std::to_string(*rows) + "-row tiles");
      continue;
    }
    if (n.kind != OpKind::kQConv && n.kind != OpKind::kQGemm) {
      if (n.kind == OpKind::kConv || n.kind == OpKind::kGemm || n.kind == OpKind::kMatMul)
        why_[i] = "host: not quantized (see the quantization notes)";
      continue;
    }
    if (hw_.batch != 1 || hw_.blockIn != hw_.blockOut) {
      why_[i] = "host: the lowering needs gemm.batch = 1 and block_in = block_out";
      continue;
    }
    const auto& qa = std::get<runtime::QConvAttrs>(n.attrs);
    const Shape p = padsOf(qa);
    const int64_t fill = bareFill(n.inputs[0]);
    if (std::any_of(p.begin(), p.end(), [](int64_t v) { return v != 0; }) && qa.padValue != fill) {
      why_[i] = "host: it pads with " + std::to_string(qa.padValue) + " but its input's border holds the zero point " +
                std::to_string(fill);
      continue;
    }
    auto l = layerOf(n, border_[n.inputs[0]]);
    if (l && n.kind == OpKind::kQConv) l->y = trialLayout(n.outputs[0]), l->y.fill = static_cast<int8_t>(qa.zeroPoint);
    auto s = l ? replayBest(*l) : Expected<lower::ConvSchedule>(l.diag());
    if (!s) {
      why_[i] = "host: " + s.diag().message;
      say(n.name + ": " + why_[i]);
      continue;
    }
    sched_[i] = *s;
    if (!accept(i, lower::lowerConv(*l, *s, hw_, lower::ConvAddrs{0, 0, 0, 0}), s->why)) say(n.name + ": " + why_[i]);
  }
}

void Compiler::moveClamps() {
  poolLo_.assign(g_.nodes.size(), -128);
  loMoved_.assign(g_.nodes.size(), false);
  for (size_t p = 0; p < g_.nodes.size(); ++p) {
    const Node& pool = g_.nodes[p];
    if (pool.kind != OpKind::kMaxPool || !accel_[p]) continue;
    const int v = pool.inputs[0];
    if (useCount(g_, v) != 1) continue;  // the pool alone reads it, and it is no graph output
    for (size_t c = 0; c < g_.nodes.size(); ++c) {
      const Node& conv = g_.nodes[c];
      if (conv.outputs.empty() || conv.outputs[0] != v) continue;
      const int64_t lo = conv.kind == OpKind::kQConv ? std::get<runtime::QConvAttrs>(conv.attrs).lo : -128;
      // At or above the zero point the pool's border (which holds it) still stands in for -infinity.
      if (accel_[c] && lo > -128 && lo >= bareFill(v)) {
        loMoved_[c] = true, poolLo_[p] = lo;
        why_[c] += "; its clamp below moves to " + pool.name;
        why_[p] += "; it clamps below at " + std::to_string(lo) + " for " + conv.name;
      }
      break;
    }
  }
}

/// The tiling formulas rank every legal schedule; the best few are lowered and
/// replayed (lower::estimateProgram), which also sees how loads, GEMMs and the
/// requantization of one tile wait on each other, and the fastest is kept.
Expected<lower::ConvSchedule> Compiler::replayBest(const lower::ConvLayer& l) const {
  constexpr size_t kReplayed = 8;
  ACCELC_ASSIGN_OR_RETURN(std::vector<lower::ConvSchedule> ranked, lower::rankSchedules(l, hw_));
  std::optional<lower::ConvSchedule> best;
  int64_t bestCycles = 0;
  for (size_t c = 0; c < std::min(kReplayed, ranked.size()); ++c) {
    // The ALU passes in loops when the ISA's loop fields hold the tile, else one micro-op per pixel.
    for (bool loops : {true, false}) {
      ranked[c].aluLoops = loops;
      isa::ProgramBuilder trial(t_);
      const lower::Kernel k = lower::lowerConv(l, ranked[c], hw_, lower::ConvAddrs{0, 0, 0, 0});
      if (!lower::emitKernel(k, t_, {0, 0}, serialize_, trial)) continue;
      trial.text(k.uops.size() * t_.uopBytes());
      auto program = trial.finish(l.name);
      if (!program) continue;
      auto cycles = lower::estimateProgram(*program, t_);
      if (cycles && (!best || *cycles < bestCycles)) best = ranked[c], bestCycles = *cycles;
      break;
    }
  }
  if (!best) best = ranked.front();  // none encodes: accept() reports why
  best->why = std::to_string(ranked.size()) + " legal tilings; chose " + lower::describe(*best) + ", the lowest replayed estimate of the " +
              std::to_string(std::min(kReplayed, ranked.size())) + " the tiling formulas rank best (" +
              std::to_string(best->cycles) + " by the formulas)";
  return *best;
}

bool Compiler::accept(size_t i, const lower::Kernel& k, const std::string& why) {
  isa::ProgramBuilder trial(t_);
  Status st = lower::emitKernel(k, t_, {0, 0}, serialize_, trial);
  if (st) {
    trial.text(k.uops.size() * t_.uopBytes());
    st = trial.finish(g_.nodes[i].name).status();
  }
  accel_[i] = st.isOk();
  why_[i] = st ? "accelerator: " + why : "host: the lowered layer does not encode: " + st.diag().message;
  return accel_[i];
}

int8_t Compiler::bareFill(int v) const {
  const Value& val = g_.values[v];
  return static_cast<int8_t>(val.quant.zeroPoint.empty() ? 0 : val.quant.zeroPoint[0]);
}

BlockedLayout Compiler::trialLayout(int v) const {
  const Value& val = g_.values[v];
  const Shape& b = border_[v];
  return {val.shape[0], val.shape[1], val.shape[2], val.shape[3], hw_.blockIn, b[0], b[1], b[2], b[3], bareFill(v)};
}

void Compiler::borders(bool all) {
  border_.assign(g_.values.size(), Shape{0, 0, 0, 0});
  for (size_t i = 0; i < g_.nodes.size(); ++i) {
    const Node& n = g_.nodes[i];
    if (!(all || accel_[i]) || (n.kind != OpKind::kQConv && n.kind != OpKind::kMaxPool)) continue;
    const Value &x = g_.values[n.inputs[0]], &y = g_.values[n.outputs[0]];
    if (x.shape.size() != 4 || y.shape.size() != 4) continue;
    if (n.kind == OpKind::kMaxPool && std::get<runtime::PoolAttrs>(n.attrs).kernelShape.size() != 2) continue;
    Shape p{0, 0, 0, 0}, st{1, 1}, k;
    if (n.kind == OpKind::kQConv) {
      const auto& a = std::get<runtime::QConvAttrs>(n.attrs);
      p = padsOf(a), k = {g_.values[n.inputs[1]].shape[2], g_.values[n.inputs[1]].shape[3]};
      if (!a.strides.empty()) st = a.strides;
    } else {
      const auto& a = std::get<runtime::PoolAttrs>(n.attrs);
      if (!a.pads.empty()) p = a.pads;
      if (!a.strides.empty()) st = a.strides;
      k = a.kernelShape;
    }
    const Shape need = {p[0], p[1], std::max<int64_t>(0, (y.shape[2] - 1) * st[0] + k[0] - p[0] - x.shape[2]),
                        std::max<int64_t>(0, (y.shape[3] - 1) * st[1] + k[1] - p[1] - x.shape[3])};
    Shape& b = border_[n.inputs[0]];
    for (int j = 0; j < 4; ++j) b[j] = std::max(b[j], need[j]);
  }
}

BlockedLayout Compiler::layoutFor(int v, Storage s) const {
  const Value& val = g_.values[v];
  const int8_t fill = bareFill(v);
  if (s == Storage::kDense) return {1, val.shape[1], 1, val.shape[0], hw_.blockIn, 0, 0, 0, 0, fill};
  const Shape& b = border_[v];
  return {val.shape[0], val.shape[1], val.shape[2], val.shape[3], hw_.blockIn, b[0], b[1], b[2], b[3], fill};
}

int Compiler::slotFor(int v, Storage s) {
  auto key = std::make_pair(v, static_cast<int>(s));
  auto it = slots_.find(key);
  if (it != slots_.end()) return it->second;
  TensorSlot slot;
  const Value& val = g_.values[v];
  slot.name = val.name + (s == Storage::kConv ? ":blocked" : s == Storage::kDense ? ":dense" : "");
  slot.dtype = val.dtype, slot.shape = val.shape;
  if (s != Storage::kPlain) slot.blocked = layoutFor(v, s), slot.dense = s == Storage::kDense;
  b_.tensors.push_back(std::move(slot));
  return slots_[key] = static_cast<int>(b_.tensors.size()) - 1;
}

/// The slot of `value` in storage `s`, adding the pack or unpack step that makes it.
Expected<int> Compiler::ensure(int v, Storage s) {
  auto it = slots_.find({v, static_cast<int>(s)});
  if (it != slots_.end()) return it->second;
  if (s == Storage::kPlain) {  // available only blocked: unpack
    for (Storage from : {Storage::kConv, Storage::kDense}) {
      auto f = slots_.find({v, static_cast<int>(from)});
      if (f == slots_.end()) continue;
      const int to = slotFor(v, Storage::kPlain);
      b_.steps.push_back(Step{Step::Kind::kUnpack, g_.values[v].name + ":unpack", -1, OpKind::kIdentity,
                              runtime::NoAttrs{}, {f->second}, {to}});
      stepNode_.push_back(-1);
      return to;
    }
    if (g_.values[v].constant) return slotFor(v, Storage::kPlain);
    return error(Location::file(g_.model), "value '" + g_.values[v].name + "' is used before it is computed");
  }
  ACCELC_ASSIGN_OR_RETURN(int plain, ensure(v, Storage::kPlain));
  const int to = slotFor(v, s);
  b_.steps.push_back(Step{Step::Kind::kPack, g_.values[v].name + ":pack", -1, OpKind::kIdentity, runtime::NoAttrs{},
                          {plain}, {to}});
  stepNode_.push_back(-1);
  return to;
}

Status Compiler::steps() {
  for (int id : g_.inputs) slotFor(id, Storage::kPlain);
  for (size_t i = 0; i < g_.nodes.size(); ++i) {
    const Node& n = g_.nodes[i];
    Step s;
    s.name = n.name;
    if (accel_[i]) {  // QConv and MaxPool read and write blocked tensors, QGemm rows of pixels
      const Storage st = n.kind == OpKind::kQGemm ? Storage::kDense : Storage::kConv;
      s.kind = Step::Kind::kAccel;
      const size_t operands = n.kind == OpKind::kQAdd ? 2 : 1;
      for (size_t k = 0; k < operands; ++k) {
        ACCELC_ASSIGN_OR_RETURN(int x, ensure(n.inputs[k], st));
        s.inputs.push_back(x);
      }
      s.outputs = {slotFor(n.outputs[0], st)};
    } else {
      s.kind = Step::Kind::kHost;
      s.op = n.kind;
      s.attrs = n.attrs;
      for (int id : n.inputs) {
        if (id < 0) {
          s.inputs.push_back(-1);
          continue;
        }
        ACCELC_ASSIGN_OR_RETURN(int slot, ensure(id, Storage::kPlain));
        s.inputs.push_back(slot);
      }
      for (int id : n.outputs) s.outputs.push_back(slotFor(id, Storage::kPlain));
    }
    b_.steps.push_back(std::move(s));
    stepNode_.push_back(static_cast<int>(i));
  }
  for (int id : g_.outputs) {
    ACCELC_ASSIGN_OR_RETURN(int slot, ensure(id, Storage::kPlain));
    b_.outputs.push_back(slot);
  }
  for (int id : g_.inputs) b_.inputs.push_back(slots_.at({id, 0}));
  return Status::ok();
}

/// Intermediate tensors share DRAM when their lifetimes (first write to last
/// read, in steps) do not overlap: plain ones when the region is large enough,
/// blocked ones only with a tensor of the very same layout — their borders,
/// written once at load, then hold the same fill and no step writes them.
/// Model inputs, outputs and constants keep their own memory.
Status Compiler::plan() {
  for (BufferKind k : {BufferKind::kInput, BufferKind::kWeight, BufferKind::kAcc, BufferKind::kUop})
    align_ = std::max<uint64_t>(align_, static_cast<uint64_t>(hw_.entryBytes(k)));
  const int n = static_cast<int>(b_.tensors.size());
  std::vector<int> first(n, -1), last(n, -1);
  for (int i = 0; i < static_cast<int>(b_.steps.size()); ++i) {
    for (int id : b_.steps[i].outputs)
      if (first[id] < 0) first[id] = i;
    for (int id : b_.steps[i].inputs)
      if (id >= 0) last[id] = i;
  }
  std::vector<bool> pinned(n, false);
  for (int id : b_.inputs) pinned[id] = true;
  for (int id : b_.outputs) pinned[id] = true;
  for (const auto& [key, slot] : slots_)
    if (g_.values[key.first].constant) pinned[slot] = true;
  struct Live {
    uint64_t addr, bytes;
    int until;
    int kind;  ///< -1: plain; else the slot whose layout the region holds
  };
  auto sameKind = [&](const Live& r, int id) {
    const TensorSlot &s = b_.tensors[id];
    if (!s.blocked || r.kind < 0) return !s.blocked && r.kind < 0;
    const TensorSlot& o = b_.tensors[r.kind];
    return *o.blocked == *s.blocked && o.dense == s.dense;
  };
  std::vector<Live> live;  // reusable regions and the step after which they are free
  for (int id = 0; id < n; ++id) {
    TensorSlot& s = b_.tensors[id];
    const uint64_t bytes = (s.bytes() + align_ - 1) / align_ * align_;
    if (pinned[id] || first[id] < 0) {
      s.addr = alloc(s.bytes());
      continue;
    }
    auto fit = std::find_if(live.begin(), live.end(),
                            [&](const Live& r) { return r.until < first[id] && r.bytes >= bytes && sameKind(r, id); });
    if (fit != live.end()) {
      s.addr = fit->addr;
      fit->until = std::max(last[id], first[id]);
    } else {
      s.addr = alloc(s.bytes());
      live.push_back({s.addr, bytes, std::max(last[id], first[id]), s.blocked ? id : -1});
    }
  }
  for (const auto& [key, slot] : slots_) {  // constants read by host steps are written once
    const Value& v = g_.values[key.first];
    if (v.constant && key.second == 0) b_.constants.push_back({v.name, b_.tensors[slot].addr, v.constant->bytes()});
  }
  return Status::ok();
}

Status Compiler::programs() {
  struct Pending {
    size_t node;             ///< graph node
    std::string name;        ///< layer name
    lower::Kernel kernel;    ///< its loop IR
    lower::CodegenPlacement at;  ///< micro-ops and text
  };
  std::vector<Pending> todo;
  for (size_t si = 0; si < b_.steps.size(); ++si) {
    Step& s = b_.steps[si];
    if (s.kind != Step::Kind::kAccel) continue;
    const size_t i = static_cast<size_t>(stepNode_[si]);
    const Node& n = g_.nodes[i];
    const TensorSlot &xs = b_.tensors[s.inputs[0]], &ys = b_.tensors[s.outputs[0]];
    if (n.kind == OpKind::kQAdd) {
      lower::AddLayer al;
      al.name = n.name;
      al.a = *xs.blocked, al.b = *b_.tensors[s.inputs[1]].blocked, al.y = *ys.blocked;
      al.attrs = std::get<runtime::QAddAttrs>(n.attrs);
      al.loops = addLoops_[i];
      const std::vector<uint8_t> params = lower::packAddParams(al, hw_);
      const uint64_t pa = alloc(params.size());
      b_.constants.push_back({n.name + ":params", pa, params});
      lower::Kernel k = lower::lowerAdd(al, poolRows_[i], hw_, xs.addr, b_.tensors[s.inputs[1]].addr, ys.addr, pa);
      if (loopIr_) *loopIr_ += lower::printKernel(k);
      isa::ProgramBuilder scratch(t_);
      ACCELC_TRY(lower::emitKernel(k, t_, {0, 0}, serialize_, scratch));
      lower::CodegenPlacement at{alloc(k.uops.size() * t_.uopBytes()), 0};
      at.text = alloc(scratch.size() * t_.insnBytes());
      s.program = static_cast<int>(todo.size());
      todo.push_back({i, al.name, std::move(k), at});
      continue;
    }
    if (n.kind == OpKind::kMaxPool || n.kind == OpKind::kQAveragePool) {
      ACCELC_ASSIGN_OR_RETURN(lower::PoolLayer pl, poolOf(n));
      pl.x = *xs.blocked, pl.y = *ys.blocked, pl.lo = poolLo_[i];
      uint64_t pa = 0;
      if (pl.average) {
        const std::vector<uint8_t> params = lower::packPoolParams(pl, hw_);
        pa = alloc(params.size());
        b_.constants.push_back({n.name + ":params", pa, params});
      }
      lower::Kernel k = lower::lowerPool(pl, poolRows_[i], hw_, xs.addr, ys.addr, pa);
      if (loopIr_) *loopIr_ += lower::printKernel(k);
      isa::ProgramBuilder scratch(t_);
      ACCELC_TRY(lower::emitKernel(k, t_, {0, 0}, serialize_, scratch));
      lower::CodegenPlacement at{alloc(k.uops.size() * t_.uopBytes()), 0};
      at.text = alloc(scratch.size() * t_.insnBytes());
      s.program = static_cast<int>(todo.size());
      todo.push_back({i, pl.name, std::move(k), at});
      continue;
    }
    ACCELC_ASSIGN_OR_RETURN(lower::ConvLayer l, layerOf(n, Shape{xs.blocked->top, xs.blocked->left, xs.blocked->bottom, xs.blocked->right}));
    l.x = *xs.blocked, l.y = *ys.blocked;
    if (loMoved_[i]) l.lo = -128;
    const std::vector<uint8_t> w = lower::packConvWeights(l, hw_), p = lower::packConvParams(l, hw_);
    lower::ConvAddrs a{xs.addr, ys.addr, alloc(w.size()), 0};
    a.params = alloc(p.size());
    b_.constants.push_back({n.name + ":weights", a.weights, w});
    b_.constants.push_back({n.name + ":params", a.params, p});
    lower::Kernel k = lower::lowerConv(l, sched_[i], hw_, a);
    if (loopIr_) *loopIr_ += lower::printKernel(k);
    isa::ProgramBuilder scratch(t_);  // to learn the instruction count
    ACCELC_TRY(lower::emitKernel(k, t_, {0, 0}, serialize_, scratch));
    lower::CodegenPlacement at{alloc(k.uops.size() * t_.uopBytes()), 0};
    at.text = alloc(scratch.size() * t_.insnBytes());
    s.program = static_cast<int>(todo.size());
    todo.push_back({i, l.name, std::move(k), at});
  }
  b_.window = (cursor_ + 4095) / 4096 * 4096;
  if (b_.window > static_cast<uint64_t>(hw_.dramWindowBytes))
    return error(Location::file(g_.model), "the model needs " + std::to_string(b_.window) +
                                               " bytes of DRAM but dram.window is " + std::to_string(hw_.dramWindowBytes));
  for (Pending& p : todo) {
    isa::ProgramBuilder pb(t_);
    ACCELC_TRY(lower::emitKernel(p.kernel, t_, p.at, serialize_, pb));
    pb.window(b_.window);
    ACCELC_ASSIGN_OR_RETURN(isa::Program prog, pb.finish(g_.model + ":" + p.name));
    b_.programs.push_back(std::move(prog));
  }
  return Status::ok();
}

Expected<runtime::Bundle> Compiler::run() {
  b_.hwspecYaml = hw_.canonicalYaml();
  b_.isaYaml = t_.isa.yamlText;
  b_.hash = t_.hash;
  borders(true);  // the most any layer could need: the partitioner's trial lowering uses these
  partition();
  moveClamps();
  borders(false);
  ACCELC_TRY(steps());
  ACCELC_TRY(plan());
  ACCELC_TRY(programs());
  std::vector<int> program(g_.nodes.size(), -1);  // per node: its accelerator program
  for (size_t si = 0; si < b_.steps.size(); ++si)
    if (b_.steps[si].kind == Step::Kind::kAccel) program[static_cast<size_t>(stepNode_[si])] = b_.steps[si].program;
  for (size_t i = 0; i < g_.nodes.size(); ++i) {
    const Node& n = g_.nodes[i];
    runtime::LayerInfo info{n.name, accel_[i] ? "accelerator" : "host", why_[i], 0, 0, 0, 0};
    for (const std::vector<int>* ids : {&n.inputs, &n.outputs})  // every operand read or written once
      for (int id : *ids)
        if (id >= 0)
          info.compulsoryBytes += support::shapeElements(g_.values[id].shape) * support::dtypeBytes(g_.values[id].dtype);
    info.dramBytes = info.compulsoryBytes;
    if (n.kind == OpKind::kQConv || n.kind == OpKind::kQGemm) {
      const Shape& w = g_.values[n.inputs[1]].shape;
      info.macs = support::shapeElements(g_.values[n.outputs[0]].shape) * support::shapeElements(w) / w[0];
      info.cycles = accel_[i] ? sched_[i].cycles : 0;
    }
    // The cost formulas applied to the program itself (the schedule's own estimate is in `why`).
    if (accel_[i]) {
      ACCELC_ASSIGN_OR_RETURN(info.cycles, lower::estimateProgram(b_.programs[program[i]], t_));
    }
    b_.layers.push_back(info);
  }
  b_.graphText = printGraph(g_);
  ACCELC_TRY(runtime::validateBundle(b_, g_.model));
  return std::move(b_);
}

/// The samples of a calibration file (N inputs along axis 0) or directory of .npy files.
Expected<std::vector<std::vector<Tensor>>> calibrationSamples(const std::string& path, const Graph& g) {
  if (g.inputs.size() != 1) return error(Location::file(path), "calibration supports models with one input");
  const Value& in = g.values[g.inputs[0]];
  std::vector<std::string> files;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    if (DIR* d = ::opendir(path.c_str())) {
      while (dirent* e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n.size() > 4 && n.compare(n.size() - 4, 4, ".npy") == 0) files.push_back(path + "/" + n);
      }
      ::closedir(d);
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  std::vector<std::vector<Tensor>> samples;
  const int64_t per = support::shapeElements(in.shape) * support::dtypeBytes(in.dtype);
  for (const std::string& f : files) {
    ACCELC_ASSIGN_OR_RETURN(support::NpyArray a, support::readNpy(f));
    if (a.dtype != in.dtype || a.data.empty() || static_cast<int64_t>(a.data.size()) % per)
      return error(Location::file(f), std::string("calibration data must be ") + support::dtypeName(in.dtype) +
                                          " in whole inputs of " + support::shapeStr(in.shape) + ", found " +
                                          support::dtypeName(a.dtype) + " " + support::shapeStr(a.shape));
    for (size_t at = 0; at < a.data.size(); at += static_cast<size_t>(per)) {
      Tensor t(in.dtype, in.shape);
      std::memcpy(t.bytes().data(), a.data.data() + at, static_cast<size_t>(per));
      samples.push_back({std::move(t)});
    }
  }
  if (samples.empty()) return error(Location::file(path), "no calibration samples found (expected .npy files)");
  return samples;
}

bool isQdq(const Graph& g) {
  for (const Node& n : g.nodes)
    if (n.kind == OpKind::kQuantizeLinear || n.kind == OpKind::kDequantizeLinear) return true;
  return false;
}

}  // namespace

Expected<Graph> quantizeModel(const std::string& path, const CompileOptions& o, std::vector<std::string>* log) {
  ImportOptions io;
  io.shapes = o.shapes;
  ACCELC_ASSIGN_OR_RETURN(Graph g, importOnnx(path, io));
  ACCELC_TRY(runPipeline(g, defaultPipeline(), [&](const std::string& name, const Graph& after) {
    if (o.dump && name == o.dumpAfter) *o.dump += "# after " + name + "\n" + printGraph(after, {true});
  }));
  if (isQdq(g)) {
    ACCELC_TRY(stripQdq(g));
  } else {
    std::string calib = o.calibrate;
    if (calib.empty()) {
      const size_t slash = path.rfind('/');
      const std::string beside = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + "calib.npy";
      struct stat st;
      if (::stat(beside.c_str(), &st) != 0)
        return error(Location::file(path), "a float model needs calibration data: pass --calibrate FILE.npy|DIR "
                                           "(or put calib.npy beside the model)");
      calib = beside;
    }
    ACCELC_ASSIGN_OR_RETURN(auto samples, calibrationSamples(calib, g));
    if (log) log->push_back("calibrated on " + std::to_string(samples.size()) + " samples from " + calib);
    ACCELC_TRY(calibrate(g, samples, o.percentile));
  }
  ACCELC_ASSIGN_OR_RETURN(Graph q, quantizeGraph(g, log));
  if (o.dump && o.dumpAfter == "quantize") *o.dump += "# after quantize\n" + printGraph(q, {true});
  return q;
}

Expected<runtime::Bundle> compileIntegerGraph(const Graph& g, const isa::Target& t, bool serialize,
                                              std::vector<std::string>* log, std::string* loopIr) {
  Graph unrolled = g;
  im2colNarrowConvs(unrolled, t.spec, log);
  Compiler c(unrolled, t, serialize, log, loopIr);
  return c.run();
}

Expected<runtime::Bundle> compileModel(const std::string& path, const isa::Target& t, const CompileOptions& o,
                                       std::vector<std::string>* log) {
  ACCELC_ASSIGN_OR_RETURN(Graph g, quantizeModel(path, o, log));
  std::string loopIr;
  auto b = compileIntegerGraph(g, t, o.serialize, log, o.dump && o.dumpAfter == "lower" ? &loopIr : nullptr);
  if (o.dump && !loopIr.empty()) *o.dump += "# after lower\n" + loopIr;
  return b;
}

}  // namespace accelc::compiler
