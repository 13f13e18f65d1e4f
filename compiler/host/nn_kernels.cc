// compiler/host/nn_kernels.cc — convolutions, matrix products and pools as
// loop kernels, and their schedules.
//
// The matrix product is the workhorse: C[m][n] = Σ_k A[m][k]·B[k][n] with n
// contiguous in B and C. Its schedule keeps an MR x 2 vectors block of C in
// registers across the whole k loop (per k: 2 vector loads of B, MR
// broadcasts of A, 2·MR fmas), walks n blocks outermost so that a K x 2W
// panel of B stays in cache while the MR-row blocks of A stream past it, and
// lets a thread pool divide the n blocks. Convolutions become that product
// after an im2col copy; depthwise ones, whose product would have one row, run
// directly with the output row in vector lanes.
#include "compiler/host/nn_kernels.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "compiler/host/plan_util.h"
#include "runtime/geometry.h"

namespace accelc::compiler::host {

namespace {

using runtime::Shape;
using Role = LoopBuffer::Role;

/// The rows from which a product packs a B that is not a constant into panels at every run: measured on AVX2
/// (bench/host_kernels_bench), 128 to 512 rows took 0.65x to 0.85x the time of the product reading B's rows.
constexpr int64_t kPanelRows = 64;

/// y[m][n] = Σ_k A·B over panels: a stage packs B ([K][N], or [N][K] with `transB`) into panels of whole
/// vectors of columns, each K x nb contiguous, and the product's axes are (m, panel, column in it, k), so
/// that its loads of B walk a panel straight through (B's rows, N apart, cost a cache line and often a page
/// each, and the prefetchers stop at pages). With `once` (B a constant) the packing runs on the first run
/// only (LoopStage::constant), else at every batch point. `aAt` indexes A by axes 0 (m) and 3 (k). The panels
/// cover all n columns where a panel of whole vectors divides n; else, B not transposed, the columns of whole
/// vectors (a row of 1000 logits: 992), and `tailProduct` the rest. nullopt, adding nothing, when neither
/// holds. (Panels of the widest tile over 960 of the 1000 and a tail of 40 took the same time at 1x512x1000.)
std::optional<LoopStage> panelProduct(KernelPlan& p, int a, Affine aAt, int b, bool transB, bool once, int y, int64_t m,
                                      int64_t n, int64_t kk, const CpuShape& cpu) {
  const int64_t cols = panelWidth(m, n, cpu) || transB ? n : n / cpu.vectorWidth * cpu.vectorWidth;
  const int64_t nb = cols ? panelWidth(m, cols, cpu) : 0;
  if (nb == 0) return std::nullopt;
  LoopKernel& k = p.kernel;
  const int bp = k.addBuffer("Bp", kk * cols, Role::kTemp);
  LoopStage pack;
  pack.name = "pack_panels";
  enum { PB, KK, J };
  pack.axes = {{"panel", cols / nb}, {"k", kk}, {"j", nb}};
  pack.out = bp, pack.outAt = aff(0, {{PB, kk * nb}, {KK, nb}, {J, 1}});
  pack.value.load(b, transB ? aff(0, {{PB, nb * kk}, {J, kk}, {KK, 1}}) : aff(0, {{KK, n}, {PB, nb}, {J, 1}}));
  pack.constant = once;
  k.stages.push_back(pack);
  p.schedule.stages.push_back(rowSchedule(pack, J, -1, 1, cpu));
  LoopStage s;
  s.name = "product";
  s.axes = {{"m", m}, {"panel", cols / nb}, {"j", nb}, {"k", kk, true}};
  s.out = y, s.outAt = aff(0, {{0, n}, {1, nb}, {2, 1}});
  s.reduce = Reduce::kSum;
  s.value.op(EwOp::kMul, s.value.load(a, std::move(aAt)), s.value.load(bp, aff(0, {{1, kk * nb}, {3, nb}, {2, 1}})));
  return s;
}

/// The columns a panel product `s` covers.
int64_t panelColumns(const LoopStage& s) { return s.axes[1].extent * s.axes[2].extent; }

/// y's columns `from` to n (fewer than a vector's lanes) as the plain product reading B's rows ([K][N]), for
/// productSchedule; `aAt` indexes A by axes 0 (m) and 2 (k).
LoopStage tailProduct(int a, Affine aAt, int b, int y, int64_t m, int64_t n, int64_t from, int64_t kk) {
  LoopStage s = productStage(a, std::move(aAt), b, aff(from, {{2, n}, {1, 1}}), y, m, n - from, kk);
  s.name = "tail_columns";
  s.outAt = aff(from, {{0, n}, {1, 1}});
  return s;
}

}  // namespace

CpuShape x86CpuShape(bool avx512, const std::function<bool(const char*)>& has) {
  CpuShape c;
  c.vectorWidth = avx512 ? 16 : 8, c.registers = avx512 ? 32 : 16;
  c.vnni = avx512 ? has("avx512vnni") : has("avxvnni") || (has("avx512vnni") && has("avx512vl"));
  c.pmaddwd = has(avx512 ? "avx512bw" : "avx2");
  c.amx = avx512 && has("amx-tile") && has("amx-int8");
  return c;
}

std::optional<KernelPlan> convPlan(const runtime::ConvAttrs& a, const Shape& x, const Shape& w, bool bias,
                                   const CpuShape& cpu, bool constWeights) {
  runtime::ConvGeometry g;
  if (!runtime::convGeometry(a, x, w, g).empty() || g.n < 1) return std::nullopt;
  ConvForm f;
  f.constWeights = constWeights;
  if (bias) {
    f.perChannel = {{"b", support::DType::kFloat32}};
    f.epilogue = [](LoopExpr& e, int acc, const std::vector<int>& ch) { e.op(EwOp::kAdd, acc, ch[0]); };
  }
  return g.c == g.group ? depthwiseConv(g, f, cpu) : im2colProduct(g, f, cpu);
}

std::optional<KernelPlan> gemmPlan(const runtime::GemmAttrs& a, const Shape& A, const Shape& B, const Shape* C,
                                   const Shape& y, const CpuShape& cpu, bool constB) {
  if (A.size() != 2 || B.size() != 2 || y.size() != 2) return std::nullopt;
  const int64_t m = y[0], n = y[1], kk = a.transA ? A[0] : A[1];
  if ((a.transA ? A[1] : A[0]) != m || (a.transB ? B[0] : B[1]) != n || (a.transB ? B[1] : B[0]) != kk) return std::nullopt;
  if (C && (C->size() > 2 || (C->size() == 2 && (*C)[0] != 1 && (*C)[0] != m) ||
            (!C->empty() && C->back() != 1 && C->back() != n)))
    return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "gemm";
  const int ia = k.addBuffer("A", m * kk, Role::kInput), ib = k.addBuffer("B", kk * n, Role::kInput);
  const int ic = C ? k.addBuffer("C", std::max<int64_t>(1, elements(*C)), Role::kInput) : -1;
  const int iy = k.addBuffer("Y", m * n, Role::kOutput);
  // The reference's order: y = alpha·(A·B), then y += beta·C; `col` indexes C's columns by the stage's axes.
  auto epilogue = [&](LoopStage& s, const Affine& col) {
    int v = s.epilogue.op(EwOp::kMul, s.epilogue.acc(), s.epilogue.constant(a.alpha));
    if (!C) return;
    const int64_t rows = C->size() == 2 ? (*C)[0] : 1, cols = C->empty() ? 1 : C->back();
    Affine at = cols == 1 ? Affine{} : col;
    if (rows != 1) at.coef.resize(std::max<size_t>(at.coef.size(), 1), 0), at.coef[0] += cols;
    const int c = s.epilogue.load(ic, at);
    v = s.epilogue.op(EwOp::kAdd, v, s.epilogue.op(EwOp::kMul, s.epilogue.constant(a.beta), c));
  };
  if (constB) {
    std::optional<LoopStage> s = panelProduct(p, ia, a.transA ? aff(0, {{3, m}, {0, 1}}) : aff(0, {{0, kk}, {3, 1}}),
                                              ib, a.transB, true, iy, m, n, kk, cpu);
    if (s) {
      epilogue(*s, aff(0, {{1, s->axes[2].extent}, {2, 1}}));
      k.stages.push_back(*s);
      p.schedule.stages.push_back(panelSchedule(*s, cpu));
      if (const int64_t cols = panelColumns(*s); cols < n) {
        LoopStage t =
            tailProduct(ia, a.transA ? aff(0, {{2, m}, {0, 1}}) : aff(0, {{0, kk}, {2, 1}}), ib, iy, m, n, cols, kk);
        epilogue(t, aff(cols, {{1, 1}}));
        k.stages.push_back(t);
        p.schedule.stages.push_back(productSchedule(t, 0, 1, 2, cpu));
      }
      return p;
    }
  }
  int bsrc = ib;
  if (a.transB) {
    bsrc = k.addBuffer("Bt", kk * n, Role::kTemp);
    k.stages.push_back(transposeStage(ib, bsrc, n, kk));
    // A vector gathers one column of W rows of B: walking k innermost reads
    // each of those rows' cache lines W times in a row, not once per pass.
    StageSchedule t = StageSchedule::identity(k.stages.back());
    const int nv = t.split(1, cpu.vectorWidth);
    t.vector = nv, t.vectorWidth = cpu.vectorWidth, t.parallel = true;
    t.order = {1, 0, nv};
    p.schedule.stages.push_back(t);
  }
  LoopStage s = productStage(ia, a.transA ? aff(0, {{2, m}, {0, 1}}) : aff(0, {{0, kk}, {2, 1}}), bsrc,
                             aff(0, {{2, n}, {1, 1}}), iy, m, n, kk);
  epilogue(s, aff(0, {{1, 1}}));
  k.stages.push_back(s);
  p.schedule.stages.push_back(productSchedule(s, 0, 1, 2, cpu));
  return p;
}

std::optional<KernelPlan> matmulPlan(const Shape& A, const Shape& B, const Shape& y, const CpuShape& cpu, bool constB) {
  if (A.empty() || B.empty()) return std::nullopt;
  Shape sa = A, sb = B;
  if (sa.size() == 1) sa.insert(sa.begin(), 1);
  if (sb.size() == 1) sb.push_back(1);
  int64_t m = sa[sa.size() - 2];
  const int64_t kk = sa.back(), n = sb.back();
  if (sb[sb.size() - 2] != kk || m * n < 1 || kk < 1) return std::nullopt;
  Shape ba(sa.begin(), sa.end() - 2);
  const Shape bb(sb.begin(), sb.end() - 2);
  if (elements(bb) == 1 && ba.size() >= bb.size()) {  // one B for every batch: A's batches are more rows of one product
    m *= elements(ba);
    ba.assign(ba.size(), 1);
  }
  const size_t rank = std::max(ba.size(), bb.size());
  if (elements(y) != [&] {
        int64_t e = m * n;
        for (size_t d = 0; d < rank; ++d) {
          const int64_t da = d + ba.size() >= rank ? ba[d + ba.size() - rank] : 1;
          const int64_t db = d + bb.size() >= rank ? bb[d + bb.size() - rank] : 1;
          if (da != db && da != 1 && db != 1) return int64_t{-1};
          e *= std::max(da, db);
        }
        return e;
      }())
    return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "matmul";
  const int ia = k.addBuffer("A", m * kk, Role::kInput), ib = k.addBuffer("B", kk * n, Role::kInput);
  const int iy = k.addBuffer("Y", m * n, Role::kOutput);
  // One batch dimension per broadcast dimension; a broadcast operand keeps its place.
  int64_t sA = m * kk, sB = kk * n, sY = m * n;
  std::vector<BatchDim> dims;
  for (size_t d = rank; d-- > 0;) {
    const int64_t da = d + ba.size() >= rank ? ba[d + ba.size() - rank] : 1;
    const int64_t db = d + bb.size() >= rank ? bb[d + bb.size() - rank] : 1;
    const int64_t count = std::max(da, db);
    dims.insert(dims.begin(), BatchDim{count, {da == 1 ? 0 : sA, db == 1 ? 0 : sB, sY}});
    sA *= da, sB *= db, sY *= count;
  }
  k.batch = dims;
  // A constant B (one for every batch: A's batches are merged into m) is packed once; another is packed at
  // every batch point where enough rows read each panel.
  const bool once = constB && elements(bb) == 1;
  if (once || m >= kPanelRows) {
    if (std::optional<LoopStage> s =
            panelProduct(p, ia, aff(0, {{0, kk}, {3, 1}}), ib, false, once, iy, m, n, kk, cpu)) {
      for (BatchDim& d : k.batch) d.stride.resize(k.buffers.size(), 0);
      k.stages.push_back(*s);
      p.schedule.stages.push_back(panelSchedule(*s, cpu));
      if (const int64_t cols = panelColumns(*s); cols < n) {
        LoopStage t = tailProduct(ia, aff(0, {{0, kk}, {2, 1}}), ib, iy, m, n, cols, kk);
        k.stages.push_back(t);
        p.schedule.stages.push_back(productSchedule(t, 0, 1, 2, cpu));
      }
      return p;
    }
  }
  LoopStage s = productStage(ia, aff(0, {{0, kk}, {2, 1}}), ib, aff(0, {{2, n}, {1, 1}}), iy, m, n, kk);
  k.stages.push_back(s);
  p.schedule.stages.push_back(productSchedule(s, 0, 1, 2, cpu));
  return p;
}

std::optional<KernelPlan> broadcastPlan(const EwKernel& chain, const std::vector<Shape>& inputs, const Shape& out,
                                        const CpuShape& cpu) {
  const size_t rank = std::max<size_t>(1, out.size());
  Shape dims = out.empty() ? Shape{1} : out;
  // Per input: its dimensions aligned to the output's, and its strides (0 where it broadcasts).
  std::vector<std::vector<int64_t>> strides;
  for (const Shape& in : inputs) {
    if (in.size() > rank) return std::nullopt;
    std::vector<int64_t> st(rank, 0);
    int64_t stride = 1;
    for (size_t d = 0; d < in.size(); ++d) {
      const size_t o = rank - 1 - d, i = in.size() - 1 - d;
      if (in[i] != 1 && in[i] != dims[o]) return std::nullopt;
      st[o] = in[i] == 1 ? 0 : stride;
      stride *= in[i];
    }
    strides.push_back(st);
  }
  // Merge dimension d into d + 1 where every input steps through both alike.
  for (size_t d = dims.size() - 1; d-- > 0;) {
    bool merge = true;
    for (const auto& st : strides) merge &= (st[d] == 0 && st[d + 1] == 0) || (st[d + 1] != 0 && st[d] == st[d + 1] * dims[d + 1]);
    if (!merge) continue;
    dims[d + 1] *= dims[d];
    dims.erase(dims.begin() + static_cast<long>(d));
    for (auto& st : strides) st.erase(st.begin() + static_cast<long>(d));
  }
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "elementwise";
  for (size_t i = 0; i < inputs.size(); ++i)
    k.addBuffer("in" + std::to_string(i), std::max<int64_t>(1, elements(inputs[i])), Role::kInput);
  const int y = k.addBuffer("out", elements(dims), Role::kOutput);
  LoopStage s;
  s.name = "elementwise";
  Affine outAt;
  int64_t stride = 1;
  outAt.coef.assign(dims.size(), 0);
  for (size_t d = dims.size(); d-- > 0;) {
    s.axes.insert(s.axes.begin(), LoopAxis{"d" + std::to_string(d), dims[d], false});
    outAt.coef[d] = stride;
    stride *= dims[d];
  }
  s.out = y, s.outAt = outAt;
  std::vector<int> node(chain.nodes.size());
  for (size_t i = 0; i < chain.nodes.size(); ++i) {
    const EwNode& n = chain.nodes[i];
    if (n.op == EwOp::kInput) {
      Affine at;
      at.coef = strides[static_cast<size_t>(n.input)];
      node[i] = s.value.load(n.input, at);
    } else if (n.op == EwOp::kConst) {
      node[i] = s.value.constant(n.value);
    } else if (n.op == EwOp::kClip) {
      node[i] = s.value.clip(node[static_cast<size_t>(n.a)], n.lo, n.hi);
    } else {
      node[i] = s.value.op(n.op, node[static_cast<size_t>(n.a)], n.b >= 0 ? node[static_cast<size_t>(n.b)] : -1);
    }
  }
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, static_cast<int>(dims.size()) - 1, -1, 1, cpu));
  return p;
}

