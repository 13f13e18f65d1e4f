// runtime/kernels/data_ops.cc — data movement and generation: Expand, Tile,
// Range, Pad, DepthToSpace, SpaceToDepth, Trilu, Size, EyeLike, NonZero.
// Moves work on raw bytes, so every dtype is served; the index ops
// (GatherElements, GatherND, ScatterElements, ScatterND, OneHot) live in
// gather_scatter.cc.
#include "runtime/internal/data_ops.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace accelc::runtime::kernels {

using support::shapeStr;

bool nextIndex(Shape& idx, const Shape& shape) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

namespace {

/// Fills `out` element by element: srcOf(multi-index) is the flat input
/// element to copy, or -1 to copy `fill` (one element's bytes) instead.
template <typename Fn>
void copyBySource(const Tensor& x, const uint8_t* fill, Tensor& out, Fn srcOf) {
  const int64_t eb = support::dtypeBytes(x.dtype());
  Shape idx(out.rank(), 0);
  for (int64_t o = 0; o < out.numel(); ++o, nextIndex(idx, out.shape())) {
    const int64_t src = srcOf(idx);
    std::memcpy(&out.bytes()[o * eb], src < 0 ? fill : &x.bytes()[src * eb], eb);
  }
}

/// Per output axis, the input coordinate each output coordinate reads (-1: the fill).
using AxisMaps = std::vector<Ints>;

/// copyBySource through per-axis maps; srcStrides are the input's strides per output axis.
void copyByMaps(const Tensor& x, const Shape& srcStrides, const AxisMaps& maps, const uint8_t* fill, Tensor& out) {
  copyBySource(x, fill, out, [&](const Shape& idx) {
    int64_t src = 0;
    for (size_t d = 0; d < maps.size(); ++d) {
      const int64_t at = maps[d][idx[d]];
      if (at < 0) return int64_t{-1};
      src += at * srcStrides[d];
    }
    return src;
  });
}

/// Fails unless input i is a 1-D int64 tensor.
Status expectInt64List(int i, const char* what, Ctx& c) {
  ACCELC_TRY(c.expectType(i, {DType::kInt64}));
  if (c.in(i).rank() != 1) return c.fail(std::string(what) + " must be 1-D; found rank " + std::to_string(c.in(i).rank()));
  return Status::ok();
}

Status expand(Ctx& c) {
  const Tensor& x = c.in(0);
  ACCELC_TRY(expectInt64List(1, "Expand shape", c));
  const Ints want = intsOf(c.in(1));
  Shape shape;
  if (std::any_of(want.begin(), want.end(), [](int64_t d) { return d < 0; }) ||
      !broadcastShape(x.shape(), want, shape))
    return c.fail("cannot expand " + shapeStr(x.shape()) + " to " + shapeStr(want) + "; expected a broadcastable shape");
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), shape));
  const int64_t lead = out.rank() - x.rank();  // the shape may add leading axes
  const Shape xst = stridesOf(x.shape());
  Shape st(out.rank(), 0);
  AxisMaps maps(out.rank());
  for (int64_t d = 0; d < out.rank() && out.numel() > 0; ++d) {  // an empty output's axes may still be long
    const bool repeat = d < lead || x.dim(d - lead) == 1;
    if (d >= lead) st[d] = xst[d - lead];
    for (int64_t i = 0; i < shape[d]; ++i) maps[d].push_back(repeat ? 0 : i);
  }
  copyByMaps(x, st, maps, nullptr, out);
  c.out(0) = std::move(out);
  return Status::ok();
}

