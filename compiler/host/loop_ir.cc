// compiler/host/loop_ir.cc — building, checking and scheduling loop kernels.
#include "compiler/host/loop_ir.h"

#include <algorithm>
#include <utility>

namespace accelc::compiler::host {

using support::error;
using support::Location;
using support::Status;

int LoopExpr::load(int buffer, Affine at, std::vector<Bound> bounds, float pad) {
  LoopNode n;
  n.kind = LoopNode::Kind::kLoad, n.buffer = buffer, n.at = std::move(at), n.bounds = std::move(bounds), n.pad = pad;
  return add(std::move(n));
}

int LoopExpr::loadWord(int buffer, Affine at) {
  LoopNode n;
  n.kind = LoopNode::Kind::kLoad, n.buffer = buffer, n.at = std::move(at), n.word = true;
  return add(std::move(n));
}

int LoopExpr::inBounds(std::vector<Bound> bounds) {
  LoopNode n;
  n.kind = LoopNode::Kind::kInBounds, n.bounds = std::move(bounds);
  return add(std::move(n));
}

int LoopExpr::acc() {
  LoopNode n;
  n.kind = LoopNode::Kind::kAcc;
  return add(std::move(n));
}

int LoopExpr::constant(float v) {
  LoopNode n;
  n.op = EwOp::kConst, n.value = v;
  return add(std::move(n));
}

int LoopExpr::intConstant(int32_t v) {
  LoopNode n;
  n.op = EwOp::kConst, n.integer = true, n.ivalue = v;
  return add(std::move(n));
}

int LoopExpr::op(EwOp o, int a, int b) {
  LoopNode n;
  n.op = o, n.a = a, n.b = b;
  return add(std::move(n));
}

int LoopExpr::clip(int a, float lo, float hi) {
  LoopNode n;
  n.op = EwOp::kClip, n.a = a, n.lo = lo, n.hi = hi;
  return add(std::move(n));
}

int LoopKernel::addBuffer(std::string n, int64_t elements, LoopBuffer::Role role, support::DType type) {
  buffers.push_back({std::move(n), elements, role, type});
  return static_cast<int>(buffers.size()) - 1;
}

namespace {

bool integerBuffer(const LoopKernel& k, int b) {
  return b >= 0 && static_cast<size_t>(b) < k.buffers.size() && k.buffers[static_cast<size_t>(b)].type != support::DType::kFloat32;
}

}  // namespace

std::vector<bool> integerNodes(const LoopKernel& k, const LoopExpr& e, bool accInteger) {
  std::vector<bool> t(e.nodes.size(), false);
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const LoopNode& n = e.nodes[i];
    auto operand = [&](int j) { return j >= 0 && static_cast<size_t>(j) < i && t[static_cast<size_t>(j)]; };
    switch (n.kind) {
      case LoopNode::Kind::kLoad:
        t[i] = integerBuffer(k, n.buffer);
        break;
      case LoopNode::Kind::kInBounds:
        break;
      case LoopNode::Kind::kAcc:
        t[i] = accInteger;
        break;
      case LoopNode::Kind::kOp:
        t[i] = n.op == EwOp::kConst ? n.integer
               : n.op == EwOp::kToInt ? true
               : n.op == EwOp::kToFloat || n.op == EwOp::kRound ? false
                                                                : operand(n.a);
        break;
    }
  }
  return t;
}

bool integerStage(const LoopKernel& k, const LoopStage& s) {
  return !s.value.nodes.empty() && integerNodes(k, s.value, false).back();
}