namespace {

/// A reduction over `r` folding per row `row`, unrolled over 4 rows (independent sums in flight).
StageSchedule rowsSchedule(const LoopStage& s, int row) {
  StageSchedule sc = StageSchedule::identity(s);
  const int in = sc.split(row, 4);
  sc.loops[static_cast<size_t>(in)].unroll = true;
  std::vector<int> order;
  for (int id : sc.order)
    if (id != in && !s.axes[static_cast<size_t>(sc.loops[static_cast<size_t>(id)].axis)].reduce) order.push_back(id);
  for (int id : sc.order)
    if (s.axes[static_cast<size_t>(sc.loops[static_cast<size_t>(id)].axis)].reduce) order.push_back(id);
  order.push_back(in);
  sc.order = order;
  sc.parallel = true;
  return sc;
}

/// Splits `shape` around `axis` into outer, the axis (or, `flat`, every axis from it) and inner counts.
void around(const Shape& shape, int64_t axis, bool flat, int64_t& outer, int64_t& n, int64_t& inner) {
  outer = n = inner = 1;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i)
    (i < axis ? outer : i == axis || flat ? n : inner) *= shape[static_cast<size_t>(i)];
}

bool normAxis(int64_t& axis, size_t rank) {
  if (axis < 0) axis += static_cast<int64_t>(rank);
  return axis >= 0 && axis < static_cast<int64_t>(rank);
}

}  // namespace

