// compiler/host/plan_util.cc — the pieces the loop kernels' builders share
// (their contracts in plan_util.h).
#include "compiler/host/plan_util.h"

#include <algorithm>
#include <iterator>

namespace accelc::compiler::host {

using Role = LoopBuffer::Role;

namespace {

/// Rows a split of `extent` into tiles of `t` computes: a tile wider than the extent shrinks to it.
int64_t paddedRows(int64_t extent, int64_t t) { return extent <= t ? extent : (extent + t - 1) / t * t; }
/// Columns the vector tiles of `t` columns compute, masked lanes included.
int64_t paddedColumns(int64_t extent, int64_t t, int64_t w) {
  return extent <= t ? (extent + w - 1) / w * w : (extent + t - 1) / t * t;
}

/// The register tile of a product: mr rows by nv vectors. Each candidate fits
/// the register file (mr·nv accumulators, nv loads, a broadcast); the one
/// computing the least padded work wins, weighted by how well it kept the FMA
/// units busy in bench/host_kernels_bench (fewer loads per fma is better).
std::pair<int, int> productTile(int64_t m, int64_t n, const CpuShape& cpu, bool pairs) {
  struct Tile {
    int mr, nv;
    double weight;
  };
  static const Tile wide[] = {{8, 3, 1.0},  {7, 3, 1.0}, {12, 2, 1.1}, {6, 2, 1.25},
                              {4, 4, 1.15}, {8, 2, 1.2}, {4, 2, 1.4}};
  static const Tile narrow[] = {{6, 2, 1.0}, {4, 3, 1.05}, {4, 2, 1.2}, {2, 4, 1.3}};
  // Dot4 as two vpmaddwd holds each operand twice (its even and odd bytes) and a product besides.
  static const Tile pairsWide[] = {{6, 2, 1.0}, {4, 3, 1.05}, {4, 2, 1.2}, {2, 4, 1.3}};
  static const Tile pairsNarrow[] = {{4, 2, 1.0}, {3, 2, 1.1}, {2, 3, 1.1}, {2, 2, 1.3}};
  const bool big = cpu.registers >= 32;
  const Tile* first = pairs ? (big ? std::begin(pairsWide) : std::begin(pairsNarrow)) : big ? std::begin(wide) : std::begin(narrow);
  const Tile* last = pairs ? (big ? std::end(pairsWide) : std::end(pairsNarrow)) : big ? std::end(wide) : std::end(narrow);
  double best = 0;
  std::pair<int, int> pick{first->mr, first->nv};
  for (const Tile* t = first; t != last; ++t) {
    const double work = static_cast<double>(paddedRows(m, t->mr)) *
                        static_cast<double>(paddedColumns(n, int64_t{t->nv} * cpu.vectorWidth, cpu.vectorWidth)) * t->weight;
    if (t == first || work < best) best = work, pick = {t->mr, t->nv};
  }
  return pick;
}

}  // namespace

Affine aff(int64_t c, std::initializer_list<std::pair<int, int64_t>> terms) {
  Affine a;
  a.c = c;
  for (const auto& [axis, k] : terms) {
    if (a.coef.size() <= static_cast<size_t>(axis)) a.coef.resize(static_cast<size_t>(axis) + 1, 0);
    a.coef[static_cast<size_t>(axis)] += k;
  }
  return a;
}

int64_t elements(const runtime::Shape& s) { return support::shapeElements(s); }

StageSchedule productSchedule(const LoopStage& s, int m, int n, int k, const CpuShape& cpu) {
  StageSchedule sc = StageSchedule::identity(s);
  const LoopNode& root = s.value.nodes.back();
  const bool pairs = !cpu.vnni && cpu.pmaddwd && root.kind == LoopNode::Kind::kOp && root.op == EwOp::kDot4;
  const auto [mr, nv] = productTile(s.axes[static_cast<size_t>(m)].extent, s.axes[static_cast<size_t>(n)].extent, cpu, pairs);
  const int w = cpu.vectorWidth;
  const int nIn = sc.split(n, nv * w);
  const int nVec = sc.split(nIn, w);
  const int mIn = sc.split(m, mr);
  sc.loops[static_cast<size_t>(nIn)].unroll = sc.loops[static_cast<size_t>(mIn)].unroll = true;
  sc.vector = nVec, sc.vectorWidth = w;
  // n blocks outermost keep a panel of B in cache; with fewer n blocks than
  // m blocks (a short row), the m blocks go outermost so that threads share them.
  const int64_t nBlocks = sc.loops[static_cast<size_t>(n)].iterations(), mBlocks = sc.loops[static_cast<size_t>(m)].iterations();
  sc.order = nBlocks < 4 && mBlocks > nBlocks ? std::vector<int>{m, n, k, mIn, nIn, nVec} : std::vector<int>{n, m, k, mIn, nIn, nVec};
  for (size_t id = 0; id < s.axes.size(); ++id)  // any other (batch) axes go outermost
    if (static_cast<int>(id) != m && static_cast<int>(id) != n && static_cast<int>(id) != k)
      sc.order.insert(sc.order.begin(), static_cast<int>(id));
  sc.parallel = true;
  return sc;
}

int64_t panelWidth(int64_t m, int64_t n, const CpuShape& cpu) {
  const int w = cpu.vectorWidth;
  if (w < 8) return 0;  // measured on x86 only: NEON's and PTX's vectors of 4 keep the forms without panels
  const int most = m <= 2 ? std::min(6, cpu.registers / 2) : productTile(m, n, cpu, false).second;
  for (int nv = most; nv >= 1; --nv)
    if (n % (int64_t{nv} * w) == 0) return int64_t{nv} * w;
  return 0;
}

namespace {

/// Prefetches of the panels' load `n` under `sc` (loops PB, M, K, and kIn where the depth goes in slices of
/// `kc`): at each step of the innermost reduction loop, the lines of a share of the block read next (the next
/// slice, else the next panel), so that the passes of `mBlocks` row blocks over the current one cover it;
/// several lines a step where a share is wider than a cache line.
void panelPrefetches(StageSchedule& sc, const LoopNode& n, int64_t mBlocks, int64_t depth, int kIn, int64_t kc) {
  enum { M, PB, J, K };
  constexpr int64_t kLine = 16;  // elements in a cache line of 64 bytes (panels hold floats or int32 words)
  const bool sliced = kIn >= 0;
  const int64_t panel = n.at.coefOf(PB), block = sliced ? n.at.coefOf(K) * kc : panel, steps = sliced ? kc : depth;
  const int64_t step = (block + mBlocks * steps - 1) / (mBlocks * steps);
  for (int64_t line = 0; line < step; line += kLine) {
    Prefetch f{n.buffer, n.at.c + block + line, std::vector<int64_t>(sc.loops.size(), 0)};
    f.coef[PB] = panel, f.coef[M] = steps * step;
    if (sliced)
      f.coef[K] = block, f.coef[static_cast<size_t>(kIn)] = step;
    else
      f.coef[K] = step;
    sc.prefetch.push_back(std::move(f));
  }
}

}  // namespace

StageSchedule panelSchedule(const LoopStage& s, const CpuShape& cpu) {
  enum { M, PB, J, K };
  StageSchedule sc = StageSchedule::identity(s);
  const int64_t m = s.axes[M].extent, panels = s.axes[PB].extent, depth = s.axes[K].extent;
  const int mr = productTile(m, panels * s.axes[J].extent, cpu, false).first;
  const int jVec = sc.split(J, cpu.vectorWidth);
  const int mIn = sc.split(M, mr);
  sc.loops[J].unroll = sc.loops[static_cast<size_t>(mIn)].unroll = true;
  sc.vector = jVec, sc.vectorWidth = cpu.vectorWidth;
  sc.parallel = true;
  const int64_t mBlocks = sc.loops[M].iterations();
  if (panels < 4 && mBlocks > panels) {
    sc.order = {M, PB, K, mIn, J, jVec};
    return sc;
  }
  // Every row block walks one panel from end to end, so the first block would stall on memory and the others
  // read it from L2 (a 3x3 convolution of ResNet's layer4 has 16 panels of 590 KB). Over several row blocks,
  // the depth goes in slices of about 32 KB of panel, even in size (the row blocks, which must not overlap as
  // the slices fold in the output, reuse a slice from L1), and every pass over a slice (else a panel)
  // prefetches a share of the next one, so that memory streams it while the FMA units work. Measured in
  // bench/host_model_bench: ResNet-34's layer4 convolutions from 2.9 to 1.8 ms each.
  constexpr int64_t kSliceFloats = 8192;
  const LoopNode& root = s.value.nodes.back();
  const bool floats = root.kind == LoopNode::Kind::kOp && root.op == EwOp::kMul;
  const int64_t most = std::max<int64_t>(16, kSliceFloats / s.axes[J].extent), slices = (depth + most - 1) / most;
  const bool sliced = floats && mBlocks > 1 && m % mr == 0 && slices > 1;
  const int64_t kc = (depth + slices - 1) / slices;
  const int kIn = sliced ? sc.split(K, kc) : -1;
  sc.order = sliced ? std::vector<int>{PB, K, M, kIn, mIn, J, jVec} : std::vector<int>{PB, M, K, mIn, J, jVec};
  for (const LoopNode& n : s.value.nodes)
    if (n.kind == LoopNode::Kind::kLoad && n.at.coefOf(PB) > 0) panelPrefetches(sc, n, mBlocks, depth, kIn, kc);
  return sc;
}

void foldWords(StageSchedule& sc, const CpuShape& cpu) {
  sc.vnni = cpu.vnni && sc.vector >= 0 && sc.vectorWidth >= 8;  // a narrower row sums its words without vpdpbusd
  sc.pmaddwd = !sc.vnni && cpu.pmaddwd && sc.vector >= 0;
}

StageSchedule rowSchedule(const LoopStage& s, int v, int u, int64_t ur, const CpuShape& cpu, bool byteRows) {
  StageSchedule sc = StageSchedule::identity(s);
  const int64_t extent = s.axes[static_cast<size_t>(v)].extent;
  // The narrowest vector that holds a short row: masked lanes (and gathered ones) still cost. A row of bytes
  // takes the widest vector it fills, its last one shifted inwards: a masked store of bytes has no instruction.
  // (x86 only, where it was measured: NEON's and PTX's vectors of 4 keep one register's lanes.)
  int width = cpu.vectorWidth;
  if (byteRows && cpu.vectorWidth >= 8) {
    width = 4 * cpu.vectorWidth;
    while (width > cpu.vectorWidth && extent < width) width /= 2;
    if (width > cpu.vectorWidth) sc.registerLanes = cpu.vectorWidth;
  }
  while (width > 4 && extent <= width / 2) width /= 2;
  const int vIn = sc.split(v, width);
  sc.vector = vIn, sc.vectorWidth = width;
  int uIn = -1;
  if (u >= 0) {
    uIn = sc.split(u, ur);
    sc.loops[static_cast<size_t>(uIn)].unroll = true;
  }
  std::vector<int> spatial, reduce;
  for (int id : sc.order) {
    if (id == vIn || id == uIn) continue;
    (s.axes[static_cast<size_t>(sc.loops[static_cast<size_t>(id)].axis)].reduce ? reduce : spatial).push_back(id);
  }
  sc.order = spatial;
  sc.order.insert(sc.order.end(), reduce.begin(), reduce.end());
  if (uIn >= 0) sc.order.push_back(uIn);
  sc.order.push_back(vIn);
  sc.parallel = true;
  return sc;
}

bool byteCopy(const LoopKernel& k, const LoopStage& s) {
  auto bytes = [&](int b) {
    const support::DType t = k.buffers[static_cast<size_t>(b)].type;
    return t == support::DType::kInt8 || t == support::DType::kUint8;
  };
  if (s.reduce == Reduce::kSum || !s.epilogue.nodes.empty() || !bytes(s.out)) return false;
  // Loads of bytes, and at most a last Xor of a load with a constant of four equal bytes (each byte's bits
  // flipped alike, whatever the width they are computed at).
  const std::vector<LoopNode>& v = s.value.nodes;
  auto load = [&](const LoopNode& n) { return n.kind == LoopNode::Kind::kLoad && !n.word && bytes(n.buffer); };
  auto flip = [&](const LoopNode& n) {
    if (n.kind != LoopNode::Kind::kOp || n.op != EwOp::kXor || n.a < 0 || n.b < 0) return false;
    const LoopNode &x = v[static_cast<size_t>(n.a)], &c = v[static_cast<size_t>(n.b)];
    const auto bits = static_cast<uint32_t>(c.ivalue);
    return load(x) && c.kind == LoopNode::Kind::kOp && c.op == EwOp::kConst && c.integer &&
           bits == (bits & 0xff) * 0x01010101u;
  };
  for (size_t i = 0; i < v.size(); ++i) {
    const LoopNode& n = v[i];
    const bool flipped = i + 1 == v.size() && flip(n);
    const bool constant = i + 2 == v.size() && flip(v.back()) && static_cast<int>(i) == v.back().b;
    if (!load(n) && !flipped && !constant) return false;
  }
  return true;
}

Bound inside(Affine e, int64_t size) { return {std::move(e), 0, size}; }

LoopStage productStage(int a, Affine aAt, int b, Affine bAt, int y, int64_t m, int64_t n, int64_t kk) {
  LoopStage s;
  s.name = "product";
  s.axes = {{"m", m}, {"n", n}, {"k", kk, true}};
  s.out = y, s.outAt = aff(0, {{0, n}, {1, 1}});
  s.reduce = Reduce::kSum;
  s.value.op(EwOp::kMul, s.value.load(a, std::move(aAt)), s.value.load(b, std::move(bAt)));
  return s;
}

LoopStage transposeStage(int b, int bt, int64_t n, int64_t kk) {
  LoopStage s;
  s.name = "transpose";
  s.axes = {{"k", kk}, {"n", n}};
  s.out = bt, s.outAt = aff(0, {{0, n}, {1, 1}});
  s.value.load(b, aff(0, {{1, kk}, {0, 1}}));
  return s;
}

LoopStage paddedTransposeStage(int b, int bt, int64_t n, int64_t kk, int64_t np, int64_t kp) {
  LoopStage s;
  s.name = "transpose";
  s.axes = {{"k", kp}, {"n", np}};
  s.out = bt, s.outAt = aff(0, {{0, np}, {1, 1}});
  s.value.load(b, aff(0, {{1, kk}, {0, 1}}), {inside(aff(0, {{0, 1}}), kk), inside(aff(0, {{1, 1}}), n)});
  return s;
}

std::pair<int64_t, int64_t> paddedExtent(const runtime::ConvGeometry& g) {
  return {(g.oh - 1) * g.sh + (g.kh - 1) * g.dh + 1, (g.ow - 1) * g.sw + (g.kw - 1) * g.dw + 1};
}

namespace {

/// The form's epilogue in `e` over `acc`, each per-channel input read at `at`; nothing without one. `less`: a
/// per-channel buffer (read at `at`) to subtract from the sum, folded into the bias where the form has one
/// (ConvForm::perChannel's first input), so that the subtraction is once per channel, not per output.
void formEpilogue(const ConvForm& f, LoopExpr& e, int acc, const std::vector<int>& channel, const Affine& at,
                  int less = -1) {
  if (!f.epilogue) return;
  std::vector<int> loads;
  for (int c : channel) loads.push_back(e.load(c, at));
  if (less >= 0 && loads.empty()) acc = e.op(EwOp::kSub, acc, e.load(less, at));
  if (less >= 0 && !loads.empty()) loads[0] = e.op(EwOp::kSub, loads[0], e.load(less, at));
  f.epilogue(e, acc, loads);
}

/// x at channel `cc`, row `yy` - pt and column `col` - pl (of a padded image), `pad` outside x.
int loadPaddedAt(LoopExpr& e, const runtime::ConvGeometry& g, int x, int cc, int yy, const Affine& col, float pad) {
  Affine at = col;
  at.c += -g.pt * g.w - g.pl;
  at.coef.resize(std::max<size_t>({at.coef.size(), static_cast<size_t>(cc) + 1, static_cast<size_t>(yy) + 1}), 0);
  at.coef[static_cast<size_t>(cc)] += g.h * g.w, at.coef[static_cast<size_t>(yy)] += g.w;
  Affine ix = col;
  ix.c -= g.pl;
  return e.load(x, std::move(at), {inside(aff(-g.pt, {{yy, 1}}), g.h), inside(std::move(ix), g.w)}, pad);
}

/// x at channel `cc`, row `yy` - pt and column `xx` - pl (axes of a padded image), `pad` outside x.
int loadPadded(LoopExpr& e, const runtime::ConvGeometry& g, int x, int cc, int yy, int xx, float pad) {
  return loadPaddedAt(e, g, x, cc, yy, aff(0, {{xx, 1}}), pad);
}

/// x's channels in a padded image of hp rows, x at (pt, pl), `pad` around it; with `convert`, integers are
/// converted to float. Each row is split into `phases` planes of wq columns: plane r holds the padded
/// columns i·phases + r (axes c, y, r, i), so that a window stepping `phases` columns reads each plane
/// contiguously.
LoopStage paddedPlanesStage(const runtime::ConvGeometry& g, int x, int xf, int64_t hp, int64_t phases, int64_t wq,
                            float pad, bool convert) {
  LoopStage c;
  c.name = convert ? "to_float_padded" : "padded";
  enum { CC, YY, RR, II };
  c.axes = {{"c", g.c}, {"y", hp}, {"r", phases}, {"i", wq}};
  c.out = xf, c.outAt = aff(0, {{CC, hp * phases * wq}, {YY, phases * wq}, {RR, wq}, {II, 1}});
  const int v = loadPaddedAt(c.value, g, x, CC, YY, aff(0, {{II, phases}, {RR, 1}}), pad);
  if (convert) c.value.op(EwOp::kToFloat, v);
  return c;
}

}  // namespace

namespace {

/// What the word forms of an int8 depthwise convolution share (depthwiseWords, depthwisePairs): the kernel's
/// buffers (x, w, the per-channel parameters, y, then the form's image of x and the packed weights), w's kernel
/// rows packed into nq words of `per` taps, the batch over images, and the depthwise stage's loops over
/// (c, j, oh, ow) reducing over (kh, q) into y, whose product each form builds.
struct DepthwiseWordKernel {
  enum Axis { kC, kJ, kOH, kOW, kKH, kQ };
  KernelPlan p;
  int x = 0, w = 0, y = 0, image = 0, words = 0;
  std::vector<int> channel;
  int64_t mg = 0, plane = 0, nq = 0;