std::pair<int64_t, int64_t> rangeOf(const Affine& a, const std::vector<LoopAxis>& axes) {
  int64_t lo = a.c, hi = a.c;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t span = a.coefOf(i) * (axes[i].extent - 1);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

namespace {

/// The values that axis values 0 to extent - 1 are written at under wrap `w`: 0 to this - 1 (at least 1).
int64_t wrappedExtent(const LoopStage::Wrap& w, int64_t extent) {
  int64_t v = std::min(extent - 1, (w.rows - 1) * w.wrap + w.keep - 1);  // the last value written
  if (v % w.wrap >= w.keep) v = v / w.wrap * w.wrap + w.keep - 1;
  return std::max<int64_t>(v / w.wrap * w.keep + v % w.wrap + 1, 1);
}

Status checkExpr(const LoopKernel& k, const LoopStage& s, const LoopExpr& e, bool epilogue, const Location& at) {
  const std::string where = "stage '" + s.name + "': " + (epilogue ? "epilogue" : "value");
  if (e.nodes.empty() && !epilogue) return error(at, where + " is empty");
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const LoopNode& n = e.nodes[i];
    const std::string node = where + " node " + std::to_string(i);
    if (n.at.coef.size() > s.axes.size()) return error(at, node + " has more coefficients than the stage has axes");
    for (const Bound& b : n.bounds)
      if (b.e.coef.size() > s.axes.size()) return error(at, node + "'s bound has more coefficients than axes");
    switch (n.kind) {
      case LoopNode::Kind::kLoad: {
        if (n.buffer < 0 || n.buffer >= static_cast<int>(k.buffers.size()))
          return error(at, node + " loads buffer " + std::to_string(n.buffer) + ", which does not exist");
        if (k.buffers[static_cast<size_t>(n.buffer)].type == support::DType::kInt64)
          return error(at, node + " loads int64 buffer '" + k.buffers[static_cast<size_t>(n.buffer)].name +
                               "'; a kernel only passes int64 inputs by");
        if (epilogue)
          for (size_t a = 0; a < s.axes.size(); ++a)
            if (s.axes[a].reduce && n.at.coefOf(a) != 0)
              return error(at, node + " depends on reduction axis '" + s.axes[a].name + "'");
        const LoopBuffer& buf = k.buffers[static_cast<size_t>(n.buffer)];
        if (n.word && (support::dtypeBytes(buf.type) != 1 || !n.bounds.empty()))
          return error(at, node + " loads words of '" + buf.name + "': a word load reads an 8-bit buffer, without bounds");
        if (!n.bounds.empty()) break;  // a guarded load reads memory only where its bounds hold
        auto [lo, hi] = rangeOf(n.at, s.axes);
        if (n.word) hi += 3;
        if (lo < 0 || hi >= buf.elements)
          return error(at, node + " reads elements " + std::to_string(lo) + " to " + std::to_string(hi) + " of '" +
                               k.buffers[static_cast<size_t>(n.buffer)].name + "', which holds " +
                               std::to_string(k.buffers[static_cast<size_t>(n.buffer)].elements));
        break;
      }
      case LoopNode::Kind::kInBounds:
        break;
      case LoopNode::Kind::kAcc:
        if (!epilogue) return error(at, node + ": the folded value exists only in the epilogue");
        break;
      case LoopNode::Kind::kOp: {
        if (n.op == EwOp::kInput) return error(at, node + ": an input is a load here");
        if (n.op == EwOp::kConst) break;
        const bool two = ewArity(n.op) == 2;
        if (n.a < 0 || n.a >= static_cast<int>(i) || (two && (n.b < 0 || n.b >= static_cast<int>(i))))
          return error(at, node + " (" + ewOpName(n.op) + ") names an operand that is not an earlier node");
        break;
      }
    }
  }
  return Status::ok();
}

/// The operand types `n` needs, given its operands' (true: int32).
std::string typeProblem(const LoopNode& n, bool a, bool b) {
  const bool two = ewArity(n.op) == 2;
  switch (n.op) {
    case EwOp::kAddSat:
    case EwOp::kMulq:
    case EwOp::kShrr:
    case EwOp::kToFloat:
    case EwOp::kXor:
    case EwOp::kDot4:
    case EwOp::kAnd:
    case EwOp::kDot2:
    case EwOp::kDot4S:
      return a && (!two || b) ? "" : "takes int32 operands";
    case EwOp::kToInt:
    case EwOp::kRound:
    case EwOp::kDiv:
    case EwOp::kPow:
    case EwOp::kSigmoid:
    case EwOp::kTanh:
    case EwOp::kErf:
    case EwOp::kSqrt:
    case EwOp::kExp:
      return !a && (!two || !b) ? "" : "takes float operands";
    case EwOp::kInput:
    case EwOp::kConst:
      return "";
    case EwOp::kAdd:
    case EwOp::kSub:
    case EwOp::kMul:
    case EwOp::kMin:
    case EwOp::kMax:
    case EwOp::kRelu:
    case EwOp::kClip:
      return !two || a == b ? "" : "mixes float and int32 operands";
  }
  return "";
}

Status checkTypes(const LoopKernel& k, const LoopStage& s, const LoopExpr& e, bool epilogue, const Location& at) {
  const std::vector<bool> t = integerNodes(k, e, integerStage(k, s));
  const std::string where = "stage '" + s.name + "': " + (epilogue ? "epilogue" : "value");
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const LoopNode& n = e.nodes[i];
    if (n.kind != LoopNode::Kind::kOp || n.op == EwOp::kConst) continue;
    const std::string p = typeProblem(n, t[static_cast<size_t>(n.a)], n.b >= 0 && t[static_cast<size_t>(n.b)]);
    if (!p.empty()) return error(at, where + " node " + std::to_string(i) + " (" + ewOpName(n.op) + ") " + p);
  }
  return Status::ok();
}