Status tile(Ctx& c) {
  const Tensor& x = c.in(0);
  ACCELC_TRY(expectInt64List(1, "Tile repeats", c));
  const Ints reps = intsOf(c.in(1));
  if (static_cast<int64_t>(reps.size()) != x.rank())
    return c.fail("Tile needs one repeat per input axis (" + std::to_string(x.rank()) + "); found " +
                  std::to_string(reps.size()));
  Shape shape(x.rank());
  for (int64_t d = 0; d < x.rank(); ++d)
    if (reps[d] < 0 || __builtin_mul_overflow(x.dim(d), reps[d], &shape[d]))
      return c.fail("Tile repeats must be non-negative and fit 64 bits; found " + shapeStr(reps));
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), shape));
  AxisMaps maps(x.rank());
  for (int64_t d = 0; d < x.rank() && out.numel() > 0; ++d)  // an empty output's axes may still be long
    for (int64_t i = 0; i < shape[d]; ++i) maps[d].push_back(i % x.dim(d));
  copyByMaps(x, stridesOf(x.shape()), maps, nullptr, out);
  c.out(0) = std::move(out);
  return Status::ok();
}

/// Range's element count max(ceil((limit - start) / delta), 0), or -1 when it
/// is too large (or NaN). Integers count in unsigned 64 bits: limit - start may
/// not fit the type.
template <typename T>
int64_t rangeCount(T start, T limit, T delta) {
  if constexpr (std::is_floating_point_v<T>) {
    const double q = std::ceil((static_cast<double>(limit) - static_cast<double>(start)) / static_cast<double>(delta));
    if (!(q <= static_cast<double>(kMaxGeneratedElements))) return -1;
    return q < 0 ? 0 : static_cast<int64_t>(q);
  } else {
    const int64_t s = start, l = limit, d = delta;
    if (l == s || (d > 0) != (l > s)) return 0;
    const uint64_t span = d > 0 ? uint64_t(l) - uint64_t(s) : uint64_t(s) - uint64_t(l);
    const uint64_t step = d > 0 ? uint64_t(d) : uint64_t(0) - uint64_t(d);
    const uint64_t n = span / step + (span % step != 0);
    return n > static_cast<uint64_t>(kMaxGeneratedElements) ? -1 : static_cast<int64_t>(n);
  }
}

/// start + i * delta; integers wrap in unsigned arithmetic, exact since the result lies before limit.
template <typename T>
T rangeValue(T start, T delta, int64_t i) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(static_cast<double>(start) + static_cast<double>(i) * static_cast<double>(delta));
  else
    return static_cast<T>(static_cast<int64_t>(uint64_t(int64_t{start}) + uint64_t(i) * uint64_t(int64_t{delta})));
}

template <typename T>
Status rangeOf(Ctx& c) {
  const T start = c.in(0).data<T>()[0], limit = c.in(1).data<T>()[0], delta = c.in(2).data<T>()[0];
  if (delta == T(0)) return c.fail("Range delta must not be 0");
  const int64_t n = rangeCount(start, limit, delta);
  if (n < 0) return c.fail("Range from " + std::to_string(start) + " to " + std::to_string(limit) + " by " +
                           std::to_string(delta) + " has too many elements");
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(c.in(0).dtype(), {n}));
  T* o = out.data<T>();
  for (int64_t i = 0; i < n; ++i) o[i] = rangeValue(start, delta, i);
  c.out(0) = std::move(out);
  return Status::ok();
}

Status range(Ctx& c) {
  const DType t = c.in(0).dtype();
  ACCELC_TRY(c.expectType(0, {DType::kFloat32, DType::kInt32, DType::kInt64}));
  for (int i = 0; i < 3; ++i) {
    ACCELC_TRY(c.expectType(i, {t}));
    if (c.in(i).numel() != 1)
      return c.fail("Range input " + std::to_string(i) + " must be a scalar; found shape " + shapeStr(c.in(i).shape()));
  }
  return visitDType(t, [&](auto z) { return rangeOf<decltype(z)>(c); });
}

/// v converted to T, saturating (and NaN as 0) where T is an integer.
template <typename T>
T saturate(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    if (std::isnan(v)) return T(0);
    v = std::clamp(v, static_cast<double>(std::numeric_limits<T>::lowest()),
                   static_cast<double>(std::numeric_limits<T>::max()));
    return v >= static_cast<double>(std::numeric_limits<T>::max()) ? std::numeric_limits<T>::max() : static_cast<T>(v);
  }
}