std::optional<KernelPlan> softmaxPlan(const runtime::SoftmaxAttrs& a, const Shape& x, const CpuShape& cpu) {
  int64_t axis = a.axis, outer, n, inner;
  if (!normAxis(axis, x.size())) return std::nullopt;
  around(x, axis, a.legacy != 0, outer, n, inner);
  if (outer * n * inner < 1) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "softmax";
  const int ix = k.addBuffer("x", outer * n * inner, Role::kInput), iy = k.addBuffer("y", outer * n * inner, Role::kOutput);
  const int mx = k.addBuffer("max", outer * inner, Role::kTemp), sum = k.addBuffer("sum", outer * inner, Role::kTemp);
  enum { O, J, K };
  const Affine at = aff(0, {{O, n * inner}, {K, inner}, {J, 1}}), row = aff(0, {{O, inner}, {J, 1}});
  // Along the last axis (inner 1) the sums fold a row in one lane, so an exp inside them would be a scalar
  // one: the exps are a stage of their own there, vectorized along the row into e, which the sum and the
  // normalization read (two 4x32x32 Softmaxes of an encoder: 0.044 ms to 0.016).
  const int ie = inner == 1 ? k.addBuffer("e", outer * n, Role::kTemp) : -1;
  auto expOf = [&](LoopExpr& e) { return e.op(EwOp::kExp, e.op(EwOp::kSub, e.load(ix, at), e.load(mx, row))); };
  auto reduceStage = [&](bool isMax) {
    LoopStage s;
    s.name = isMax ? "max" : "sum";
    s.axes = {{"o", outer}, {"j", inner}, {"k", n, true}};
    s.out = isMax ? mx : sum, s.outAt = row;
    s.reduce = isMax ? Reduce::kMax : Reduce::kSum;
    s.init = isMax ? std::numeric_limits<float>::lowest() : 0.0f;
    if (isMax)
      s.value.load(ix, at);
    else if (ie >= 0)
      s.value.load(ie, at);
    else
      expOf(s.value);
    k.stages.push_back(s);
    p.schedule.stages.push_back(inner > 1 ? rowSchedule(s, J, -1, 1, cpu) : rowsSchedule(s, O));
  };
  auto rowStage = [&](const char* name, int out, bool divide) {
    LoopStage s;
    s.name = name;
    s.axes = {{"o", outer}, {"j", inner}, {"k", n}};
    s.out = out, s.outAt = at;
    const int e = divide && ie >= 0 ? s.value.load(ie, at) : expOf(s.value);
    if (divide) s.value.op(EwOp::kDiv, e, s.value.load(sum, row));
    k.stages.push_back(s);
    p.schedule.stages.push_back(rowSchedule(s, inner > 1 ? J : K, -1, 1, cpu));
  };
  reduceStage(true);
  if (ie >= 0) rowStage("exp", ie, false);
  reduceStage(false);
  rowStage("normalize", iy, true);
  return p;
}