Status checkStage(const LoopKernel& k, const LoopStage& s, const Location& at) {
  const std::string where = "stage '" + s.name + "'";
  if (s.axes.empty()) return error(at, where + " has no axes");
  bool anyReduce = false;
  for (const LoopAxis& a : s.axes) {
    if (a.extent < 1) return error(at, where + ": axis '" + a.name + "' has extent " + std::to_string(a.extent));
    anyReduce |= a.reduce;
  }
  if (anyReduce != (s.reduce != Reduce::kNone))
    return error(at, where + (anyReduce ? " has reduction axes but no fold" : " folds but has no reduction axis"));
  if (s.out < 0 || s.out >= static_cast<int>(k.buffers.size()) ||
      k.buffers[static_cast<size_t>(s.out)].role == LoopBuffer::Role::kInput)
    return error(at, where + " writes buffer " + std::to_string(s.out) + ", which is not an output or a temporary");
  for (size_t a = 0; a < s.axes.size(); ++a)
    if (s.axes[a].reduce && s.outAt.coefOf(a) != 0)
      return error(at, where + "'s output depends on reduction axis '" + s.axes[a].name + "'");
  if (k.buffers[static_cast<size_t>(s.out)].type == support::DType::kInt64)
    return error(at, where + " writes int64 buffer '" + k.buffers[static_cast<size_t>(s.out)].name + "'");
  if (s.constant && k.buffers[static_cast<size_t>(s.out)].role != LoopBuffer::Role::kTemp)
    return error(at, where + " is computed once but writes '" + k.buffers[static_cast<size_t>(s.out)].name +
                         "', which is not a temporary");
  std::vector<LoopAxis> written = s.axes;
  if (s.outWrap.axis >= 0) {
    const LoopStage::Wrap& w = s.outWrap;
    if (static_cast<size_t>(w.axis) >= s.axes.size() || s.axes[static_cast<size_t>(w.axis)].reduce || w.keep < 1 ||
        w.keep > w.wrap || w.rows < 1 || s.outAt.coefOf(static_cast<size_t>(w.axis)) != 1)
      return error(at, where + "'s output wraps along axis " + std::to_string(w.axis) +
                           ": expected a spatial axis contiguous in the output, 0 < keep <= wrap, rows >= 1");
    written[static_cast<size_t>(w.axis)].extent = wrappedExtent(w, s.axes[static_cast<size_t>(w.axis)].extent);
  }
  const auto [lo, hi] = rangeOf(s.outAt, written);
  if (lo < 0 || hi >= k.buffers[static_cast<size_t>(s.out)].elements)
    return error(at, where + " writes elements " + std::to_string(lo) + " to " + std::to_string(hi) + " of '" +
                         k.buffers[static_cast<size_t>(s.out)].name + "', which holds " +
                         std::to_string(k.buffers[static_cast<size_t>(s.out)].elements));
  ACCELC_TRY(checkExpr(k, s, s.value, false, at));
  ACCELC_TRY(checkExpr(k, s, s.epilogue, true, at));
  ACCELC_TRY(checkTypes(k, s, s.value, false, at));
  ACCELC_TRY(checkTypes(k, s, s.epilogue, true, at));
  const bool acc = integerStage(k, s);
  const bool stored = s.epilogue.nodes.empty() ? acc : integerNodes(k, s.epilogue, acc).back();
  if (stored != integerBuffer(k, s.out))
    return error(at, where + " stores " + (stored ? "int32" : "float") + " values into " +
                         support::dtypeName(k.buffers[static_cast<size_t>(s.out)].type) + " buffer '" +
                         k.buffers[static_cast<size_t>(s.out)].name + "'");
  return Status::ok();
}

}  // namespace

