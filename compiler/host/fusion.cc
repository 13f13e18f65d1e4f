// compiler/host/fusion.cc — finding fusable runs of host steps and building their kernels.
#include "compiler/host/fusion.h"

#include <algorithm>
#include <map>
#include <optional>

#include "compiler/host/step_kernels.h"

namespace accelc::compiler::host {

namespace {

int64_t slotElements(const runtime::Bundle& b, int slot) {
  return support::shapeElements(b.tensors[static_cast<size_t>(slot)].shape);
}

/// Whether `in`, its leading 1s dropped, is the trailing dimensions of `out`: broadcast over its leading ones.
bool trailing(runtime::Shape in, const runtime::Shape& out) {
  while (!in.empty() && in.front() == 1) in.erase(in.begin());
  return in.size() <= out.size() && std::equal(in.rbegin(), in.rend(), out.rbegin());
}

/// Whether step `j` may join a group whose values are `inside` and whose first step computes `n` elements.
bool joins(const runtime::Bundle& b, size_t j, const std::vector<bool>& inside, int64_t n) {
  const runtime::Step& s = b.steps[j];
  if (!stepChain(b, s) || slotElements(b, s.outputs[0]) != n) return false;
  const runtime::Shape& out = b.tensors[static_cast<size_t>(s.outputs[0])].shape;
  bool readsGroup = false;
  for (int id : s.inputs) {
    if (id < 0) return false;
    if (inside[static_cast<size_t>(id)]) readsGroup = true;
    else if (slotElements(b, id) != n && slotElements(b, id) != 1 &&
             !trailing(b.tensors[static_cast<size_t>(id)].shape, out))
      return false;
  }
  return readsGroup;
}

/// Where stage `s` reads an input of `size` elements broadcast over the output's leading dimensions: its output
/// index modulo `size`, as `outAt` without the axes that move it by multiples of `size` (and its start modulo
/// `size`); nullopt unless every other axis moves it by less, all of them together from that start staying
/// below `size`.
std::optional<Affine> trailingAt(const LoopStage& s, int64_t size) {
  Affine at;
  at.c = s.outAt.c % size;
  int64_t reach = at.c;
  for (size_t a = 0; a < s.axes.size(); ++a) {
    const int64_t k = s.outAt.coefOf(a);
    if (k % size == 0) continue;
    if (k < 0 || k > size) return std::nullopt;
    at.coef.resize(a + 1, 0);
    at.coef[a] = k;
    reach += k * (s.axes[a].extent - 1);
  }
  if (reach >= size) return std::nullopt;
  return at;
}

/// Whether every value steps [first, last) compute is read only by steps (first, last] and is no bundle output.
bool closed(const runtime::Bundle& b, size_t first, size_t last, const std::vector<bool>& isOutput) {
  for (size_t k = first; k < last; ++k)
    for (int id : b.steps[k].outputs) {
      if (isOutput[static_cast<size_t>(id)]) return false;
      for (size_t r = 0; r < b.steps.size(); ++r) {
        if (r > first && r <= last) continue;
        for (int in : b.steps[r].inputs)
          if (in == id) return false;
      }
    }
  return true;
}

/// Appends chain `c` to `g`, its input i being node in[i] of `g`; returns the node of its result.
int appendChain(EwKernel& g, const EwKernel& c, const std::vector<int>& in) {
  std::vector<int> node(c.nodes.size());
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    const EwNode& n = c.nodes[i];
    auto at = [&](int k) { return k < 0 ? -1 : node[static_cast<size_t>(k)]; };
    if (n.op == EwOp::kInput) node[i] = in[static_cast<size_t>(n.input)];
    else if (n.op == EwOp::kConst) node[i] = g.constant(n.value);
    else if (n.op == EwOp::kClip) node[i] = g.clip(at(n.a), n.lo, n.hi);
    else node[i] = g.add({n.op, at(n.a), at(n.b)});
  }
  return node.back();
}

}  // namespace

