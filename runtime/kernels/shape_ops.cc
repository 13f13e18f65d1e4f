// runtime/kernels/shape_ops.cc — ops that move data without arithmetic:
// Flatten, Reshape, Transpose, Squeeze, Unsqueeze, Concat, Split, Slice,
// Gather, Shape, Constant. They work on raw bytes, so every dtype is served.
#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "runtime/geometry.h"
#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// One run of `n` elements of T, `stride` elements apart in the source.
template <typename T>
void copyRun(const uint8_t* from, int64_t stride, int64_t n, uint8_t* to) {
  T v;
  for (int64_t j = 0; j < n; ++j) {
    std::memcpy(&v, from + j * stride * static_cast<int64_t>(sizeof(T)), sizeof(T));
    std::memcpy(to + j * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
  }
}

/// out (dense, of `shape`) = the elements of `in` (`eb` bytes each) at `base` + Σ index[d]·stride[d]: the
/// element moves of Transpose and Slice. An odometer walks the outer dimensions; the last is one run, a
/// memcpy when its elements are adjacent (an index computed per element cost most of a small model's host time).
void stridedCopy(const uint8_t* in, int64_t base, const Shape& shape, const Shape& stride, int64_t eb, uint8_t* out) {
  const size_t r = shape.size();
  for (int64_t d : shape)
    if (d == 0) return;
  if (r == 0) return void(std::memcpy(out, in + base * eb, static_cast<size_t>(eb)));
  const int64_t inner = shape[r - 1], is = stride[r - 1];
  int64_t outer = 1;
  for (size_t d = 0; d + 1 < r; ++d) outer *= shape[d];
  std::vector<int64_t> index(r, 0);
  int64_t src = base;
  for (int64_t o = 0; o < outer; ++o, out += inner * eb) {
    const uint8_t* from = in + src * eb;
    if (is == 1)
      std::memcpy(out, from, static_cast<size_t>(inner * eb));
    else if (eb == 1)
      copyRun<uint8_t>(from, is, inner, out);
    else if (eb == 2)
      copyRun<uint16_t>(from, is, inner, out);
    else if (eb == 4)
      copyRun<uint32_t>(from, is, inner, out);
    else if (eb == 8)
      copyRun<uint64_t>(from, is, inner, out);
    else
      for (int64_t j = 0; j < inner; ++j) std::memcpy(out + j * eb, from + j * is * eb, static_cast<size_t>(eb));
    for (size_t d = r - 1; d-- > 0;) {  // the next outer index, last dimension fastest
      src += stride[d];
      if (++index[d] < shape[d]) break;
      src -= stride[d] * shape[d], index[d] = 0;
    }
  }
}

Status reshape(const ReshapeAttrs& a, Ctx& c) {
  const Tensor& x = c.in(0);
  Ints want = intsOf(c.in(1));
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] == 0 && !a.allowzero) {
      if (static_cast<int64_t>(i) >= x.rank()) return c.fail("Reshape copies dimension " + std::to_string(i) + " that the input lacks");
      want[i] = x.dim(static_cast<int64_t>(i));
    }
    if (want[i] < -1) return c.fail("Reshape dimension " + std::to_string(want[i]) + " is negative");
    if (want[i] == -1) {
      if (infer >= 0) return c.fail("Reshape has more than one -1");
      infer = static_cast<int64_t>(i);
    } else if (__builtin_mul_overflow(known, want[i], &known)) {
      return c.fail("Reshape target " + support::shapeStr(want) + " has more elements than a 64-bit size holds");
    }
  }
  if (infer >= 0) want[infer] = known ? x.numel() / known : 0;
  if (support::checkedShapeElements(want) != std::optional<int64_t>(x.numel()))
    return c.fail("cannot reshape " + support::shapeStr(x.shape()) + " to " + support::shapeStr(want));
  c.out(0) = x;
  c.out(0).reshape(want);
  return Status::ok();
}

Status transpose(const PermAttrs& a, Ctx& c) {
  const Tensor& x = c.in(0);
  const int64_t r = x.rank();
  Ints perm = a.perm;
  if (perm.empty())
    for (int64_t i = r - 1; i >= 0; --i) perm.push_back(i);
  Ints sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < r; ++i)
    if (static_cast<int64_t>(sorted.size()) != r || sorted[i] != i) return c.fail("perm is not a permutation of the axes");
  Shape shape(r);
  for (int64_t i = 0; i < r; ++i) shape[i] = x.dim(perm[i]);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), shape));
  const Shape inSt = stridesOf(x.shape());
  Shape stride(r);
  for (int64_t d = 0; d < r; ++d) stride[d] = inSt[perm[d]];
  stridedCopy(x.bytes().data(), 0, shape, stride, support::dtypeBytes(x.dtype()), out.bytes().data());
  c.out(0) = std::move(out);
  return Status::ok();
}