Status LoopKernel::validate(const std::string& where) const {
  const Location at = Location::node(where, name);
  if (stages.empty()) return error(at, "the kernel has no stages");
  for (const LoopBuffer& b : buffers) {
    if (b.elements < 1) return error(at, "buffer '" + b.name + "' holds no elements");
    if (!runtime::kernelBufferType(b.type))
      return error(at, "buffer '" + b.name + "' holds " + support::dtypeName(b.type) +
                           "; loop kernels hold float32, int8, uint8 or int32 (int64 unread)");
  }
  for (const BatchDim& d : batch) {
    if (d.count < 1) return error(at, "a batch dimension of count " + std::to_string(d.count));
    if (d.stride.size() != buffers.size()) return error(at, "a batch dimension needs one stride per buffer");
  }
  for (const LoopStage& s : stages) ACCELC_TRY(checkStage(*this, s, at));
  return Status::ok();
}

StageSchedule StageSchedule::identity(const LoopStage& s) {
  StageSchedule r;
  for (size_t a = 0; a < s.axes.size(); ++a) {
    r.loops.push_back({static_cast<int>(a), 1, s.axes[a].extent, false});
    r.order.push_back(static_cast<int>(a));
  }
  return r;
}

int StageSchedule::split(int id, int64_t factor) {
  Loop& outer = loops[static_cast<size_t>(id)];
  // The outer loop covered `span` values an iteration; it now steps by
  // `factor` spans, and the new loop walks the spans of one step.
  const int64_t step = std::min(factor, outer.range / outer.span) * outer.span;
  Loop inner{outer.axis, outer.span, std::max<int64_t>(step, outer.span), false};
  outer.span = inner.range;
  loops.push_back(inner);
  const int innerId = static_cast<int>(loops.size()) - 1;
  auto it = std::find(order.begin(), order.end(), id);
  order.insert(it == order.end() ? order.end() : it + 1, innerId);
  return innerId;
}

size_t StageSchedule::tileStart(const LoopStage& s) const {
  size_t tile = order.size();
  while (tile > 0) {
    const int id = order[tile - 1];
    const Loop& l = loops[static_cast<size_t>(id)];
    if (s.axes[static_cast<size_t>(l.axis)].reduce || !(l.unroll || id == vector)) break;
    --tile;
  }
  return tile;
}

int64_t StageSchedule::outerIterations(const LoopStage& s) const {
  if (tileStart(s) == 0) return 1;
  const Loop& l = loops[static_cast<size_t>(order[0])];
  return s.axes[static_cast<size_t>(l.axis)].reduce ? 1 : l.iterations();
}