/// Pad's fill element, as bytes of the data's dtype: input 2 (opset >= 11),
/// else the `value` attribute (opset < 11; 0 by default).
support::Expected<std::vector<uint8_t>> padFill(const PadAttrs& a, Ctx& c) {
  const DType t = c.in(0).dtype();
  if (c.has(2)) {
    ACCELC_TRY(c.expectType(2, {t}));
    if (c.in(2).numel() != 1)
      return c.fail("Pad constant_value must be a scalar; found shape " + shapeStr(c.in(2).shape()));
    return c.in(2).bytes();
  }
  std::vector<uint8_t> fill(support::dtypeBytes(t));
  visitDType(t, [&](auto z) {
    using T = decltype(z);
    const T v = t == DType::kBool ? T(a.value != 0.0f) : saturate<T>(a.value);
    std::memcpy(fill.data(), &v, sizeof v);
  });
  return fill;
}

/// Checks one axis' pads and gives its output size. ONNX crops negative pads
/// first, then pads what is left: reflect needs more elements than its pad,
/// edge needs one.
Status padSize(PadMode mode, int64_t axis, int64_t dim, int64_t begin, int64_t end, int64_t& size, Ctx& c) {
  const std::string where = "Pad of axis " + std::to_string(axis) + " (size " + std::to_string(dim) + ") by " +
                            std::to_string(begin) + ", " + std::to_string(end);
  if (begin < -dim || end < -dim || (begin < 0 && end < 0 && -begin - end > dim))
    return c.fail(where + " crops more than the axis holds");
  if (__builtin_add_overflow(dim, begin, &size) || __builtin_add_overflow(size, end, &size))
    return c.fail(where + " overflows 64 bits");
  const int64_t left = dim + std::min<int64_t>(begin, 0) + std::min<int64_t>(end, 0);
  const int64_t grow = std::max(std::max<int64_t>(begin, 0), std::max<int64_t>(end, 0));
  switch (mode) {
    case PadMode::kConstant:
      return Status::ok();
    case PadMode::kEdge:
      if (grow > 0 && left == 0) return c.fail(where + ": edge mode cannot extend an empty axis");
      return Status::ok();
    case PadMode::kReflect:
      if (grow > 0 && grow >= left)
        return c.fail(where + ": reflect mode needs more than " + std::to_string(grow) + " elements; found " +
                      std::to_string(left));
      return Status::ok();
  }
  return Status::ok();
}

/// One axis' map: output coordinate -> input coordinate (-1: the constant).
Ints padMap(PadMode mode, int64_t dim, int64_t begin, int64_t end, int64_t size) {
  const int64_t lo = std::max<int64_t>(-begin, 0), len = dim - lo - std::max<int64_t>(-end, 0);
  const int64_t pb = std::max<int64_t>(begin, 0);
  Ints map(size);
  for (int64_t i = 0; i < size; ++i) {
    const int64_t j = i - pb;  // coordinate in the cropped axis
    if (j >= 0 && j < len) {
      map[i] = lo + j;
      continue;
    }
    switch (mode) {
      case PadMode::kConstant:
        map[i] = -1;
        break;
      case PadMode::kEdge:
        map[i] = lo + std::clamp<int64_t>(j, 0, len - 1);
        break;
      case PadMode::kReflect:  // mirrors without repeating the edge element
        map[i] = lo + (j < 0 ? -j : 2 * (len - 1) - j);
        break;
    }
  }
  return map;
}