std::optional<KernelPlan> layerNormPlan(const runtime::NormAttrs& a, const Shape& x, bool bias, const CpuShape& cpu) {
  int64_t axis = a.axis, outer, inner, unused;
  if (!normAxis(axis, x.size())) return std::nullopt;
  around(x, axis, true, outer, inner, unused);
  if (outer * inner < 1) return std::nullopt;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "layernorm";
  const int ix = k.addBuffer("x", outer * inner, Role::kInput), is = k.addBuffer("scale", inner, Role::kInput);
  const int ib = bias ? k.addBuffer("bias", inner, Role::kInput) : -1;
  const int iy = k.addBuffer("y", outer * inner, Role::kOutput);
  const int mean = k.addBuffer("mean", outer, Role::kTemp), inv = k.addBuffer("inv", outer, Role::kTemp);
  enum { O, J };
  const Affine at = aff(0, {{O, inner}, {J, 1}}), row = aff(0, {{O, 1}});
  const float count = static_cast<float>(inner);
  for (const bool isMean : {true, false}) {
    LoopStage s;
    s.name = isMean ? "mean" : "deviation";
    s.axes = {{"o", outer}, {"j", inner, true}};
    s.out = isMean ? mean : inv, s.outAt = row;
    s.reduce = Reduce::kSum;
    const int v = s.value.load(ix, at);
    if (!isMean) {
      const int d = s.value.op(EwOp::kSub, v, s.value.load(mean, row));
      s.value.op(EwOp::kMul, d, d);
    }
    const int m = s.epilogue.op(EwOp::kDiv, s.epilogue.acc(), s.epilogue.constant(count));
    if (!isMean)  // 1 / sqrt(var + epsilon)
      s.epilogue.op(EwOp::kDiv, s.epilogue.constant(1.0f),
                    s.epilogue.op(EwOp::kSqrt, s.epilogue.op(EwOp::kAdd, m, s.epilogue.constant(a.epsilon))));
    k.stages.push_back(s);
    p.schedule.stages.push_back(rowsSchedule(s, O));
  }
  LoopStage s;
  s.name = "normalize";
  s.axes = {{"o", outer}, {"j", inner}};
  s.out = iy, s.outAt = at;
  const int d = s.value.op(EwOp::kSub, s.value.load(ix, at), s.value.load(mean, row));
  const int v = s.value.op(EwOp::kMul, s.value.op(EwOp::kMul, d, s.value.load(inv, row)), s.value.load(is, aff(0, {{J, 1}})));
  if (bias) s.value.op(EwOp::kAdd, v, s.value.load(ib, aff(0, {{J, 1}})));
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, J, -1, 1, cpu));
  return p;
}