Status StageSchedule::validate(const LoopStage& s, const std::string& where) const {
  const Location at = Location::node(where, s.name);
  const size_t n = loops.size();
  std::vector<int> seen(n, 0);
  for (int id : order) {
    if (id < 0 || static_cast<size_t>(id) >= n) return error(at, "the order names loop " + std::to_string(id) + ", which does not exist");
    ++seen[static_cast<size_t>(id)];
  }
  if (order.size() != n || std::count(seen.begin(), seen.end(), 1) != static_cast<long>(n))
    return error(at, "the order must name every loop once");
  auto isReduce = [&](int id) { return s.axes[static_cast<size_t>(loops[static_cast<size_t>(id)].axis)].reduce; };
  // The loops of one axis nest outer to inner.
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const Loop &a = loops[static_cast<size_t>(order[i])], &b = loops[static_cast<size_t>(order[j])];
      if (a.axis == b.axis && a.span < b.span)
        return error(at, "a piece of axis '" + s.axes[static_cast<size_t>(a.axis)].name + "' lies inside a finer one");
    }
  // The register tile: the innermost spatial loops that unroll or vectorize.
  const size_t tile = tileStart(s);
  int64_t points = 1;
  for (size_t i = tile; i < n; ++i)
    if (order[i] != vector) points *= loops[static_cast<size_t>(order[i])].iterations();
  if (points > 64) return error(at, "the register tile holds " + std::to_string(points) + " points; at most 64");
  for (size_t i = 0; i < tile; ++i)
    if (loops[static_cast<size_t>(order[i])].unroll)
      return error(at, "loop " + std::to_string(order[i]) + " unrolls outside the register tile");
  if (vector >= 0) {
    if (static_cast<size_t>(vector) >= n || order.back() != vector || isReduce(vector) || loops[static_cast<size_t>(vector)].span != 1)
      return error(at, "the vector loop must be the innermost loop, of a spatial axis, one value an iteration");
    if (vectorWidth != 4 && vectorWidth != 8 && vectorWidth != 16 && vectorWidth != 32 && vectorWidth != 64)
      return error(at, "vector width " + std::to_string(vectorWidth) + "; expected 4, 8, 16, 32 or 64");
    if (registerLanes != 0 && registerLanes != 4 && registerLanes != 8 && registerLanes != 16)
      return error(at, "register lanes " + std::to_string(registerLanes) + "; expected 4, 8 or 16");
    if (vectorWidth > 16 && (registerLanes == 0 || vectorWidth > 4 * registerLanes))
      return error(at, "a vector of " + std::to_string(vectorWidth) + " lanes takes at most four registers' lanes");
    if (loops[static_cast<size_t>(vector)].range > vectorWidth)
      return error(at, "the vector loop covers more values than the vector holds");
    if (s.outAt.coefOf(static_cast<size_t>(loops[static_cast<size_t>(vector)].axis)) != 1)
      return error(at, "the vector loop's axis must be contiguous in the output");
  }
  if (parallel && isReduce(order[0])) return error(at, "a thread pool can only divide a spatial loop");
  for (const Prefetch& f : prefetch) {
    const bool loaded = std::any_of(s.value.nodes.begin(), s.value.nodes.end(), [&](const LoopNode& v) {
      return v.kind == LoopNode::Kind::kLoad && v.buffer == f.buffer;
    });
    if (!loaded)
      return error(at, "a prefetch of buffer " + std::to_string(f.buffer) + ", which the stage does not load");
    if (f.coef.size() > n) return error(at, "a prefetch names loops that do not exist");
    for (size_t i = tile; i < n; ++i)
      if (static_cast<size_t>(order[i]) < f.coef.size() && f.coef[static_cast<size_t>(order[i])] != 0)
        return error(at, "a prefetch moves with loop " + std::to_string(order[i]) + ", inside the register tile");
    if (amx) return error(at, "AMX tiles take no prefetch");
  }
  if (vnni && (vector < 0 || (vectorWidth != 8 && vectorWidth != 16)))
    return error(at, "vpdpbusd folds vectors of 8 or 16 lanes");
  if (amx && (vector >= 0 || vnni || pmaddwd)) return error(at, "AMX tiles take no vector loop");
  if (s.outWrap.axis >= 0 && !amx) return error(at, "only AMX tiles write an output that wraps");
  if (pmaddwd && (vector < 0 || vnni || (vectorWidth != 4 && vectorWidth != 8 && vectorWidth != 16)))
    return error(at, "vpmaddwd folds vectors of 4, 8 or 16 lanes, and only where vpdpbusd does not");
  // Reduction loops outside a spatial loop fold in memory: that loop's tiles must not overlap.
  size_t outerEnd = 0;  // after the last spatial loop outside the tile
  for (size_t i = 0; i < tile; ++i)
    if (!isReduce(order[i])) outerEnd = i + 1;
  for (size_t i = 0; i < outerEnd; ++i) {
    if (!isReduce(order[i])) continue;
    for (size_t j = i + 1; j < n; ++j) {
      const Loop& l = loops[static_cast<size_t>(order[j])];
      if (!isReduce(order[j]) && l.range % l.span != 0)
        return error(at, "reduction loop " + std::to_string(order[i]) + " folds in memory, and spatial loop " +
                             std::to_string(order[j]) + "'s tiles overlap: the split must divide");
    }
  }
  return Status::ok();
}

namespace {

/// The load node `id` of `e` when it is a plain load (no bounds, not a word load) of an int32 buffer of `k`.
const LoopNode* int32Load(const LoopKernel& k, const LoopExpr& e, int id) {
  if (id < 0 || static_cast<size_t>(id) >= e.nodes.size()) return nullptr;
  const LoopNode& n = e.nodes[static_cast<size_t>(id)];
  if (n.kind != LoopNode::Kind::kLoad || n.word || !n.bounds.empty() || n.buffer < 0 ||
      static_cast<size_t>(n.buffer) >= k.buffers.size() ||
      k.buffers[static_cast<size_t>(n.buffer)].type != support::DType::kInt32)
    return nullptr;
  return &n;
}

}  // namespace