Status pad(const PadAttrs& a, Ctx& c) {
  const Tensor& x = c.in(0);
  const int64_t r = x.rank();
  Ints pads = a.pads;
  if (c.has(1)) {
    ACCELC_TRY(expectInt64List(1, "Pad pads", c));
    pads = intsOf(c.in(1));
  }
  if (static_cast<int64_t>(pads.size()) != 2 * r)
    return c.fail("Pad needs 2 pads per axis (" + std::to_string(2 * r) + "); found " + std::to_string(pads.size()));
  Shape shape(r);
  for (int64_t d = 0; d < r; ++d) ACCELC_TRY(padSize(a.mode, d, x.dim(d), pads[d], pads[d + r], shape[d], c));
  ACCELC_ASSIGN_OR_RETURN(std::vector<uint8_t> fill, padFill(a, c));
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), shape));
  AxisMaps maps(r);
  for (int64_t d = 0; d < r && out.numel() > 0; ++d)  // an empty output's axes may still be long
    maps[d] = padMap(a.mode, x.dim(d), pads[d], pads[d + r], shape[d]);
  copyByMaps(x, stridesOf(x.shape()), maps, fill.data(), out);
  c.out(0) = std::move(out);
  return Status::ok();
}

/// The output shape of DepthToSpace (toSpace) or SpaceToDepth.
Status blockShape(bool toSpace, int64_t b, const Tensor& x, Shape& shape, Ctx& c) {
  const char* op = toSpace ? "DepthToSpace" : "SpaceToDepth";
  int64_t bb = 0;
  if (b < 1 || __builtin_mul_overflow(b, b, &bb))
    return c.fail(std::string(op) + " blocksize must be positive; found " + std::to_string(b));
  const int64_t n = x.dim(0), ch = x.dim(1), h = x.dim(2), w = x.dim(3);
  shape = {n, 0, 0, 0};
  if (toSpace) {
    if (ch % bb) return c.fail("DepthToSpace channels (" + std::to_string(ch) + ") must be a multiple of blocksize^2");
    shape[1] = ch / bb;
    if (__builtin_mul_overflow(h, b, &shape[2]) || __builtin_mul_overflow(w, b, &shape[3]))
      return c.fail("DepthToSpace output is too large");
    return Status::ok();
  }
  if (h % b || w % b)
    return c.fail("SpaceToDepth height and width (" + std::to_string(h) + "x" + std::to_string(w) +
                  ") must be multiples of blocksize " + std::to_string(b));
  shape[2] = h / b, shape[3] = w / b;
  if (__builtin_mul_overflow(ch, bb, &shape[1])) return c.fail("SpaceToDepth output is too large");
  return Status::ok();
}

Status blockMove(bool toSpace, const BlockAttrs& a, Ctx& c) {
  const Tensor& x = c.in(0);
  ACCELC_TRY(c.expectRank(0, 4));
  Shape shape;
  ACCELC_TRY(blockShape(toSpace, a.blocksize, x, shape, c));
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), shape));
  const int64_t b = a.blocksize, ch = x.dim(1), h = x.dim(2), w = x.dim(3), oc = shape[1];
  const bool crd = a.mode == DepthMode::kCRD;
  copyBySource(x, nullptr, out, [&](const Shape& i) {
    if (toSpace) {  // DCR: channel = (by * b + bx) * oc + c; CRD: c * b * b + by * b + bx
      const int64_t by = i[2] % b, bx = i[3] % b;
      const int64_t src = crd ? (i[1] * b + by) * b + bx : (by * b + bx) * oc + i[1];
      return ((i[0] * ch + src) * h + i[2] / b) * w + i[3] / b;
    }
    const int64_t blk = i[1] / ch, by = blk / b, bx = blk % b;  // SpaceToDepth is DCR's inverse
    return ((i[0] * ch + i[1] % ch) * h + i[2] * b + by) * w + i[3] * b + bx;
  });
  c.out(0) = std::move(out);
  return Status::ok();
}