StepGroup fusedGroup(const runtime::Bundle& b, size_t first, size_t below) {
  const runtime::Step& s = b.steps[first];
  StepGroup g{first, first};
  if (s.kind != runtime::Step::Kind::kHost || s.outputs.size() != 1) return g;
  const int64_t n = slotElements(b, s.outputs[0]);
  std::vector<bool> inside(b.tensors.size(), false), isOutput(b.tensors.size(), false);
  for (int id : b.outputs) isOutput[static_cast<size_t>(id)] = true;
  inside[static_cast<size_t>(s.outputs[0])] = true;
  size_t end = first;
  while (end + 1 < std::min(below, b.steps.size()) && joins(b, end + 1, inside, n)) {
    ++end;
    inside[static_cast<size_t>(b.steps[end].outputs[0])] = true;
  }
  for (; end > first; --end)
    if (closed(b, first, end, isOutput)) return {first, end};
  return g;
}

std::vector<int> groupInputs(const runtime::Bundle& b, const StepGroup& g) {
  return runtime::fusedStepInputs(b, g.first, g.last);
}

std::optional<EwKernel> groupChain(const runtime::Bundle& b, const StepGroup& g, bool firstIsAcc) {
  const std::vector<int> ids = groupInputs(b, g);
  EwKernel k;
  for (int id : ids) k.numInputs += id >= 0;
  std::map<int, int> value;  // slot -> its node
  int next = 0;              // the next present input's number
  const runtime::Step& head = b.steps[g.first];
  if (firstIsAcc) {
    value[head.outputs[0]] = k.input(k.numInputs);
    for (int id : head.inputs) next += id >= 0;
    ++k.numInputs;  // the folded value
  } else {
    std::optional<EwKernel> c = stepChain(b, head);
    if (!c) return std::nullopt;
    std::vector<int> in;
    for (int id : head.inputs)
      if (id >= 0) in.push_back(k.input(next++));
    value[head.outputs[0]] = appendChain(k, *c, in);
  }
  for (size_t j = g.first + 1; j <= g.last; ++j) {
    const runtime::Step& s = b.steps[j];
    std::optional<EwKernel> c = stepChain(b, s);
    if (!c) return std::nullopt;
    std::vector<int> in;
    for (int id : s.inputs) {
      auto it = value.find(id);
      in.push_back(it != value.end() ? it->second : k.input(next++));
    }
    value[s.outputs[0]] = appendChain(k, *c, in);
  }
  return k;
}

namespace {

/// `chain` appended to the epilogue `e` (over its last value, else the sum): its input `inputs` is that value,
/// and input i (from `skip` on) a load of buffer first + i - skip at reads[i].
void chainEpilogue(LoopExpr& e, const EwKernel& chain, size_t inputs, int first, size_t skip,
                   const std::vector<Affine>& reads) {
  const int base = e.nodes.empty() ? e.acc() : static_cast<int>(e.nodes.size()) - 1;
  std::vector<int> node(chain.nodes.size());
  for (size_t i = 0; i < chain.nodes.size(); ++i) {
    const EwNode& n = chain.nodes[i];
    auto at = [&](int x) { return x < 0 ? -1 : node[static_cast<size_t>(x)]; };
    if (n.op == EwOp::kInput) {
      const size_t in = static_cast<size_t>(n.input);
      node[i] = in == inputs ? base : e.load(first + static_cast<int>(in - skip), reads[in]);
    } else if (n.op == EwOp::kConst) {
      node[i] = e.constant(n.value);
    } else if (n.op == EwOp::kClip) {
      node[i] = e.clip(at(n.a), n.lo, n.hi);
    } else {
      node[i] = e.op(n.op, at(n.a), at(n.b));
    }
  }
}

}  // namespace