support::Expected<TileProduct> tileProduct(const LoopKernel& k, const LoopStage& s, const StageSchedule& sc,
                                           const std::string& where) {
  const Location at = Location::node(where, s.name);
  auto no = [&](const std::string& why) { return error(at, "AMX tiles cannot compute this stage: " + why); };
  if (s.reduce != Reduce::kSum || s.init != 0.0f) return no("expected a sum from 0");
  if (s.value.nodes.size() != 3) return no("expected Dot4 or Dot4S of two loads");
  const LoopNode& root = s.value.nodes[2];
  if (root.kind != LoopNode::Kind::kOp || (root.op != EwOp::kDot4 && root.op != EwOp::kDot4S))
    return no("expected Dot4 or Dot4S of two loads");
  const LoopNode* a = int32Load(k, s.value, root.a);
  const LoopNode* b = int32Load(k, s.value, root.b);
  const bool epilogue = !s.epilogue.nodes.empty();
  if (!a || !b || s.out < 0 || (!epilogue && k.buffers[static_cast<size_t>(s.out)].type != support::DType::kInt32))
    return no("its operands must be int32 words, and its output too without an epilogue");
  TileProduct t;
  t.epilogue = epilogue;
  t.signedA = root.op == EwOp::kDot4S;
  for (size_t x = 0; x < s.axes.size(); ++x) {
    if (s.axes[x].reduce) {
      if (t.k >= 0)
        t.taps.push_back({t.k, s.axes[static_cast<size_t>(t.k)].extent, a->at.coefOf(static_cast<size_t>(t.k)),
                          b->at.coefOf(static_cast<size_t>(t.k))});
      t.k = static_cast<int>(x);
      continue;
    }
    int& id = a->at.coefOf(x) != 0 ? t.i : t.j;
    if (id >= 0) return no("expected one axis of a's rows and one of b's columns");
    id = static_cast<int>(x);
  }
  if (t.i < 0 || t.j < 0 || t.k < 0) return no("expected an axis of a's rows, one of b's columns and a depth");
  const auto ui = static_cast<size_t>(t.i), uj = static_cast<size_t>(t.j), uk = static_cast<size_t>(t.k);
  t.a = a->buffer, t.b = b->buffer;
  t.a0 = a->at.c, t.aRow = a->at.coefOf(ui), t.b0 = b->at.c, t.bRow = b->at.coefOf(uk);
  t.o0 = s.outAt.c, t.outRow = s.outAt.coefOf(ui);
  t.wrap = s.outWrap;
  if (t.wrap.axis >= 0 && (t.wrap.axis != t.j || !epilogue))
    return no("its output may wrap only along the columns, with an epilogue");
  t.rows = s.axes[ui].extent, t.cols = s.axes[uj].extent, t.depth = s.axes[uk].extent;
  if (a->at.coefOf(uk) != 1 || a->at.coefOf(uj) != 0 || b->at.coefOf(uj) != 1 || b->at.coefOf(ui) != 0 ||
      s.outAt.coefOf(uj) != 1 || s.outAt.coefOf(uk) != 0)
    return no("a's words must run along k, b's and the output's along the columns");
  for (const LoopNode& n : s.epilogue.nodes) {
    if (n.kind == LoopNode::Kind::kInBounds || (n.kind == LoopNode::Kind::kLoad && (n.word || !n.bounds.empty())))
      return no("its epilogue may load only plain values");
    if (n.kind != LoopNode::Kind::kLoad) continue;
    for (size_t x = 0; x < s.axes.size(); ++x)
      if (x != ui && n.at.coefOf(x) != 0 && !(x == uj && n.at.coefOf(x) == 1))
        return no("its epilogue's loads must move with the rows, or along the columns one value a column");
  }
  constexpr int64_t side = TileProduct::kSide;
  if (t.rows % side || t.cols % side || t.depth % side)
    return no("its extents must be multiples of " + std::to_string(side));
  const Loop& outer = sc.loops[static_cast<size_t>(sc.order[0])];
  if (!sc.amx || outer.axis != t.i || (outer.span != side && outer.span != 2 * side) || t.rows % outer.span)
    return no("the schedule's outer loop must split the rows into blocks of 16 or 32");
  return t;
}

}  // namespace accelc::compiler::host