Status trilu(const TriluAttrs& a, Ctx& c) {
  const Tensor& x = c.in(0);
  if (x.rank() < 2) return c.fail("Trilu input must have rank >= 2; found rank " + std::to_string(x.rank()));
  int64_t k = 0;
  if (c.has(1)) {
    ACCELC_TRY(c.expectType(1, {DType::kInt64}));
    if (c.in(1).numel() != 1) return c.fail("Trilu k must be a scalar; found shape " + shapeStr(c.in(1).shape()));
    k = c.in(1).intAt(0);
  }
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), x.shape()));
  out.bytes() = x.bytes();
  const int64_t rows = x.dim(-2), cols = x.dim(-1), eb = support::dtypeBytes(x.dtype());
  for (int64_t o = 0; o < out.numel(); ++o) {
    const int64_t diag = o % cols - (o / cols) % rows;  // j - i: which diagonal the element is on
    if (a.upper ? diag < k : diag > k) std::memset(&out.bytes()[o * eb], 0, eb);
  }
  c.out(0) = std::move(out);
  return Status::ok();
}

Status eyeLike(const EyeLikeAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectRank(0, 2));
  const int64_t rows = c.in(0).dim(0), cols = c.in(0).dim(1), k = a.k;
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(a.dtype, {rows, cols}));
  const int64_t eb = support::dtypeBytes(a.dtype);
  std::vector<uint8_t> one(eb);
  visitDType(a.dtype, [&](auto z) {
    const decltype(z) v = 1;
    std::memcpy(one.data(), &v, sizeof v);
  });
  if (k < cols && k > -rows)  // else the diagonal misses the matrix
    for (int64_t i = std::max<int64_t>(0, -k); i < rows && i + k < cols; ++i)
      std::memcpy(&out.bytes()[(i * cols + i + k) * eb], one.data(), eb);
  c.out(0) = std::move(out);
  return Status::ok();
}

/// NonZero: [rank, count] coordinates of the nonzero elements, row-major
/// order. A scalar counts as a 1-element vector (numpy's nonzero).
template <typename T>
Status nonZeroOf(Ctx& c) {
  const Tensor& x = c.in(0);
  const T* v = x.data<T>();
  Ints hits;
  for (int64_t i = 0; i < x.numel(); ++i)
    if (v[i] != T(0)) hits.push_back(i);
  const int64_t n = static_cast<int64_t>(hits.size());
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kInt64, {std::max<int64_t>(x.rank(), 1), n}));
  const Shape st = stridesOf(x.shape());
  int64_t* o = out.data<int64_t>();
  for (int64_t d = 0; d < x.rank(); ++d)
    for (int64_t j = 0; j < n; ++j) o[d * n + j] = hits[j] / st[d] % x.dim(d);
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace

Status dataOp(OpKind k, const Attrs& a, Ctx& c) {
  if (k == OpKind::kExpand) return expand(c);
  if (k == OpKind::kTile) return tile(c);
  if (k == OpKind::kRange) return range(c);
  if (k == OpKind::kPad) return pad(std::get<PadAttrs>(a), c);
  if (k == OpKind::kDepthToSpace || k == OpKind::kSpaceToDepth)
    return blockMove(k == OpKind::kDepthToSpace, std::get<BlockAttrs>(a), c);
  if (k == OpKind::kGatherElements) return gatherElements(std::get<AxisAttrs>(a), c);
  if (k == OpKind::kGatherND) return gatherND(std::get<GatherNDAttrs>(a), c);
  if (k == OpKind::kScatterElements) return scatterElements(std::get<ScatterAttrs>(a), c);
  if (k == OpKind::kScatterND) return scatterND(std::get<ScatterAttrs>(a), c);
  if (k == OpKind::kOneHot) return oneHot(std::get<AxisAttrs>(a), c);
  if (k == OpKind::kTrilu) return trilu(std::get<TriluAttrs>(a), c);
  if (k == OpKind::kEyeLike) return eyeLike(std::get<EyeLikeAttrs>(a), c);
  if (k == OpKind::kNonZero) return visitDType(c.in(0).dtype(), [&](auto z) { return nonZeroOf<decltype(z)>(c); });
  if (k == OpKind::kSize) {
    ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(DType::kInt64, {}));
    out.data<int64_t>()[0] = c.in(0).numel();
    c.out(0) = std::move(out);
    return Status::ok();
  }
  return c.fail(std::string("not a data op: ") + opInfo(k).name);
}

}  // namespace accelc::runtime::kernels