std::optional<KernelPlan> reduceMeanPlan(const runtime::ReduceAttrs& a, const Shape& x, const CpuShape& cpu) {
  if (x.empty() || (a.axes.empty() && a.noopWithEmptyAxes)) return std::nullopt;
  std::vector<bool> reduce(x.size(), a.axes.empty());
  for (int64_t ax : a.axes) {
    if (!normAxis(ax, x.size())) return std::nullopt;
    reduce[static_cast<size_t>(ax)] = true;
  }
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "reducemean";
  LoopStage s;
  s.name = "mean";
  Affine in, out;
  int64_t inStride = 1, outStride = 1, count = 1, kept = 1;
  in.coef.assign(x.size(), 0), out.coef.assign(x.size(), 0);
  for (size_t d = x.size(); d-- > 0;) {
    in.coef[d] = inStride, inStride *= x[d];
    if (reduce[d]) {
      count *= x[d];
    } else {
      out.coef[d] = outStride, outStride *= x[d], kept *= x[d];
    }
  }
  for (size_t d = 0; d < x.size(); ++d) s.axes.push_back({"d" + std::to_string(d), x[d], reduce[d]});
  if (inStride < 1) return std::nullopt;
  const int ix = k.addBuffer("x", inStride, Role::kInput), iy = k.addBuffer("y", kept, Role::kOutput);
  s.out = iy, s.outAt = out;
  s.reduce = Reduce::kSum;
  s.value.load(ix, in);
  s.epilogue.op(EwOp::kDiv, s.epilogue.acc(), s.epilogue.constant(static_cast<float>(count)));
  k.stages.push_back(s);
  // Vectorize the innermost kept axis when it is the input's last; else fold one output at a time.
  const int last = static_cast<int>(x.size()) - 1;
  if (!reduce[static_cast<size_t>(last)] && x.back() > 1) {
    p.schedule.stages.push_back(rowSchedule(s, last, -1, 1, cpu));
  } else {
    StageSchedule sc = StageSchedule::identity(s);
    std::stable_partition(sc.order.begin(), sc.order.end(), [&](int id) { return !reduce[static_cast<size_t>(id)]; });
    sc.parallel = !reduce[0];
    p.schedule.stages.push_back(sc);
  }
  return p;
}