  DepthwiseWordKernel(const runtime::ConvGeometry& g, const ConvForm& f, int per, int64_t imageSize,
                      support::DType imageType, const char* imageName, const char* wordsName)
      : mg(g.m / g.group), plane(g.oh * g.ow), nq((g.kw + per - 1) / per) {
    LoopKernel& k = p.kernel;
    k.name = "depthwise";
    x = k.addBuffer("x", g.c * g.h * g.w, Role::kInput, f.data);
    w = k.addBuffer("w", g.m * g.kh * g.kw, Role::kInput, f.data);
    for (const auto& [name, type] : f.perChannel) channel.push_back(k.addBuffer(name, g.m, Role::kInput, type));
    y = k.addBuffer("y", g.m * plane, Role::kOutput, f.out);
    image = k.addBuffer(imageName, imageSize, Role::kTemp, imageType);
    words = k.addBuffer(wordsName, g.m * g.kh * nq, Role::kTemp, support::DType::kInt32);
  }
  void add(LoopStage s, const StageSchedule& sc) {
    p.kernel.stages.push_back(std::move(s)), p.schedule.stages.push_back(sc);
  }
  /// The stages that make byte buffer `to` (hp rows of `cols` bytes a channel) x padded with f.pad, the image's
  /// top left at (pt, pl): the padding filled once (a constant stage), then x's rows that the buffer reaches
  /// copied in, neither with bounds. Bounded loads of bytes took a third of the pairs' kernel (384 channels at
  /// 14x14: 0.027 ms of 0.087, copy and words together) and a tenth of the words' (144 at 56x56). With
  /// `flip`, every byte's top bit is flipped, the padding's too (x + 128 as an unsigned byte).
  void paddedBytes(const runtime::ConvGeometry& g, const ConvForm& f, int to, int64_t hp, int64_t cols,
                   const CpuShape& cpu, bool flip = false) {
    const int32_t bit = flip ? 0x80 : 0;
    LoopStage fill;
    fill.name = "padding";
    fill.axes = {{"i", g.c * hp * cols}};
    fill.out = to, fill.outAt = aff(0, {{0, 1}});
    fill.value.intConstant(static_cast<int32_t>(f.pad) ^ bit);
    fill.constant = true;
    const StageSchedule fs = rowSchedule(fill, 0, -1, 1, cpu, true);
    add(std::move(fill), fs);
    const int64_t hc = std::min(g.h, hp - g.pt), wc = std::min(g.w, cols - g.pl);
    if (hc < 1 || wc < 1) return;
    LoopStage c;
    c.name = "rows";
    enum { CC, YY, XX };
    c.axes = {{"c", g.c}, {"y", hc}, {"x", wc}};
    c.out = to, c.outAt = aff(g.pt * cols + g.pl, {{CC, hp * cols}, {YY, cols}, {XX, 1}});
    const int v = c.value.load(x, aff(0, {{CC, g.h * g.w}, {YY, g.w}, {XX, 1}}));
    if (flip) c.value.op(EwOp::kXor, v, c.value.intConstant(static_cast<int32_t>(0x80808080u)));
    const StageSchedule cs = rowSchedule(c, XX, -1, 1, cpu, byteCopy(p.kernel, c));
    add(std::move(c), cs);
  }
  /// The weights' pack stage (prepared once when they are constant).
  void packWeights(const runtime::ConvGeometry& g, const ConvForm& f, int per, const CpuShape& cpu) {
    LoopStage pw = packStage(WordPack{"pack_weights", w, words, g.m * g.kh, g.kw, nq, 1, 1, g.kw, true, per});
    pw.constant = f.constWeights;
    const StageSchedule sc = packSchedule(pw, cpu);
    add(std::move(pw), sc);
  }
  /// The depthwise stage's loops and output (and the batch over images, once every buffer is added).
  LoopStage stage(const runtime::ConvGeometry& g) {
    std::vector<int64_t> strides(p.kernel.buffers.size(), 0);
    strides[static_cast<size_t>(x)] = g.c * g.h * g.w, strides[static_cast<size_t>(y)] = g.m * plane;
    p.kernel.batch.push_back({g.n, strides});
    LoopStage s;
    s.name = "depthwise";
    s.axes = {{"c", g.c}, {"j", mg}, {"oh", g.oh}, {"ow", g.ow}, {"kh", g.kh, true}, {"q", nq, true}};
    s.out = y, s.outAt = aff(0, {{kC, mg * plane}, {kJ, plane}, {kOH, g.ow}, {kOW, 1}});
    s.reduce = Reduce::kSum;
    return s;
  }
  /// A load in `e` of the packed weights' word at the stage's point.
  int weightWord(LoopExpr& e, const runtime::ConvGeometry& g) const {
    return e.load(words, aff(0, {{kC, mg * g.kh * nq}, {kJ, g.kh * nq}, {kKH, nq}, {kQ, 1}}));
  }
  /// Finishes `s`: the form's epilogue on `acc` with the per-channel loads (and per-channel buffer `less`
  /// subtracted: formEpilogue), rows in vector lanes (`rows` of them unrolled) with the words folded, and adds it.
  KernelPlan finish(LoopStage s, int acc, const ConvForm& f, const CpuShape& cpu, int64_t rows = 4, int less = -1) {
    formEpilogue(f, s.epilogue, acc, channel, aff(0, {{kC, mg}, {kJ, 1}}), less);
    StageSchedule sc = rowSchedule(s, kOW, kOH, rows, cpu);
    foldWords(sc, cpu);
    add(std::move(s), sc);
    return std::move(p);
  }
};

/// The stages of an int8 depthwise convolution over 4-byte words (see
/// plan_util.h): x copied into a padded byte image with each byte's top bit
/// flipped, which is x + 128 unsigned (a copy of whole rows of bytes, the flip
/// one more operation per register of bytes), w's kernel rows packed into words
/// and their sums taken once, then Σ Dot4(the image's words, w's words) -
/// 128·Σw per output (taken from the bias, once per channel) with each kernel
/// row's taps read as ⌈KW/4⌉ words of the image. Flipping the words of each
/// tap instead took 0.19 ms of 144 channels at 56x56 on AMX's CPU, against
/// 0.18. Bytes of a word past KW meet zero weight bytes, and the image's
/// columns reach the last word's last byte, so no load needs bounds.
KernelPlan depthwiseWords(const runtime::ConvGeometry& g, const ConvForm& f, const CpuShape& cpu) {
  using K = DepthwiseWordKernel;
  const int64_t nq = (g.kw + 3) / 4, hp = paddedExtent(g).first, wq = (g.ow - 1) * g.sw + 4 * nq;
  // The bytes of the widest word load (a vector's lanes at most 4 bytes apart) past the image: a row's wide
  // loads then lie inside the buffer, the last row's too, so a row narrower than the vector reads its words
  // with plain loads (its lanes past the row are computed in vain).
  K d(g, f, 4, g.c * hp * wq + 4 * cpu.vectorWidth, support::DType::kUint8, "xb", "w4");
  const int comp = d.p.kernel.addBuffer("comp", g.m, Role::kTemp, support::DType::kInt32);
  d.paddedBytes(g, f, d.image, hp, wq, cpu, true);  // x + 128, the unsigned operand
  d.packWeights(g, f, 4, cpu);
  PlannedStage sums = wordSumStage(d.words, comp, g.m, g.kh * nq, g.kh * nq, 1, 0x80808080u, 1, cpu);
  sums.stage.constant = f.constWeights;
  d.add(std::move(sums.stage), sums.schedule);
  LoopStage s = d.stage(g);
  const int xw = s.value.loadWord(
      d.image, aff(0, {{K::kC, hp * wq}, {K::kOH, g.sh * wq}, {K::kKH, g.dh * wq}, {K::kOW, g.sw}, {K::kQ, 4}}));
  s.value.op(EwOp::kDot4, xw, d.weightWord(s.value, g));
  // Rows unrolled: 4 to 7, the fewest rows computed in vain, then the most (each image row loaded feeds up to
  // KH of them). Measured on AMX's CPU: 144 channels at 56x56 took 0.134 ms with 7, 0.145 with 4 or 8; 384
  // at 14x14 0.024-0.027 with 7, 0.028-0.032 with 4.
  int64_t rows = 4;
  auto computed = [&](int64_t r) { return (g.oh + r - 1) / r * r; };
  for (int64_t r = 5; r <= 7; ++r)
    if (computed(r) <= computed(rows)) rows = r;
  const int acc = s.epilogue.acc();
  return d.finish(std::move(s), acc, f, cpu, rows, comp);
}

/// The columns of depthwisePairs' image: to the last word's, which starts 2·(⌈KW/2⌉ - 1) taps into the last window.
int64_t pairColumns(const runtime::ConvGeometry& g) { return (g.ow - 1) * g.sw + 2 * ((g.kw + 1) / 2 - 1) * g.dw + 1; }

/// The stages of an int8 depthwise convolution on x86 without VNNI, over words of two signed 16-bit halves
/// (Dot2: one vpmaddwd and an add a word): x moved once into a padded image of words whose halves are the
/// taps at columns x and x + dw, w's kernel rows packed into words of taps 2q and 2q + 1 (0 past KW), then
/// Σ Dot2 per output, each kernel row's taps read as ⌈KW/2⌉ words of the image at columns ow·sw + 2q·dw: at
/// stride 1 a plain vector load. Both halves are signed, so no offset is taken back, where the words of four
/// bytes (depthwiseWords) take x + 128 against the signed weights, whose sums each output subtracts, and
/// vpmaddwd splits each word in two: 384 channels at 14x14 took 0.101 ms that way on AVX2.
KernelPlan depthwisePairs(const runtime::ConvGeometry& g, const ConvForm& f, const CpuShape& cpu) {
  using K = DepthwiseWordKernel;
  const int64_t hp = paddedExtent(g).first, wq = pairColumns(g);
  K d(g, f, 2, g.c * hp * wq, support::DType::kInt32, "x2", "w2");
  // The words come from a padded image of bytes, its columns to the last word's high half, which may lie past
  // the padding (its weight is 0).
  const int64_t wb = wq + g.dw;
  const int xb = d.p.kernel.addBuffer("xb", g.c * hp * wb, Role::kTemp, f.data);
  d.paddedBytes(g, f, xb, hp, wb, cpu);
  {
    LoopStage c;
    c.name = "pair_image";
    enum { CC, YY, XX };
    c.axes = {{"c", g.c}, {"y", hp}, {"x", wq}};
    c.out = d.image, c.outAt = aff(0, {{CC, hp * wq}, {YY, wq}, {XX, 1}});
    packPair(c.value, [&](int t) { return c.value.load(xb, aff(t * g.dw, {{CC, hp * wb}, {YY, wb}, {XX, 1}})); });
    const StageSchedule sc = rowSchedule(c, XX, -1, 1, cpu);
    d.add(std::move(c), sc);
  }
  d.packWeights(g, f, 2, cpu);
  LoopStage s = d.stage(g);
  const int xv = s.value.load(
      d.image, aff(0, {{K::kC, hp * wq}, {K::kOH, g.sh * wq}, {K::kKH, g.dh * wq}, {K::kOW, g.sw}, {K::kQ, 2 * g.dw}}));
  s.value.op(EwOp::kDot2, xv, d.weightWord(s.value, g));
  const int acc = s.epilogue.acc();
  // One row at a time: a 3x3 kernel's six pair words and the requantization's constants fill AVX2's registers,
  // and four rows in flight spilled them (384 channels at 14x14: 0.072 ms against 0.077).
  return d.finish(std::move(s), acc, f, cpu, 1);
}

}  // namespace

/// Depthwise: out[c·mg + j][oh][ow] = Σ_{kh,kw} x[c][iy][ix] · w[c·mg + j][kh][kw], then the form's epilogue.
KernelPlan depthwiseConv(const runtime::ConvGeometry& g, const ConvForm& f, const CpuShape& cpu) {
  // Pairs where their image (a word per tap, four times the bytes') stays in a core's cache and the taps of a
  // row are a plain load (stride 1). On AVX2 (bench/host_int_kernels_bench): 384 channels at 14x14 in 0.082 to
  // 0.088 ms against 0.101 in words; 192 at 28x28 (691 KiB of pairs) 0.204 against 0.161, 144 at 56x56 0.55
  // against 0.42, and 576 at 14x14 by 5x5 taps at stride 2 0.13 to 0.16 against 0.10 to 0.11.
  constexpr int64_t kPairImageBytes = 512 * 1024;
  if (f.vnni && f.data == support::DType::kInt8 && !cpu.vnni && cpu.pmaddwd && f.epilogue && g.sw == 1 &&
      g.c * paddedExtent(g).first * pairColumns(g) * 4 <= kPairImageBytes)
    return depthwisePairs(g, f, cpu);
  if (f.vnni && f.data == support::DType::kInt8 && g.dw == 1 && f.epilogue) return depthwiseWords(g, f, cpu);
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "depthwise";
  const int64_t mg = g.m / g.group, plane = g.oh * g.ow;
  const int64_t xn = g.c * g.h * g.w, wn = g.m * g.kh * g.kw;
  const int x = k.addBuffer("x", xn, Role::kInput, f.data);
  int w = k.addBuffer("w", wn, Role::kInput, f.data);
  std::vector<int> channel;
  for (const auto& [name, type] : f.perChannel) channel.push_back(k.addBuffer(name, g.m, Role::kInput, type));
  const int y = k.addBuffer("y", g.m * plane, Role::kOutput, f.out);
  // Integers are converted to float once, then summed exactly in float (ConvForm). The input is copied (or
  // converted) into a padded image (pad_value around it, as far as the windows reach), so that the sum's
  // loads need no bounds: every tap is a plain vector load, where a bounded one costs a mask per tap. At a
  // column stride s of 2 to 4 the image's rows are split into s planes (column i·s + r in plane r), so that
  // tap kw = q·s + r of output column ow reads plane r at ow + q, a contiguous load, where a strided one is
  // two or more loads and shuffles. The kernel's rows are then padded with zero taps to a multiple of s:
  // 12 taps for 3x3 instead of 9 strided ones (so only where KW >= s). A zero tap's load of the image is
  // bounded to read 0: the image there is a neighbouring window's, and an infinity or NaN of x would
  // otherwise reach this output through 0·x.
  const bool floatSum = f.data != support::DType::kFloat32;
  const int64_t phases = g.sw >= 2 && g.sw <= 4 && g.dw == 1 && g.kw >= g.sw ? g.sw : 1;
  const int64_t hp = paddedExtent(g).first, kq = (g.kw + phases - 1) / phases, kwp = kq * phases;
  const int64_t wq = phases == 1 ? paddedExtent(g).second : g.ow + kq - 1;
  const int xf = k.addBuffer("xf", g.c * hp * phases * wq, Role::kTemp);
  {
    LoopStage c = paddedPlanesStage(g, x, xf, hp, phases, wq, f.pad, floatSum);
    k.stages.push_back(c);
    p.schedule.stages.push_back(rowSchedule(c, 3, -1, 1, cpu));
  }
  if (floatSum || kwp != g.kw) {
    const int wf = k.addBuffer("wf", g.m * g.kh * kwp, Role::kTemp);
    LoopStage cw;
    cw.name = "weights_padded";
    cw.axes = {{"r", g.m * g.kh}, {"t", kwp}};
    cw.out = wf, cw.outAt = aff(0, {{0, kwp}, {1, 1}});
    std::vector<Bound> past;
    if (kwp != g.kw) past.push_back(inside(aff(0, {{1, 1}}), g.kw));
    const int v = cw.value.load(w, aff(0, {{0, g.kw}, {1, 1}}), std::move(past), 0.0f);
    if (floatSum) cw.value.op(EwOp::kToFloat, v);
    cw.constant = f.constWeights;
    k.stages.push_back(cw);
    p.schedule.stages.push_back(rowSchedule(cw, 1, -1, 1, cpu));
    w = wf;
  }
  std::vector<int64_t> strides = {xn, 0};
  strides.insert(strides.end(), channel.size(), 0);
  strides.push_back(g.m * plane);
  strides.resize(k.buffers.size(), 0);
  k.batch.push_back({g.n, strides});
  LoopStage s;
  s.name = "depthwise";
  enum { C, J, OH, OW, KH, KQ, KR };
  s.axes = {{"c", g.c},         {"j", mg},        {"oh", g.oh},        {"ow", g.ow},
            {"kh", g.kh, true}, {"kq", kq, true}, {"kr", phases, true}};
  s.out = y, s.outAt = aff(0, {{C, mg * plane}, {J, plane}, {OH, g.ow}, {OW, 1}});
  s.reduce = Reduce::kSum;
  const int64_t row = phases * wq;
  std::vector<Bound> taps;  // the zero taps read 0
  if (kwp != g.kw) taps.push_back(inside(aff(0, {{KQ, phases}, {KR, 1}}), g.kw));
  const int xv = s.value.load(
      xf,
      phases == 1 ? aff(0, {{C, hp * row}, {OH, g.sh * row}, {KH, g.dh * row}, {OW, g.sw}, {KQ, g.dw}})
                  : aff(0, {{C, hp * row}, {OH, g.sh * row}, {KH, g.dh * row}, {KR, wq}, {OW, 1}, {KQ, 1}}),
      std::move(taps), 0.0f);
  const int wv = s.value.load(w, aff(0, {{C, mg * g.kh * kwp}, {J, g.kh * kwp}, {KH, kwp}, {KQ, phases}, {KR, 1}}));
  s.value.op(EwOp::kMul, xv, wv);
  if (f.epilogue) {
    const int acc = floatSum ? s.epilogue.op(EwOp::kToInt, s.epilogue.acc()) : s.epilogue.acc();
    formEpilogue(f, s.epilogue, acc, channel, aff(0, {{C, mg}, {J, 1}}));
  }
  k.stages.push_back(s);
  p.schedule.stages.push_back(rowSchedule(s, OW, OH, 4, cpu));
  return p;
}

LoopStage im2colStage(const runtime::ConvGeometry& g, int64_t channels, int x, int col, float pad) {
  const int64_t plane = g.oh * g.ow;
  LoopStage s;
  s.name = "im2col";
  enum { CI, KH, KW, OH, OW };
  s.axes = {{"ci", channels}, {"kh", g.kh}, {"kw", g.kw}, {"oh", g.oh}, {"ow", g.ow}};
  s.out = col, s.outAt = aff(0, {{CI, g.kh * g.kw * plane}, {KH, g.kw * plane}, {KW, plane}, {OH, g.ow}, {OW, 1}});
  const Affine iy = aff(-g.pt, {{OH, g.sh}, {KH, g.dh}}), ix = aff(-g.pl, {{OW, g.sw}, {KW, g.dw}});
  // Where every window lies inside x (no padding reached): no bounds, so no lane masks to compute.
  std::vector<Bound> bounds;
  const auto [hp, wp] = paddedExtent(g);
  if (g.pt || g.pl || hp > g.h || wp > g.w) bounds = {inside(iy, g.h), inside(ix, g.w)};
  s.value.load(x,
               aff(-g.pt * g.w - g.pl, {{CI, g.h * g.w}, {OH, g.sh * g.w}, {KH, g.dh * g.w}, {OW, g.sw}, {KW, g.dw}}),
               bounds, pad);
  return s;
}

std::vector<LoopStage> paddedIm2colStages(LoopKernel& k, const runtime::ConvGeometry& g, int x, int col, float pad) {
  // At a column stride s of 2 to 4 the padded copy's rows are split into s planes (padded column i·s + r in
  // plane r), so that tap kw = q·s + r of output column ow reads plane r at ow + q: each output row is one
  // contiguous run, where a strided one is two or more loads and shuffles per vector (ResNet's first layer,
  // 7x7 at stride 2). One windows stage per plane, as the taps of a plane are every s-th.
  const int64_t phases = g.sw >= 2 && g.sw <= 4 && g.dw == 1 && g.kw >= g.sw ? g.sw : 1;
  const auto [hp, wp] = paddedExtent(g);
  const int64_t wq = phases == 1 ? wp : g.ow + (g.kw - 1) / phases, row = phases * wq, plane = g.oh * g.ow;
  const int xp = k.addBuffer("xp", g.c * hp * row, Role::kTemp, k.buffers[static_cast<size_t>(x)].type);
  std::vector<LoopStage> stages = {paddedPlanesStage(g, x, xp, hp, phases, wq, pad, false)};
  for (int64_t r = 0; r < phases; ++r) {
    LoopStage s;
    s.name = "im2col";
    enum { CI, KH, Q, OH, OW };
    s.axes = {{"ci", g.c}, {"kh", g.kh}, {"q", (g.kw - r + phases - 1) / phases}, {"oh", g.oh}, {"ow", g.ow}};
    s.out = col;
    s.outAt = aff(r * plane, {{CI, g.kh * g.kw * plane}, {KH, g.kw * plane}, {Q, phases * plane}, {OH, g.ow}, {OW, 1}});
    s.value.load(xp, aff(r * wq, {{CI, hp * row},
                                  {OH, g.sh * row},
                                  {KH, g.dh * row},
                                  {Q, phases == 1 ? g.dw : 1},
                                  {OW, phases == 1 ? g.sw : 1}}));
    stages.push_back(std::move(s));
  }
  return stages;
}

namespace {

/// The words of the windows straight from x, k ordered (kh, kw, input channel), in rows of `row` words:
/// col4[((kh·KW + kw)·CQ + cq)·row + p] packs x[per·cq + t] at the window's tap, `pad` outside; `per` 4:
/// vpdpbusd's signed operand (packWord), 2: a pair of signed halves (packPair).
LoopStage windowWordsStage(const runtime::ConvGeometry& g, int64_t channels, int x, int col4, int64_t row, float pad,
                           int per) {
  const int64_t cq = channels / per;
  LoopStage s;
  s.name = "pack_windows";
  enum { KH, KW, CQ, OH, OW };
  s.axes = {{"kh", g.kh}, {"kw", g.kw}, {"cq", cq}, {"oh", g.oh}, {"ow", g.ow}};
  s.out = col4, s.outAt = aff(0, {{KH, g.kw * cq * row}, {KW, cq * row}, {CQ, row}, {OH, g.ow}, {OW, 1}});
  const Affine iy = aff(-g.pt, {{OH, g.sh}, {KH, g.dh}}), ix = aff(-g.pl, {{OW, g.sw}, {KW, g.dw}});
  auto load = [&](int t) {
    return s.value.load(x,
                        aff((t * g.h - g.pt) * g.w - g.pl,
                            {{CQ, per * g.h * g.w}, {OH, g.sh * g.w}, {KH, g.dh * g.w}, {OW, g.sw}, {KW, g.dw}}),
                        {inside(iy, g.h), inside(ix, g.w)}, pad);
  };
  packValues(s.value, per, load, true);
  return s;
}

/// The weights' words in windowWordsStage's k order, as vpdpbusd's unsigned operand (`per` 4; with
/// `signedBytes` the weights' own bytes) or pairs of signed halves (2): w4[m·row + (kh·KW + kw)·CQ + cq]
/// packs w[m][per·cq + t][kh][kw].
LoopStage windowWeightWordsStage(const runtime::ConvGeometry& g, int64_t channels, int64_t mg, int w, int w4,
                                 int64_t row, int per, bool signedBytes = false) {
  const int64_t cq = channels / per, taps = g.kh * g.kw, kk = channels * taps;
  LoopStage s;
  s.name = "pack_weights";
  enum { M, KH, KW, CQ };
  s.axes = {{"m", mg}, {"kh", g.kh}, {"kw", g.kw}, {"cq", cq}};
  s.out = w4, s.outAt = aff(0, {{M, row}, {KH, g.kw * cq}, {KW, cq}, {CQ, 1}});
  auto load = [&](int t) { return s.value.load(w, aff(t * taps, {{M, kk}, {CQ, per * taps}, {KH, g.kw}, {KW, 1}})); };
  packValues(s.value, per, load, signedBytes);
  return s;
}

/// The buffers of a convolution's product over words.
struct WordBuffers {
  int x, w, col, col4, w4;  ///< col: the im2col copy (-1 when the words come from x's windows)
  int64_t colRow, wRow;     ///< the words in a row of col4 (at least the plane) and of w4 (at least kq)
};

/// The stages packing the product's words: the columns' (from x's windows, reading `pad` outside x, or
/// from col) and the weights' (`constWeights`: computed on the first run only, the same at every batch point).
void packProductWords(const runtime::ConvGeometry& g, const WordBuffers& b, bool windows, float pad, bool constWeights,
                      int per, const CpuShape& cpu, KernelPlan& p) {
  const int64_t cg = g.c / g.group, mg = g.m / g.group, plane = g.oh * g.ow, kk = cg * g.kh * g.kw;
  const int64_t kq = (kk + per - 1) / per;
  auto add = [&](LoopStage s, StageSchedule sc) {
    p.kernel.stages.push_back(std::move(s)), p.schedule.stages.push_back(std::move(sc));
  };
  if (windows) {
    LoopStage cs = windowWordsStage(g, cg, b.x, b.col4, b.colRow, pad, per);
    add(cs, rowSchedule(cs, 4, -1, 1, cpu));
    LoopStage ws = windowWeightWordsStage(g, cg, mg, b.w, b.w4, b.wRow, per);
    ws.constant = constWeights;
    add(ws, rowSchedule(ws, 3, -1, 1, cpu));
  } else {
    for (const WordPack& wp : {WordPack{"pack_columns", b.col, b.col4, plane, 1, 1, plane, b.colRow, kk, true, per},
                               WordPack{"pack_weights", b.w, b.w4, mg, kk, b.wRow, 1, 1, kk, false, per}}) {
      LoopStage ps = packStage(wp);
      ps.constant = wp.src == b.w && constWeights;
      add(ps, packSchedule(ps, cpu));
    }
  }
  if (b.wRow > kq) {  // a product on tiles: the weights' rows past k read 0, whatever col4's rows there hold
    LoopStage zs = zeroWordsStage(b.w4, mg, b.wRow, kq, b.wRow);
    zs.constant = constWeights;
    add(zs, rowSchedule(zs, 1, -1, 1, cpu));
  }
}

}  // namespace

int packWord(LoopExpr& e, const std::function<int(int)>& load, bool signedBytes) {
  int word = -1;
  for (int t = 0; t < 4; ++t) {  // v's low byte at byte t (the top one's higher bits shift out of int32)
    int v = load(t);
    if (t < 3) v = e.op(EwOp::kAnd, v, e.intConstant(0xFF));  // a zero extension where v is a byte widened
    if (t) v = e.op(EwOp::kMul, v, e.intConstant(static_cast<int32_t>(1u << (8 * t))));
    word = word < 0 ? v : e.op(EwOp::kAdd, word, v);
  }
  return signedBytes ? word : e.op(EwOp::kXor, word, e.intConstant(static_cast<int32_t>(0x80808080u)));
}

int packValues(LoopExpr& e, int per, const std::function<int(int)>& load, bool signedBytes) {
  return per == 2 ? packPair(e, load) : packWord(e, load, signedBytes);
}

int packPair(LoopExpr& e, const std::function<int(int)>& load) {
  const int low = e.op(EwOp::kAnd, load(0), e.intConstant(0xFFFF));
  return e.op(EwOp::kAdd, low, e.op(EwOp::kMul, load(1), e.intConstant(1 << 16)));  // the high half wraps
}

LoopStage packStage(const WordPack& w) {
  LoopStage s;
  s.name = w.name;
  enum { R, Q };
  s.axes = {{"r", w.rows}, {"q", (w.kk + w.per - 1) / w.per}};
  s.out = w.dst, s.outAt = aff(0, {{R, w.dstRow}, {Q, w.dstK}});
  if (w.per == 4 && w.srcK == 1 && w.kk % 4 == 0) {
    // Whole words of consecutive bytes: each read as one word, its bytes' top bits flipped for the unsigned
    // operand (v + 128 is v with its top bit flipped), where four loads of a byte took a stride-4 gather each.
    const int word = s.value.loadWord(w.src, aff(0, {{R, w.srcRow}, {Q, 4}}));
    if (!w.signedBytes) s.value.op(EwOp::kXor, word, s.value.intConstant(static_cast<int32_t>(0x80808080u)));
    return s;
  }
  const float pad = w.signedBytes || w.per == 2 ? 0.0f : -128.0f;
  auto load = [&](int t) {
    return s.value.load(w.src, aff(t * w.srcK, {{R, w.srcRow}, {Q, w.per * w.srcK}}),
                        {Bound{aff(t, {{Q, w.per}}), 0, w.kk}}, pad);
  };
  packValues(s.value, w.per, load, w.signedBytes);
  return s;
}

StageSchedule packSchedule(const LoopStage& s, const CpuShape& cpu) {
  return rowSchedule(s, s.outAt.coefOf(1) == 1 ? 1 : 0, -1, 1, cpu);
}

PlannedStage wordSumStage(int words, int out, int64_t rows, int64_t kq, int64_t rowStride, int64_t qStride,
                          uint32_t bytes, int32_t factor, const CpuShape& cpu) {
  LoopStage s;
  s.name = "offset_sums";
  s.axes = {{"r", rows}, {"q", kq, true}};
  s.out = out, s.outAt = aff(0, {{0, 1}});
  s.reduce = Reduce::kSum;
  s.value.op(EwOp::kDot4, s.value.intConstant(static_cast<int32_t>(bytes)), s.value.load(words, aff(0, {{0, rowStride}, {1, qStride}})));
  if (factor != 1) s.epilogue.op(EwOp::kMul, s.epilogue.acc(), s.epilogue.intConstant(factor));
  StageSchedule sc = rowSchedule(s, 0, -1, 1, cpu);
  foldWords(sc, cpu);
  return {s, sc};
}

int64_t tileExtent(int64_t n) { return (n + TileProduct::kSide - 1) / TileProduct::kSide * TileProduct::kSide; }

int64_t tileBlockExtent(int64_t n) {
  constexpr int64_t side = TileProduct::kSide;
  return n <= side ? side : (n + 2 * side - 1) / (2 * side) * (2 * side);
}

StageSchedule tileSchedule(const LoopStage& s, int rows) {
  constexpr int64_t side = TileProduct::kSide;
  StageSchedule sc = StageSchedule::identity(s);
  sc.split(rows, s.axes[static_cast<size_t>(rows)].extent % (2 * side) == 0 ? 2 * side : side);
  sc.parallel = sc.amx = true;
  return sc;
}

PlannedStage tileProductStage(int a, int b, int acc, int64_t rows, int64_t cols, int64_t depth) {
  LoopStage s = productStage(a, aff(0, {{0, depth}, {2, 1}}), b, aff(0, {{2, cols}, {1, 1}}), acc, rows, cols, depth);
  s.value.nodes.back().op = EwOp::kDot4;
  StageSchedule sc = tileSchedule(s, 0);
  return {s, sc};
}

LoopStage unpadStage(const std::string& name, int src, int dst, const std::vector<LoopAxis>& axes,
                     const std::vector<int64_t>& srcStrides) {
  LoopStage s;
  s.name = name;
  s.axes = axes;
  s.out = dst;
  Affine from;
  int64_t packed = 1;
  s.outAt.coef.assign(axes.size(), 0), from.coef.assign(axes.size(), 0);
  for (size_t a = axes.size(); a-- > 0;) {
    s.outAt.coef[a] = packed, from.coef[a] = srcStrides[a];
    packed *= axes[a].extent;
  }
  s.value.load(src, from);
  return s;
}

LoopStage zeroWordsStage(int buf, int64_t rows, int64_t row, int64_t from, int64_t to) {
  LoopStage s;
  s.name = "zero_padding";
  s.axes = {{"r", rows}, {"q", to - from}};
  s.out = buf, s.outAt = aff(from, {{0, row}, {1, 1}});
  s.value.intConstant(0);
  return s;
}

namespace {

/// A dense convolution with constant weights as a product whose rows are the output's pixels and whose
/// columns, in vector lanes, are its channels: x moved once into a padded image of pixels [hp][wp][c], the
/// windows copied into rows [p][(kh, kw, c)], the weights packed once into panels of `nb` output channels
/// with k in the same order, and the product [p][m] moved into y's planes, where an elementwise consumer
/// fuses. Float data, or int8 whose rows and panels are words: of two adjacent channels (Dot2, vpmaddwd)
/// without VNNI, of four with it (Dot4, vpdpbusd), the rows' bytes then x + 128 for vpdpbusd's unsigned
/// operand and 128·Σw taken from the bias once per channel. The other form puts pixels in the lanes: a small
/// image leaves lanes idle (49 pixels in 64) and its weights' rows are read far apart. `nb` (panelWidth)
/// divides m.
KernelPlan rowsProduct(const runtime::ConvGeometry& g, const ConvForm& f, int64_t nb, const CpuShape& cpu) {
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "conv";
  // Int8 data runs over words: two signed 16-bit halves of adjacent input channels (Dot2) without VNNI, four
  // bytes with it (Dot4).
  const bool integer = f.data != support::DType::kFloat32;
  const int per = !integer ? 1 : cpu.vnni ? 4 : 2;
  const int64_t plane = g.oh * g.ow, kk = g.c * g.kh * g.kw, kq = kk / per, cq = g.c / per;
  const std::pair<int64_t, int64_t> extent = paddedExtent(g);
  const int64_t hp = extent.first, wp = extent.second;
  const support::DType words = integer ? support::DType::kInt32 : f.data;
  const int x = k.addBuffer("x", g.c * g.h * g.w, Role::kInput, f.data);
  const int w = k.addBuffer("w", g.m * kk, Role::kInput, f.data);
  std::vector<int> channel;
  for (const auto& [name, type] : f.perChannel) channel.push_back(k.addBuffer(name, g.m, Role::kInput, type));
  const int y = k.addBuffer("y", g.m * plane, Role::kOutput, f.out);
  const int xt = k.addBuffer("xt", hp * wp * g.c, Role::kTemp, f.data);
  const bool direct =
      !integer && g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && hp == g.h && wp == g.w && g.pt == 0 && g.pl == 0;
  const int rows = direct ? xt : k.addBuffer("rows", plane * kq, Role::kTemp, words);
  const int panels = k.addBuffer("panels", g.m * kq, Role::kTemp, words);
  const int yt = k.addBuffer("yt", plane * g.m, Role::kTemp, f.out);
  const int comp = per == 4 ? k.addBuffer("comp", g.m, Role::kTemp, support::DType::kInt32) : -1;
  // A word of signed values (w's; x's too in pairs), else the value itself.
  auto value = [&](LoopExpr& e, const std::function<int(int)>& load) {
    return integer ? packValues(e, per, load, true) : load(0);
  };
  std::vector<int64_t> strides(k.buffers.size(), 0);
  strides[static_cast<size_t>(x)] = g.c * g.h * g.w, strides[static_cast<size_t>(y)] = g.m * plane;
  k.batch.push_back({g.n, strides});
  auto add = [&](LoopStage s, StageSchedule sc) {
    k.stages.push_back(std::move(s)), p.schedule.stages.push_back(std::move(sc));
  };
  {
    LoopStage s;
    s.name = "pixels";
    enum { YY, XX, CC };
    s.axes = {{"y", hp}, {"x", wp}, {"c", g.c}};
    s.out = xt, s.outAt = aff(0, {{YY, wp * g.c}, {XX, g.c}, {CC, 1}});
    loadPadded(s.value, g, x, CC, YY, XX, f.pad);
    add(s, rowSchedule(s, CC, -1, 1, cpu, byteCopy(k, s)));
  }
  if (!direct) {
    LoopStage s;
    s.name = "window_rows";
    enum { OH, OW, KH, KW, CQ };
    s.axes = {{"oh", g.oh}, {"ow", g.ow}, {"kh", g.kh}, {"kw", g.kw}, {"cq", cq}};
    s.out = rows, s.outAt = aff(0, {{OH, g.ow * kq}, {OW, kq}, {KH, g.kw * cq}, {KW, cq}, {CQ, 1}});
    auto at = [&](int t) {
      return aff(t, {{OH, g.sh * wp * g.c}, {KH, g.dh * wp * g.c}, {OW, g.sw * g.c}, {KW, g.dw * g.c}, {CQ, per}});
    };
    if (per == 4)  // four adjacent channels' bytes, each top bit flipped: x + 128, unsigned
      s.value.op(EwOp::kXor, s.value.loadWord(xt, at(0)), s.value.intConstant(static_cast<int32_t>(0x80808080u)));
    else
      value(s.value, [&](int t) { return s.value.load(xt, at(t)); });
    add(s, rowSchedule(s, CQ, -1, 1, cpu));
  }
  {
    LoopStage s;
    s.name = "pack_panels";
    enum { MB, KH, KW, CQ, J };
    s.axes = {{"panel", g.m / nb}, {"kh", g.kh}, {"kw", g.kw}, {"cq", cq}, {"j", nb}};
    s.out = panels, s.outAt = aff(0, {{MB, kq * nb}, {KH, g.kw * cq * nb}, {KW, cq * nb}, {CQ, nb}, {J, 1}});
    value(s.value, [&](int t) {
      const int64_t taps = g.kh * g.kw;
      return s.value.load(w, aff(t * taps, {{MB, nb * kk}, {J, kk}, {CQ, per * taps}, {KH, g.kw}, {KW, 1}}));
    });
    s.constant = true;
    add(s, rowSchedule(s, J, -1, 1, cpu));
  }
  if (comp >= 0) {  // 128·Σ_k w[m][k], the rows' offset (once: the weights are constant)
    LoopStage s;
    s.name = "offset_sums";
    enum { MB, J, K };
    s.axes = {{"panel", g.m / nb}, {"j", nb}, {"k", kq, true}};
    s.out = comp, s.outAt = aff(0, {{MB, nb}, {J, 1}});
    s.reduce = Reduce::kSum;
    s.value.op(EwOp::kDot4, s.value.intConstant(static_cast<int32_t>(0x80808080u)),
               s.value.load(panels, aff(0, {{MB, kq * nb}, {K, nb}, {J, 1}})));
    s.constant = true;
    StageSchedule sc = rowSchedule(s, J, -1, 1, cpu);
    foldWords(sc, cpu);
    add(std::move(s), sc);
  }
  {
    LoopStage s;
    s.name = "product";
    enum { P, MB, J, K };
    s.axes = {{"p", plane}, {"panel", g.m / nb}, {"j", nb}, {"k", kq, true}};
    s.out = yt, s.outAt = aff(0, {{P, g.m}, {MB, nb}, {J, 1}});
    s.reduce = Reduce::kSum;
    s.value.op(per == 4   ? EwOp::kDot4
               : per == 2 ? EwOp::kDot2
                          : EwOp::kMul,
               s.value.load(rows, aff(0, {{P, kq}, {K, 1}})),
               s.value.load(panels, aff(0, {{MB, kq * nb}, {K, nb}, {J, 1}})));
    if (f.epilogue) formEpilogue(f, s.epilogue, s.epilogue.acc(), channel, aff(0, {{MB, nb}, {J, 1}}), comp);
    StageSchedule sc = panelSchedule(s, cpu);
    if (integer) foldWords(sc, cpu);
    add(std::move(s), sc);
  }
  LoopStage t;
  t.name = "to_planes";
  t.axes = {{"m", g.m}, {"p", plane}};
  t.out = y, t.outAt = aff(0, {{0, plane}, {1, 1}});
  t.value.load(yt, aff(0, {{1, g.m}, {0, 1}}));
  add(t, rowSchedule(t, 1, -1, 1, cpu));
  return p;
}

/// Image cq of x2, padded to hp x wp, from element cq·stride on (stride 0: hp·wp): x's channels per·cq to
/// per·cq + per - 1 as the signed bytes of its words (`per` 4) or the signed halves (2), or x's channel cq
/// itself (1).
LoopStage windowImageStage(const runtime::ConvGeometry& g, int x, int x2, float pad, int per, int64_t stride = 0) {
  const auto [hp, wp] = paddedExtent(g);
  LoopStage s;
  s.name = "window_image";
  enum { CQ, YY, XX };
  s.axes = {{"cq", g.c / per}, {"y", hp}, {"x", wp}};
  s.out = x2, s.outAt = aff(0, {{CQ, stride ? stride : hp * wp}, {YY, wp}, {XX, 1}});
  auto load = [&](int t) {
    return s.value.load(x, aff((t * g.h - g.pt) * g.w - g.pl, {{CQ, per * g.h * g.w}, {YY, g.w}, {XX, 1}}),
                        {inside(aff(-g.pt, {{YY, 1}}), g.h), inside(aff(-g.pl, {{XX, 1}}), g.w)}, pad);
  };
  if (per == 1)
    load(0);
  else
    packValues(s.value, per, load, true);
  return s;
}

/// The product over x2's windows into out [M][OH·wp] (see windowsProduct), and its schedule: pairs of
/// channels in x2's and w2's words (`per` 2, Dot2), or floats with the weights read from w2 = w as it is.
PlannedStage windowsStage(const runtime::ConvGeometry& g, const ConvForm& f, int x2, int w2, int out,
                          const std::vector<int>& channel, int per, const CpuShape& cpu) {
  const auto [hp, wp] = paddedExtent(g);
  const int64_t cq = g.c / per, taps = g.kh * g.kw, columns = g.oh * wp;
  LoopStage s;
  s.name = "product";
  enum { M, Q, KH, KW, CQ };
  s.axes = {{"m", g.m}, {"q", columns}, {"kh", g.kh, true}, {"kw", g.kw, true}, {"cq", cq, true}};
  s.out = out, s.outAt = aff(0, {{M, columns}, {Q, 1}});
  s.reduce = Reduce::kSum;
  const int a = per == 2 ? s.value.load(w2, aff(0, {{M, cq * taps}, {KH, g.kw * cq}, {KW, cq}, {CQ, 1}}))
                         : s.value.load(w2, aff(0, {{M, cq * taps}, {CQ, taps}, {KH, g.kw}, {KW, 1}}));
  const int b = s.value.load(x2, aff(0, {{CQ, hp * wp}, {Q, 1}, {KH, g.dh * wp}, {KW, g.dw}}));
  s.value.op(per == 2 ? EwOp::kDot2 : EwOp::kMul, a, b);
  if (f.epilogue) formEpilogue(f, s.epilogue, s.epilogue.acc(), channel, aff(0, {{M, 1}}));
  StageSchedule sc = productSchedule(s, M, Q, CQ, cpu);
  // productSchedule puts the axes it was not named outermost; the window's rows and columns reduce inside
  // the tile, just outside the channel pairs.
  std::vector<int> order;
  for (int id : sc.order)
    if (id == CQ)
      order.push_back(KH), order.push_back(KW), order.push_back(CQ);
    else if (id != KH && id != KW)
      order.push_back(id);
  sc.order = order;
  if (per == 2) foldWords(sc, cpu);
  return {s, sc};
}

/// A dense stride-1 convolution read in place from a padded image of its input: of floats, or of pairs of
/// int8 channels (x86 without VNNI), x's channels 2·cq and 2·cq + 1 as the signed halves of the words of
/// image cq, padded to hp x wp. Output pixel
/// (oh, ow) is column q = oh·wp + ow of the product, whose window then starts at word q + kh·dh·wp + kw·dw of
/// each image: affine in q, so no im2col copy is written. The columns q with ow >= OW (wp - OW of every row)
/// read past their row and are computed in vain; a byte copy drops them (none where wp = OW: a kernel one
/// column wide without column padding, whose product writes y itself). Against packing the windows, this
/// writes a word per padded input pixel and channel pair where that wrote KH·KW of them (at 56x56 and 64
/// channels 3.6 MB, a fifth of the convolution's time), and computes (wp / OW) - 1 more columns. Floats save
/// the im2col copy's KH·KW floats per input float the same way (7.2 MB at 56x56 and 64 channels).
KernelPlan windowsProduct(const runtime::ConvGeometry& g, const ConvForm& f, const CpuShape& cpu) {
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "conv";
  const auto [hp, wp] = paddedExtent(g);
  const int64_t plane = g.oh * g.ow, columns = g.oh * wp;
  const int x = k.addBuffer("x", g.c * g.h * g.w, Role::kInput, f.data);
  const int w = k.addBuffer("w", g.m * g.c * g.kh * g.kw, Role::kInput, f.data);
  std::vector<int> channel;
  for (const auto& [name, type] : f.perChannel) channel.push_back(k.addBuffer(name, g.m, Role::kInput, type));
  const int y = k.addBuffer("y", g.m * plane, Role::kOutput, f.out);
  const bool pairs = f.data == support::DType::kInt8;
  const int per = pairs ? 2 : 1;
  // The last window of the last image reaches (KW - 1)·dw words past it, and only for columns in vain.
  const int x2 =
      k.addBuffer("x2", g.c / per * hp * wp + (g.kw - 1) * g.dw, Role::kTemp, pairs ? support::DType::kInt32 : f.data);
  const int w2 = pairs ? k.addBuffer("w2", g.m * g.c / 2 * g.kh * g.kw, Role::kTemp, support::DType::kInt32) : w;
  // Rows as wide as the output's (a kernel one column wide, no column padding): no columns to drop.
  const int yq = wp == g.ow ? y : k.addBuffer("yq", g.m * columns, Role::kTemp, f.out);
  std::vector<int64_t> strides(k.buffers.size(), 0);
  strides[static_cast<size_t>(x)] = g.c * g.h * g.w, strides[static_cast<size_t>(y)] = g.m * plane;
  k.batch.push_back({g.n, strides});
  auto add = [&](LoopStage s, StageSchedule sc) {
    k.stages.push_back(std::move(s)), p.schedule.stages.push_back(std::move(sc));
  };
  LoopStage image = windowImageStage(g, x, x2, f.pad, per);
  const StageSchedule isc = rowSchedule(image, 2, -1, 1, cpu);
  add(std::move(image), isc);
  if (pairs) {
    LoopStage ws = windowWeightWordsStage(g, g.c, g.m, w, w2, g.c / 2 * g.kh * g.kw, 2);
    ws.constant = f.constWeights;
    const StageSchedule wsc = rowSchedule(ws, 3, -1, 1, cpu);
    add(std::move(ws), wsc);
  }
  PlannedStage product = windowsStage(g, f, x2, w2, yq, channel, per, cpu);
  add(std::move(product.stage), std::move(product.schedule));
  if (yq == y) return p;
  LoopStage t = unpadStage("drop_columns", yq, y, {{"m", g.m}, {"oh", g.oh}, {"ow", g.ow}}, {columns, wp, 1});
  const StageSchedule tsc = rowSchedule(t, 2, -1, 1, cpu, byteCopy(k, t));
  add(std::move(t), tsc);
  return p;
}

/// A dense stride-1 convolution on AMX tiles, read in place from a padded image of words, as
/// windowsProduct reads its pairs: x's channels 4·cq to 4·cq + 3 as the signed bytes of the words of
/// image cq, padded to hp x wp; output pixel (oh, ow) is column q = oh·wp + ow of the product, whose window
/// starts at word q + kh·dh·wp + kw·dw of each image. So each kernel tap is a tile product of the weights'
/// words (their own bytes, tdpbssd: no offset to take back) by 16 images' words at the tap's offset, which
/// AMX loads as B's rows (16 words of consecutive columns) with no copy. Channels come in blocks of 64, a
/// tile's depth. With whole tiles of output channels the requantization runs on the tiles (TileProduct's
/// epilogue) into y, the columns wrapping at wp (LoopStage::outWrap); else a last stage requantizes int32
/// rows. Columns past OW (wp - OW of each row) and past the last row (to a multiple of 16, or of 32 in 2 x 2
/// blocks) are computed in vain and never stored; they read words past the images, which the buffer holds
/// (whatever they are).
KernelPlan windowTilesProduct(const runtime::ConvGeometry& g, const ConvForm& f, const CpuShape& cpu) {
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "conv";
  const auto [hp, wp] = paddedExtent(g);
  const int64_t cq = g.c / 4, taps = g.kh * g.kw, plane = g.oh * g.ow;
  // The images' stride: an odd number of cache lines, at least hp·wp words. A tile of b loads 16 rows an
  // image apart, which at a stride of 2^k lines (16x16 images: 16 lines) fall into a few of L1's sets and
  // evict each other: the product of 256 channels at 14x14 took 0.110 ms at 16 lines, 0.094 at 17.
  const int64_t image = (hp * wp + 15) / 32 * 32 + 16;
  // The columns padded to blocks of two tiles (2 x 2 blocks where the rows come in 32s) from two depth steps
  // on (128 channels): 128 at 28x28 took 0.106-0.108 ms so, 0.114 in blocks of one tile's columns (2 x 1,
  // whose operands come in two sets of tiles in turn); 64 at 56x56, one depth step, 0.128 against 0.125.
  // (Columns that come in 32s anyway take 2 x 2 blocks at any depth.)
  const int64_t cols = cq > 16 ? tileBlockExtent(g.oh * wp) : tileExtent(g.oh * wp), mp = tileExtent(g.m);
  const int x = k.addBuffer("x", g.c * g.h * g.w, Role::kInput, f.data);
  const int w = k.addBuffer("w", g.m * g.c * taps, Role::kInput, f.data);
  std::vector<int> channel;
  for (const auto& [name, type] : f.perChannel) channel.push_back(k.addBuffer(name, g.m, Role::kInput, type));
  const int y = k.addBuffer("y", g.m * plane, Role::kOutput, f.out);
  // The last tile's last tap reads up to word (cq - 1)·image + cols - 1 + (KH - 1)·dh·wp + (KW - 1)·dw.
  const int64_t reach = (cq - 1) * image + cols + (g.kh - 1) * g.dh * wp + (g.kw - 1) * g.dw;
  const int x4 = k.addBuffer("x4", std::max(cq * image, reach), Role::kTemp, support::DType::kInt32);
  const int w4 = k.addBuffer("w4", mp * taps * cq, Role::kTemp, support::DType::kInt32);
  // Whole tiles of output channels: the epilogue runs on the tiles (whose rows index the per-channel inputs),
  // into y, its columns wrapping at wp (LoopStage::outWrap: OW of each wp written, OH rows); else the sums go
  // to a temporary that a last stage requantizes. Writing the columns to a temporary, then a copy that dropped
  // those past OW, took 0.0086 ms more at 64 channels and 56x56 (0.0044 at 128 and 28x28).
  const bool fused = mp == g.m;
  const int acc = fused ? y : k.addBuffer("acc", mp * cols, Role::kTemp, support::DType::kInt32);
  std::vector<int64_t> strides(k.buffers.size(), 0);
  strides[static_cast<size_t>(x)] = g.c * g.h * g.w, strides[static_cast<size_t>(y)] = g.m * plane;
  k.batch.push_back({g.n, strides});
  auto add = [&](LoopStage s, StageSchedule sc) {
    k.stages.push_back(std::move(s)), p.schedule.stages.push_back(std::move(sc));
  };
  LoopStage image4 = windowImageStage(g, x, x4, f.pad, 4, image);
  const StageSchedule isc = rowSchedule(image4, 2, -1, 1, cpu);
  add(std::move(image4), isc);
  LoopStage ws = windowWeightWordsStage(g, g.c, g.m, w, w4, taps * cq, 4, true);
  ws.constant = f.constWeights;
  add(ws, rowSchedule(ws, 3, -1, 1, cpu));
  {
    LoopStage s;
    s.name = "product";
    enum { M, Q, KH, KW, CQ };
    s.axes = {{"m", mp}, {"q", cols}, {"kh", g.kh, true}, {"kw", g.kw, true}, {"cq", cq, true}};
    s.out = acc, s.outAt = aff(0, {{M, fused ? plane : cols}, {Q, 1}});
    if (fused) s.outWrap = {Q, wp, g.ow, g.oh};
    s.reduce = Reduce::kSum;
    const int a = s.value.load(w4, aff(0, {{M, taps * cq}, {KH, g.kw * cq}, {KW, cq}, {CQ, 1}}));
    const int b = s.value.load(x4, aff(0, {{CQ, image}, {Q, 1}, {KH, g.dh * wp}, {KW, g.dw}}));
    s.value.op(EwOp::kDot4S, a, b);
    if (fused) formEpilogue(f, s.epilogue, s.epilogue.acc(), channel, aff(0, {{M, 1}}));
    const StageSchedule sc = tileSchedule(s, M);
    add(std::move(s), sc);
  }
  if (fused) return p;
  LoopStage s = unpadStage("requantize", acc, y, {{"m", g.m}, {"oh", g.oh}, {"ow", g.ow}}, {cols, wp, 1});
  formEpilogue(f, s.epilogue, s.epilogue.acc(), channel, aff(0, {{0, 1}}));
  const StageSchedule sc = rowSchedule(s, 2, -1, 1, cpu, byteCopy(k, s));
  add(std::move(s), sc);
  return p;
}

}  // namespace

/// Grouped or dense: per (image, group), col = im2col(x) and y = w · col,
/// then the form's epilogue. With `vnni`, the product runs over words: w's
/// rows and col's columns packed (the columns' words straight from x's
/// windows when the channels come in whole words); with VNNI 4 bytes, w's
/// offset by 128 into vpdpbusd's unsigned operand, which the epilogue takes
/// back as 128·Σ_k col[k][p]; without, pairs of signed halves (no offset).
KernelPlan im2colProduct(const runtime::ConvGeometry& g, const ConvForm& f, const CpuShape& cpu) {
  if (cpu.amx && f.vnni && f.data == support::DType::kInt8 && f.epilogue && g.group == 1 && g.sh == 1 && g.sw == 1 &&
      g.c % (4 * TileProduct::kSide) == 0 && g.m >= TileProduct::kSide && g.oh * g.ow >= TileProduct::kSide)
    return windowTilesProduct(g, f, cpu);
  // Pixels in rows where the image is small: measured on AVX2 (bench/host_kernels_bench), ResNet's 3x3
  // convolutions at 7x7 and 14x14 took 3.2 and 2.7 ms in rows against 5.6 to 7.3 and 3.7 to 4.2 ms in lanes,
  // the same at 28x28, and at 56x56 slightly more (moving the pixels to rows and back costs a gather each).
  // Int8 the same where its words are pairs of channels (x86 without VNNI).
  constexpr int64_t kRowsBelow = 28 * 28;
  const bool floats = f.data == support::DType::kFloat32 && f.out == support::DType::kFloat32;
  const bool pairs = f.vnni && f.data == support::DType::kInt8 && !cpu.vnni && g.c % 2 == 0;
  // VNNI's words too, where AMX's tiles do not take the product. Measured on a Zen 4 (AVX-512 VNNI, no AMX):
  // ResNet's 3x3 at 7x7 with 512 channels from 0.69-0.80 ms to 0.52, at 14x14 with 256 from 0.65-0.67 to
  // 0.57; at 28x28 with 128 it took 0.64-0.65 against 0.59-0.61 in lanes, at 56x56 0.76 against 0.64-0.70.
  // (Only at 16 lanes, where it was measured.)
  const bool quads = f.vnni && f.data == support::DType::kInt8 && cpu.vnni && !cpu.amx && cpu.vectorWidth >= 16 &&
                     g.c % 4 == 0 && f.epilogue;
  if ((floats || pairs || quads) && g.group == 1 && f.constWeights && g.oh * g.ow < kRowsBelow) {
    if (const int64_t nb = panelWidth(g.oh * g.ow, g.m, cpu)) return rowsProduct(g, f, nb, cpu);
  }
  // Windows read in place at stride 1 (a float 1x1 convolution reads x in place below, without the image).
  if ((pairs || (floats && g.kh * g.kw > 1)) && g.group == 1 && g.sh == 1 && g.sw == 1 && g.oh * g.ow >= kRowsBelow &&
      (f.epilogue || floats))
    return windowsProduct(g, f, cpu);
  KernelPlan p;
  LoopKernel& k = p.kernel;
  k.name = "conv";
  const bool direct = g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.pt == 0 && g.pl == 0 && g.pb == 0 && g.pr == 0;
  const bool vnni = f.vnni && f.data == support::DType::kInt8;
  // Without VNNI the words hold pairs of 16-bit halves, both signed, whose products vpmaddwd sums exactly
  // (at most 2·128² in size): one instruction a pair, where four bytes as two vpmaddwd took six more to split.
  const int per = vnni && !cpu.vnni ? 2 : 4;
  const int64_t cg = g.c / g.group, mg = g.m / g.group, plane = g.oh * g.ow, kk = cg * g.kh * g.kw;
  const int64_t kq = (kk + per - 1) / per;
  // With whole words of input channels, the windows are packed straight from x (no im2col pass).
  const bool windows = vnni && !direct && cg % per == 0;
  // On AMX tiles: the weights' words are tiles' rows (A) and the columns' the tiles of B, each padded to
  // multiples of 16 words. With whole tiles of output channels the epilogue runs on the tiles, into rows of
  // the padded columns (y itself where they need no padding); else the product goes to int32 rows, which a
  // last stage requantizes.
  const bool tiles =
      vnni && per == 4 && cpu.amx && f.epilogue && mg >= TileProduct::kSide && plane >= TileProduct::kSide;
  const int64_t mp = tiles ? tileExtent(mg) : mg, pp = tiles ? tileBlockExtent(plane) : plane,
                kp = tiles ? tileExtent(kq) : kq;
  const bool fused = tiles && mp == mg;
  const int x = k.addBuffer("x", cg * g.h * g.w, Role::kInput, f.data);
  const int w = k.addBuffer("w", mg * kk, Role::kInput, f.data);
  std::vector<int> channel;
  for (const auto& [name, type] : f.perChannel) channel.push_back(k.addBuffer(name, mg, Role::kInput, type));
  const int y = k.addBuffer("y", mg * plane, Role::kOutput, f.out);
  const int col = direct ? x : windows ? -1 : k.addBuffer("col", kk * plane, Role::kTemp, f.data);
  const int col4 = vnni ? k.addBuffer("col4", kp * pp, Role::kTemp, support::DType::kInt32) : -1;
  const int w4 = vnni ? k.addBuffer("w4", mp * kp, Role::kTemp, support::DType::kInt32) : -1;
  const int64_t sums = fused ? pp : plane;  // the columns whose offsets the epilogue takes back
  const int comp = vnni && per == 4 ? k.addBuffer("comp", sums, Role::kTemp, support::DType::kInt32) : -1;
  const int acc = !tiles        ? -1
                  : !fused      ? k.addBuffer("acc", mp * pp, Role::kTemp, support::DType::kInt32)
                  : pp == plane ? y
                                : k.addBuffer("yq", mp * pp, Role::kTemp, f.out);
  // Strides per buffer: x, w, the per-channel inputs, y; temporaries stay put.
  auto strides = [&](int64_t xs, int64_t ws, int64_t cs, int64_t ys) {
    std::vector<int64_t> v = {xs, ws};
    v.insert(v.end(), channel.size(), cs);
    v.push_back(ys);
    v.resize(k.buffers.size(), 0);
    return v;
  };
  k.batch.push_back({g.n, strides(g.c * g.h * g.w, 0, 0, g.m * plane)});
  k.batch.push_back({g.group, strides(cg * g.h * g.w, mg * kk, mg, mg * plane)});
  auto add = [&](LoopStage s, StageSchedule sc) { k.stages.push_back(std::move(s)), p.schedule.stages.push_back(std::move(sc)); };
  if (!direct && !windows) {
    LoopStage s = im2colStage(g, cg, x, col, f.pad);
    add(s, rowSchedule(s, 4, -1, 1, cpu));
  }
  LoopStage s;
  s.name = "product";
  enum { M, P, K };
  s.out = y, s.outAt = aff(0, {{M, plane}, {P, 1}});
  s.reduce = Reduce::kSum;
  int folded = -1;
  if (vnni) {
    packProductWords(g, WordBuffers{x, w, col, col4, w4, pp, kp}, windows, f.pad, f.constWeights && g.group == 1, per,
                     cpu, p);
    s.axes = {{"m", mg}, {"p", plane}, {"k", kq, true}};
    const int a = s.value.load(w4, aff(0, {{M, kq}, {K, 1}})), b = s.value.load(col4, aff(0, {{K, plane}, {P, 1}}));
    s.value.op(per == 2 ? EwOp::kDot2 : EwOp::kDot4, a, b);
    if (per == 4) {
      // The weights are the unsigned operand (offset by 128) and the columns the
      // signed one, so the offset's sums run along the columns, in vector lanes.
      PlannedStage offsets = wordSumStage(col4, comp, sums, kq, 1, pp, 0x01010101u, 128, cpu);
      add(offsets.stage, offsets.schedule);
      if (!fused) folded = s.epilogue.op(EwOp::kSub, s.epilogue.acc(), s.epilogue.load(comp, aff(0, {{P, 1}})));
    }
    if (fused) {  // the product and its epilogue on tiles, then the padded columns dropped
      PlannedStage product = tileProductStage(w4, col4, acc, mp, pp, kp);
      LoopExpr& e = product.stage.epilogue;
      formEpilogue(f, e, e.op(EwOp::kSub, e.acc(), e.load(comp, aff(0, {{P, 1}}))), channel, aff(0, {{M, 1}}));
      add(product.stage, product.schedule);
      if (acc == y) return p;
      LoopStage d = unpadStage("drop_columns", acc, y, {{"m", mg}, {"p", plane}}, {pp, 1});
      const StageSchedule dsc = rowSchedule(d, P, -1, 1, cpu, byteCopy(k, d));
      add(std::move(d), dsc);
      return p;
    }
    if (tiles) {  // the product on tiles into acc, and this stage the epilogue over it
      PlannedStage product = tileProductStage(w4, col4, acc, mp, pp, kp);
      add(product.stage, product.schedule);
      s.name = "requantize", s.reduce = Reduce::kNone;
      s.axes = {{"m", mg}, {"p", plane}};
      s.value = LoopExpr();
      s.value.load(acc, aff(0, {{M, pp}, {P, 1}}));
    }
  } else {
    s.axes = {{"m", mg}, {"p", plane}, {"k", kk, true}};
    s.value.op(EwOp::kMul, s.value.load(w, aff(0, {{M, kk}, {K, 1}})), s.value.load(col, aff(0, {{K, plane}, {P, 1}})));
  }
  if (f.epilogue) formEpilogue(f, s.epilogue, folded < 0 ? s.epilogue.acc() : folded, channel, aff(0, {{M, 1}}));
  if (tiles) {
    const StageSchedule sc = rowSchedule(s, P, -1, 1, cpu);
    add(std::move(s), sc);
    return p;
  }
  StageSchedule sc = productSchedule(s, M, P, K, cpu);
  if (vnni) foldWords(sc, cpu);
  add(s, sc);
  return p;
}

}  // namespace accelc::compiler::host