/// Squeeze / Unsqueeze: axes from the attribute or the second input.
Status squeeze(bool un, const AxesAttrs& a, Ctx& c) {
  const Tensor& x = c.in(0);
  Ints axes = c.has(1) ? intsOf(c.in(1)) : a.axes;
  Shape shape = x.shape();
  if (un) {
    const int64_t r = x.rank() + static_cast<int64_t>(axes.size());
    for (int64_t& ax : axes)
      if (!normAxis(ax, r)) return c.fail("Unsqueeze axis out of range");
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) return c.fail("Unsqueeze axes repeat an axis");
    for (int64_t ax : axes) shape.insert(shape.begin() + ax, 1);
  } else {
    if (axes.empty())
      for (int64_t i = 0; i < x.rank(); ++i)
        if (x.dim(i) == 1) axes.push_back(i);
    for (int64_t& ax : axes)
      if (!normAxis(ax, x.rank()) || x.dim(ax) != 1) return c.fail("Squeeze axis is out of range or not of size 1");
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) return c.fail("Squeeze axes repeat an axis");
    for (auto it = axes.rbegin(); it != axes.rend(); ++it) shape.erase(shape.begin() + *it);
  }
  c.out(0) = x;
  c.out(0).reshape(shape);
  return Status::ok();
}

/// Copies blocks along one axis: outer × (size along axis) × inner elements.
void copyAlong(const Tensor& src, int64_t axis, int64_t srcOff, int64_t n, Tensor& dst, int64_t dstOff) {
  const int64_t eb = support::dtypeBytes(src.dtype());
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= src.dim(i);
  for (int64_t i = axis + 1; i < src.rank(); ++i) inner *= src.dim(i);
  const int64_t sa = src.dim(axis), da = dst.dim(axis);
  if (n * inner == 0) return;  // an empty part: nothing to copy, and an empty tensor has no byte to point at
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(&dst.bytes()[((o * da + dstOff) * inner) * eb], &src.bytes()[((o * sa + srcOff) * inner) * eb],
                n * inner * eb);
}

Status concat(const AxisAttrs& a, Ctx& c) {
  int64_t axis = a.axis;
  const Tensor& first = c.in(0);
  if (!normAxis(axis, first.rank())) return c.fail("Concat axis out of range");
  Shape shape = first.shape();
  shape[axis] = 0;
  for (int i = 0; i < c.inputs(); ++i) {
    const Tensor& t = c.in(i);
    Shape s = t.shape();
    if (t.dtype() != first.dtype() || t.rank() != first.rank()) return c.fail("Concat inputs differ in dtype or rank");
    s[axis] = 0;
    Shape f = shape;
    f[axis] = 0;
    if (s != f) return c.fail("Concat input " + std::to_string(i) + " has shape " + support::shapeStr(t.shape()));
    shape[axis] += t.dim(axis);
  }
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(first.dtype(), shape));
  int64_t at = 0;
  for (int i = 0; i < c.inputs(); ++i) {
    copyAlong(c.in(i), axis, 0, c.in(i).dim(axis), out, at);
    at += c.in(i).dim(axis);
  }
  c.out(0) = std::move(out);
  return Status::ok();
}

Status split(const SplitAttrs& a, Ctx& c) {
  const Tensor& x = c.in(0);
  int64_t axis = a.axis;
  if (!normAxis(axis, x.rank())) return c.fail("Split axis out of range");
  Ints sizes = c.has(1) ? intsOf(c.in(1)) : a.split;
  const int64_t n = c.outputs();
  if (sizes.empty()) {
    if (x.dim(axis) % n) return c.fail("Split cannot cut " + std::to_string(x.dim(axis)) + " into " + std::to_string(n) + " equal parts");
    sizes.assign(n, x.dim(axis) / n);
  }
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) return c.fail("Split sizes must not be negative");
    total += s;
  }
  if (static_cast<int64_t>(sizes.size()) != n || total != x.dim(axis))
    return c.fail("Split sizes do not add up to " + std::to_string(x.dim(axis)));
  int64_t at = 0;
  for (int64_t i = 0; i < n; ++i) {
    Shape s = x.shape();
    s[axis] = sizes[i];
    ACCELC_ASSIGN_OR_RETURN(c.out(static_cast<int>(i)), c.alloc(x.dtype(), s));
    copyAlong(x, axis, at, sizes[i], c.out(static_cast<int>(i)), 0);
    at += sizes[i];
  }
  return Status::ok();
}

Status slice(Ctx& c) {
  const Tensor& x = c.in(0);
  SliceGeometry g;
  if (std::string why = sliceGeometry(x.shape(), intsOf(c.in(1)), intsOf(c.in(2)), c.has(3) ? intsOf(c.in(3)) : Ints{},
                                      c.has(4) ? intsOf(c.in(4)) : Ints{}, g);
      !why.empty())
    return c.fail(why);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), g.out));
  const Shape inSt = stridesOf(x.shape());
  const int64_t r = x.rank();
  Shape stride(r);
  int64_t base = 0;
  for (int64_t d = 0; d < r; ++d) stride[d] = g.step[d] * inSt[d], base += g.begin[d] * inSt[d];
  stridedCopy(x.bytes().data(), base, g.out, stride, support::dtypeBytes(x.dtype()), out.bytes().data());
  c.out(0) = std::move(out);
  return Status::ok();
}