namespace {

/// A float global average pool: each plane's elements summed in vector lanes (partial[p][l] = Σ_i x[p][i·W + l],
/// `planes` at a time in registers), then the lanes' sums divided. A window of the whole plane as the other
/// pools take it would sum one element at a time.
KernelPlan globalAveragePool(int64_t planes, int64_t in, const CpuShape& cpu) {
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "avgpool";
  const int64_t w = cpu.vectorWidth, steps = (in + w - 1) / w;
  const int ix = k.addBuffer("x", planes * in, Role::kInput), iy = k.addBuffer("y", planes, Role::kOutput);
  const int part = k.addBuffer("lanes", planes * w, Role::kTemp);
  enum { P, L, I };
  LoopStage s;
  s.name = "lane_sums";
  s.axes = {{"p", planes}, {"l", w}, {"i", steps, true}};
  s.out = part, s.outAt = aff(0, {{P, w}, {L, 1}});
  s.reduce = Reduce::kSum;
  s.value.load(ix, aff(0, {{P, in}, {I, w}, {L, 1}}), {inside(aff(0, {{I, w}, {L, 1}}), in)}, 0.0f);
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, L, P, 4, cpu));
  LoopStage t;
  t.name = "mean";
  t.axes = {{"p", planes}, {"l", w, true}};
  t.out = iy, t.outAt = aff(0, {{P, 1}});
  t.reduce = Reduce::kSum;
  t.value.load(part, aff(0, {{P, w}, {L, 1}}));
  t.epilogue.op(EwOp::kDiv, t.epilogue.acc(), t.epilogue.constant(static_cast<float>(in)));
  k.stages.push_back(t);
  p.schedule.stages.push_back(rowSchedule(t, P, -1, 1, cpu));
  return p;
}

}  // namespace