bool fuseEpilogue(KernelPlan& plan, const EwKernel& chain, const std::vector<int64_t>& sizes, size_t skip) {
  LoopKernel& k = plan.kernel;
  int out = 0;
  while (k.buffers[static_cast<size_t>(out)].role != LoopBuffer::Role::kOutput) ++out;
  if (k.buffers[static_cast<size_t>(out)].type != support::DType::kFloat32) return false;
  if (k.stages.back().outWrap.axis >= 0) return false;  // its inputs would be read at the unwrapped index
  // The stages that write the output each take the chain: the last, or several sums over disjoint columns (a
  // product's panels and its tail), none of them reading the output back (a sum split across stages would
  // take the chain twice). Not a Concat's parts, whose copies are scheduled as moves of bytes.
  std::vector<size_t> writers;
  bool readsOut = false;
  for (size_t i = 0; i < k.stages.size(); ++i) {
    if (k.stages[i].out == out) writers.push_back(i);
    for (const LoopExpr* e : {&k.stages[i].value, &k.stages[i].epilogue})
      for (const LoopNode& n : e->nodes) readsOut = readsOut || (n.kind == LoopNode::Kind::kLoad && n.buffer == out);
  }
  if (writers.empty() || writers.back() + 1 != k.stages.size()) return false;
  for (size_t i : writers)
    if (writers.size() > 1 && (readsOut || k.stages[i].reduce != Reduce::kSum || k.stages[i].outWrap.axis >= 0))
      return false;
  // Where each input is read, per writer: the output's index, one element, or the output's index modulo its count.
  const int64_t perPoint = k.buffers[static_cast<size_t>(out)].elements;
  int64_t all = perPoint;  // the output's elements at every batch point
  for (const BatchDim& d : k.batch) all *= d.count;
  std::vector<std::vector<Affine>> reads(writers.size(), std::vector<Affine>(sizes.size()));
  for (size_t w = 0; w < writers.size(); ++w)
    for (size_t i = skip; i < sizes.size(); ++i) {
      const LoopStage& s = k.stages[writers[w]];
      if (sizes[i] == all) reads[w][i] = s.outAt;
      if (sizes[i] == 1 || sizes[i] == all) continue;
      std::optional<Affine> at = trailingAt(s, sizes[i]);
      if (!at) return false;
      for (const BatchDim& d : k.batch)  // every batch point starts the output at a multiple of the input's count
        if (d.stride[static_cast<size_t>(out)] % sizes[i] != 0) return false;
      reads[w][i] = *at;
    }
  // New buffers go before the output: every index from it on moves up.
  const int added = static_cast<int>(sizes.size() - skip);
  auto moved = [&](int buffer) { return buffer >= out ? buffer + added : buffer; };
  for (LoopStage& s : k.stages) {
    s.out = moved(s.out);
    for (LoopExpr* e : {&s.value, &s.epilogue})
      for (LoopNode& n : e->nodes)
        if (n.kind == LoopNode::Kind::kLoad) n.buffer = moved(n.buffer);
  }
  for (StageSchedule& sc : plan.schedule.stages)
    for (Prefetch& f : sc.prefetch) f.buffer = moved(f.buffer);
  for (BatchDim& d : k.batch) {
    const int64_t outStride = d.stride[static_cast<size_t>(out)];
    for (size_t i = skip; i < sizes.size(); ++i)
      d.stride.insert(d.stride.begin() + out + static_cast<long>(i - skip), sizes[i] == all ? outStride : 0);
  }
  // A full-size input moves with the output from batch point to point, so it holds the output's elements per
  // point; a broadcast one (a whole number of them per point) stays put.
  for (size_t i = skip; i < sizes.size(); ++i)
    k.buffers.insert(
        k.buffers.begin() + out + static_cast<long>(i - skip),
        LoopBuffer{"fused" + std::to_string(i), sizes[i] == all ? perPoint : sizes[i], LoopBuffer::Role::kInput});
  for (size_t w = 0; w < writers.size(); ++w)
    chainEpilogue(k.stages[writers[w]].epilogue, chain, sizes.size(), out, skip, reads[w]);
  return true;
}

}  // namespace accelc::compiler::host