Status gather(const AxisAttrs& a, Ctx& c) {
  const Tensor &x = c.in(0), &idx = c.in(1);
  ACCELC_TRY(c.expectType(1, {DType::kInt32, DType::kInt64}));
  int64_t axis = a.axis;
  if (!normAxis(axis, x.rank())) return c.fail("Gather axis out of range");
  Shape shape(x.shape().begin(), x.shape().begin() + axis);
  shape.insert(shape.end(), idx.shape().begin(), idx.shape().end());
  shape.insert(shape.end(), x.shape().begin() + axis + 1, x.shape().end());
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(x.dtype(), shape));
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= x.dim(i);
  for (int64_t i = axis + 1; i < x.rank(); ++i) inner *= x.dim(i);
  const int64_t eb = support::dtypeBytes(x.dtype()), d = x.dim(axis), n = idx.numel();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < n; ++j) {
      int64_t k = idx.intAt(j);
      if (k < 0) k += d;
      if (k < 0 || k >= d) return c.fail("Gather index " + std::to_string(idx.intAt(j)) + " is out of range [" +
                                          std::to_string(-d) + ", " + std::to_string(d - 1) + "]");
      if (inner == 0) continue;  // an empty slice: nothing to copy, and no data to index
      std::memcpy(&out.bytes()[((o * n + j) * inner) * eb], &x.bytes()[((o * d + k) * inner) * eb], inner * eb);
    }
  c.out(0) = std::move(out);
  return Status::ok();
}

Status shapeOf(const ShapeAttrs& a, Ctx& c) {
  const int64_t r = c.in(0).rank();
  int64_t b = a.start < 0 ? a.start + r : a.start, e = a.end < 0 ? a.end + r : std::min(a.end, r);
  b = std::clamp<int64_t>(b, 0, r), e = std::clamp<int64_t>(e, b, r);
  Ints dims(c.in(0).shape().begin() + b, c.in(0).shape().begin() + e);
  c.out(0) = Tensor::of<int64_t>({static_cast<int64_t>(dims.size())}, dims);
  return Status::ok();
}

}  // namespace

Status shapeOp(OpKind k, const Attrs& a, Ctx& c) {
  if (k == OpKind::kReshape) return reshape(std::get<ReshapeAttrs>(a), c);
  if (k == OpKind::kTranspose) return transpose(std::get<PermAttrs>(a), c);
  if (k == OpKind::kSqueeze || k == OpKind::kUnsqueeze)
    return squeeze(k == OpKind::kUnsqueeze, std::get<AxesAttrs>(a), c);
  if (k == OpKind::kConcat) return concat(std::get<AxisAttrs>(a), c);
  if (k == OpKind::kSplit) return split(std::get<SplitAttrs>(a), c);
  if (k == OpKind::kSlice) return slice(c);
  if (k == OpKind::kGather) return gather(std::get<AxisAttrs>(a), c);
  if (k == OpKind::kShape) return shapeOf(std::get<ShapeAttrs>(a), c);
  if (k == OpKind::kConstantOfShape) {  // value: a one-element tensor, float 0 when absent
    const Tensor& v = std::get<ConstantAttrs>(a).value;
    const Tensor fill = v.bytes().empty() ? Tensor(DType::kFloat32, {}) : v;
    if (fill.numel() != 1) return c.fail("ConstantOfShape value must hold one element");
    const Ints dims = intsOf(c.in(0));
    for (int64_t d : dims)
      if (d < 0) return c.fail("ConstantOfShape dimensions must not be negative");
    if (!support::checkedShapeElements(dims)) return c.fail("ConstantOfShape output is too large");
    ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(fill.dtype(), dims));
    const size_t eb = fill.bytes().size();
    for (int64_t i = 0; i < out.numel(); ++i) std::memcpy(&out.bytes()[i * eb], fill.bytes().data(), eb);
    c.out(0) = std::move(out);
    return Status::ok();
  }
  if (k == OpKind::kConstant) {
    c.out(0) = std::get<ConstantAttrs>(a).value;
    return Status::ok();
  }
  // Flatten: [d0 ... d(axis-1)] x [d(axis) ...].
  const Tensor& x = c.in(0);
  int64_t axis = std::get<AxisAttrs>(a).axis;
  if (axis < 0) axis += x.rank();
  if (axis < 0 || axis > x.rank()) return c.fail("Flatten axis out of range");
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < x.rank(); ++i) (i < axis ? outer : inner) *= x.dim(i);
  c.out(0) = x;
  c.out(0).reshape({outer, inner});
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