std::optional<KernelPlan> poolPlan(runtime::OpKind kind, const runtime::PoolAttrs& attrs, const Shape& x,
                                   const CpuShape& cpu, support::DType type) {
  if (x.size() != 3 && x.size() != 4) return std::nullopt;
  if (kind == runtime::OpKind::kGlobalAveragePool && type == support::DType::kFloat32)
    return globalAveragePool(x[0] * x[1], x.size() == 4 ? x[2] * x[3] : x[2], cpu);
  if (type != support::DType::kFloat32 &&
      (kind != runtime::OpKind::kMaxPool || (type != support::DType::kInt8 && type != support::DType::kUint8)))
    return std::nullopt;
  const bool twoD = x.size() == 4;
  runtime::PoolAttrs a = attrs;
  if (kind == runtime::OpKind::kGlobalAveragePool) {
    a = runtime::PoolAttrs{};
    a.kernelShape.assign(x.begin() + 2, x.end());
  }
  runtime::PoolAxis ax[2];  // y, x; y stays size 1 for 1-D
  const size_t sp = x.size() - 2;
  for (size_t i = 0; i < sp; ++i)
    if (!runtime::poolAxis(a, x[2 + i], i, sp, ax[2 - sp + i]).empty()) return std::nullopt;
  const runtime::PoolAxis &py = ax[0], &px = ax[1];
  const bool isMax = kind == runtime::OpKind::kMaxPool;
  if (!isMax && a.countIncludePad && (py.d > 1 || px.d > 1)) return std::nullopt;
  const int64_t planes = x[0] * x[1], in = (twoD ? x[2] : 1) * x.back(), plane = py.out * px.out;
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = isMax ? "maxpool" : "avgpool";
  const int ix = k.addBuffer("x", planes * in, Role::kInput, type), iy = k.addBuffer("y", planes * plane, Role::kOutput, type);
  const int cnt = isMax ? -1 : k.addBuffer("count", plane, Role::kTemp);
  enum { P, OH, OW, KH, KW };
  const Affine y0 = aff(-py.pb, {{OH, py.s}, {KH, py.d}}), x0 = aff(-px.pb, {{OW, px.s}, {KW, px.d}});
  if (!isMax) {  // the divisor of each window: the taps inside the input, or inside the padded input
    LoopStage c;
    c.name = "count";
    c.axes = {{"oh", py.out}, {"ow", px.out}, {"kh", py.k, true}, {"kw", px.k, true}};
    const Affine cy = aff(-py.pb, {{0, py.s}, {2, py.d}}), cx = aff(-px.pb, {{1, px.s}, {3, px.d}});
    c.out = cnt, c.outAt = aff(0, {{0, px.out}, {1, 1}});
    c.reduce = Reduce::kSum;
    if (a.countIncludePad) c.value.inBounds({{cy, -py.pb, py.in + py.pe}, {cx, -px.pb, px.in + px.pe}});
    else c.value.inBounds({inside(cy, py.in), inside(cx, px.in)});
    k.stages.push_back(c);
    p.schedule.stages.push_back(StageSchedule::identity(c));
  }
  LoopStage s;
  s.name = k.name;
  s.axes = {{"p", planes}, {"oh", py.out}, {"ow", px.out}, {"kh", py.k, true}, {"kw", px.k, true}};
  s.out = iy, s.outAt = aff(0, {{P, plane}, {OH, px.out}, {OW, 1}});
  // The type's lowest value: what padding reads as, and what a window wholly in the padding gives.
  const float lowest = type == support::DType::kInt8    ? -128.0f
                       : type == support::DType::kUint8 ? 0.0f
                                                        : std::numeric_limits<float>::lowest();
  s.reduce = isMax ? Reduce::kMax : Reduce::kSum;
  s.init = isMax ? lowest : 0.0f;
  s.value.load(ix, aff(-py.pb * px.in - px.pb, {{P, in}, {OH, py.s * px.in}, {KH, py.d * px.in}, {OW, px.s}, {KW, px.d}}),
               {inside(y0, py.in), inside(x0, px.in)}, isMax ? lowest : 0.0f);
  if (!isMax) s.epilogue.op(EwOp::kDiv, s.epilogue.acc(), s.epilogue.load(cnt, aff(0, {{OH, px.out}, {OW, 1}})));
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, OW, OH, 2, cpu, byteCopy(k, s)));
  return p;
}

}  // namespace accelc::compiler::host
