// runtime/kernels/gather_scatter.cc — the index ops: GatherElements,
// GatherND, ScatterElements, ScatterND and OneHot. Every index read from a
// tensor is checked before use (negative ones count from the end); the ops
// first turn indices into flat data offsets, then move raw bytes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include "runtime/internal/data_ops.h"

namespace accelc::runtime::kernels {

namespace {

using support::shapeStr;

/// Reads element `at` of index tensor t for an axis of size dim into v.
Status readIndex(const Tensor& t, int64_t at, int64_t dim, int64_t& v, Ctx& c) {
  v = t.intAt(at);
  if (normAxis(v, dim)) return Status::ok();  // ONNX: negative indices count from the end
  return c.fail("index " + std::to_string(t.intAt(at)) + " is out of range for an axis of size " +
                std::to_string(dim) + "; expected [" + std::to_string(-dim) + ", " + std::to_string(dim - 1) + "]");
}

/// The data offsets an Elements op visits: element o of `idx` addresses data
/// at its own coordinates, the axis coordinate replaced by its value.
Status elementTargets(const Tensor& data, const Tensor& idx, int64_t axis, Ints& targets, Ctx& c) {
  if (idx.rank() != data.rank())
    return c.fail("indices have rank " + std::to_string(idx.rank()) + "; expected the data's rank " +
                  std::to_string(data.rank()));
  for (int64_t d = 0; d < data.rank(); ++d)
    if (d != axis && idx.dim(d) > data.dim(d))
      return c.fail("indices shape " + shapeStr(idx.shape()) + " exceeds data shape " + shapeStr(data.shape()) +
                    " on axis " + std::to_string(d));
  const Shape st = stridesOf(data.shape());
  Shape at(idx.rank(), 0);
  targets.assign(idx.numel(), 0);
  for (int64_t o = 0; o < idx.numel(); ++o, nextIndex(at, idx.shape())) {
    int64_t v = 0;
    ACCELC_TRY(readIndex(idx, o, data.dim(axis), v, c));
    for (int64_t d = 0; d < data.rank(); ++d) targets[o] += (d == axis ? v : at[d]) * st[d];
  }
  return Status::ok();
}

/// The data offsets an ND op visits: data is [batch (b axes), indexed (m
/// axes), slice...], indices [batch, tuples..., m]; one offset per tuple.
Status ndTargets(const Tensor& data, const Tensor& idx, int64_t b, Ints& targets, int64_t& slice, Ctx& c) {
  const int64_t q = idx.rank(), r = data.rank();
  if (q < 1 || r < 1) return c.fail("data and indices must have rank >= 1");
  if (b < 0 || b >= std::min(q, r))
    return c.fail("batch_dims " + std::to_string(b) + " is out of range; expected [0, " +
                  std::to_string(std::min(q, r) - 1) + "]");
  const int64_t m = idx.dim(-1);
  if (m < 1 || m > r - b)
    return c.fail("index tuples have " + std::to_string(m) + " elements; expected 1 to " + std::to_string(r - b) +
                  " (the data's rank less batch_dims)");
  int64_t batches = 1, tuples = 1, perBatch = 1;
  for (int64_t d = 0; d < b; ++d) {
    if (idx.dim(d) != data.dim(d))
      return c.fail("batch axis " + std::to_string(d) + " differs: data " + shapeStr(data.shape()) + ", indices " +
                    shapeStr(idx.shape()));
    batches *= data.dim(d);
  }
  for (int64_t d = b; d < q - 1; ++d) tuples *= idx.dim(d);
  for (int64_t d = b; d < r; ++d) perBatch *= data.dim(d);
  slice = 1;
  for (int64_t d = b + m; d < r; ++d) slice *= data.dim(d);
  const Shape st = stridesOf(data.shape());
  targets.assign(batches * tuples, 0);
  for (int64_t t = 0; t < batches * tuples; ++t) {
    targets[t] = t / tuples * perBatch;
    for (int64_t k = 0; k < m; ++k) {
      int64_t v = 0;
      ACCELC_TRY(readIndex(idx, t * m + k, data.dim(b + k), v, c));
      targets[t] += v * st[b + k];
    }
  }
  return Status::ok();
}

/// A scatter's reduction of `was` with update u. Integers wrap (unsigned
/// arithmetic: no signed overflow); bools add as or and multiply as and.
template <typename T>
T combine(ScatterReduction r, T was, T u, bool isBool) {
  switch (r) {
    case ScatterReduction::kNone:
      return u;
    case ScatterReduction::kAdd:
      if constexpr (std::is_floating_point_v<T>)
        return was + u;
      else
        return isBool ? T(was || u) : T(static_cast<uint64_t>(was) + static_cast<uint64_t>(u));
    case ScatterReduction::kMul:
      if constexpr (std::is_floating_point_v<T>)
        return was * u;
      else
        return isBool ? T(was && u) : T(static_cast<uint64_t>(was) * static_cast<uint64_t>(u));
  }
  return u;
}

/// Applies update slice t (`slice` elements) at out offset targets[t], in order
/// (ONNX leaves duplicate indices without reduction undefined: the last wins).
template <typename T>
void applyUpdates(ScatterReduction r, const Tensor& upd, const Ints& targets, int64_t slice, Tensor& out) {
  const bool isBool = out.dtype() == DType::kBool;
  const T* u = upd.data<T>();
  T* o = out.data<T>();
  for (size_t t = 0; t < targets.size(); ++t)
    for (int64_t s = 0; s < slice; ++s) o[targets[t] + s] = combine(r, o[targets[t] + s], u[t * slice + s], isBool);
}

/// The output of a scatter: a copy of the data with the updates applied.
Status scatterInto(const ScatterAttrs& a, const Ints& targets, int64_t slice, Ctx& c) {
  const Tensor &data = c.in(0), &upd = c.in(2);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(data.dtype(), data.shape()));
  out.bytes() = data.bytes();
  visitDType(data.dtype(), [&](auto z) { applyUpdates<decltype(z)>(a.reduction, upd, targets, slice, out); });
  c.out(0) = std::move(out);
  return Status::ok();
}

/// Copies `slice` data elements from each target offset, one after another.
Status gatherInto(const Tensor& data, const Ints& targets, int64_t slice, const Shape& shape, Ctx& c) {
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(data.dtype(), shape));
  const int64_t n = slice * support::dtypeBytes(data.dtype());
  if (n > 0)  // an empty slice has no byte to point at
    for (size_t t = 0; t < targets.size(); ++t)
      std::memcpy(&out.bytes()[t * n], &data.bytes()[targets[t] * support::dtypeBytes(data.dtype())], n);
  c.out(0) = std::move(out);
  return Status::ok();
}

/// The axis of an Elements op, normalized.
Status elementsAxis(int64_t axis, int64_t& out, Ctx& c) {
  out = axis;
  if (normAxis(out, c.in(0).rank())) return Status::ok();
  return c.fail("axis " + std::to_string(axis) + " is out of range for data of rank " + std::to_string(c.in(0).rank()));
}

}  // namespace

Status gatherElements(const AxisAttrs& a, Ctx& c) {
  const Tensor &data = c.in(0), &idx = c.in(1);
  ACCELC_TRY(c.expectType(1, {DType::kInt32, DType::kInt64}));
  int64_t axis = 0;
  ACCELC_TRY(elementsAxis(a.axis, axis, c));
  Ints targets;
  ACCELC_TRY(elementTargets(data, idx, axis, targets, c));
  return gatherInto(data, targets, 1, idx.shape(), c);
}

Status gatherND(const GatherNDAttrs& a, Ctx& c) {
  const Tensor &data = c.in(0), &idx = c.in(1);
  ACCELC_TRY(c.expectType(1, {DType::kInt32, DType::kInt64}));
  Ints targets;
  int64_t slice = 0;
  ACCELC_TRY(ndTargets(data, idx, a.batchDims, targets, slice, c));
  Shape shape(idx.shape().begin(), idx.shape().end() - 1);  // tuples, then the slice's axes
  shape.insert(shape.end(), data.shape().begin() + a.batchDims + idx.dim(-1), data.shape().end());
  return gatherInto(data, targets, slice, shape, c);
}

Status scatterElements(const ScatterAttrs& a, Ctx& c) {
  ACCELC_TRY(c.expectType(1, {DType::kInt32, DType::kInt64}));
  ACCELC_TRY(c.expectType(2, {c.in(0).dtype()}));
  if (c.in(2).shape() != c.in(1).shape())
    return c.fail("updates shape " + shapeStr(c.in(2).shape()) + " differs from indices shape " +
                  shapeStr(c.in(1).shape()));
  int64_t axis = 0;
  ACCELC_TRY(elementsAxis(a.axis, axis, c));
  Ints targets;
  ACCELC_TRY(elementTargets(c.in(0), c.in(1), axis, targets, c));
  return scatterInto(a, targets, 1, c);
}

Status scatterND(const ScatterAttrs& a, Ctx& c) {
  const Tensor &data = c.in(0), &idx = c.in(1);
  ACCELC_TRY(c.expectType(1, {DType::kInt64, DType::kInt32}));
  ACCELC_TRY(c.expectType(2, {data.dtype()}));
  Ints targets;
  int64_t slice = 0;
  ACCELC_TRY(ndTargets(data, idx, 0, targets, slice, c));
  Shape want(idx.shape().begin(), idx.shape().end() - 1);  // ONNX: indices.shape[:-1] + data.shape[m:]
  want.insert(want.end(), data.shape().begin() + idx.dim(-1), data.shape().end());
  if (c.in(2).shape() != want)
    return c.fail("updates shape " + shapeStr(c.in(2).shape()) + "; expected " + shapeStr(want));
  return scatterInto(a, targets, slice, c);
}

Status oneHot(const AxisAttrs& a, Ctx& c) {
  const Tensor &idx = c.in(0), &depthT = c.in(1), &vals = c.in(2);
  if (depthT.numel() != 1) return c.fail("OneHot depth must hold one element; found " + shapeStr(depthT.shape()));
  if (vals.rank() != 1 || vals.numel() != 2)
    return c.fail("OneHot values must be [off, on]; found shape " + shapeStr(vals.shape()));
  const double dd = std::trunc(depthT.at(0));  // ONNX casts depth to int64
  if (!(dd >= 0 && dd <= static_cast<double>(kMaxGeneratedElements)))
    return c.fail("OneHot depth " + std::to_string(depthT.at(0)) + " is negative or too large");
  const int64_t depth = static_cast<int64_t>(dd);
  int64_t axis = a.axis;
  if (!normAxis(axis, idx.rank() + 1))
    return c.fail("OneHot axis " + std::to_string(a.axis) + " is out of range for output rank " +
                  std::to_string(idx.rank() + 1));
  Shape shape = idx.shape();
  shape.insert(shape.begin() + axis, depth);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(vals.dtype(), shape));
  const int64_t eb = support::dtypeBytes(vals.dtype());
  for (int64_t o = 0; o < out.numel(); ++o) std::memcpy(&out.bytes()[o * eb], vals.bytes().data(), eb);
  int64_t inner = 1;
  for (int64_t d = axis; d < idx.rank(); ++d) inner *= idx.dim(d);
  for (int64_t i = 0; i < idx.numel(); ++i) {
    const double v = std::trunc(idx.at(i));
    if (!(v >= -dd && v < dd)) continue;  // ONNX: an index outside [-depth, depth-1] gives an all-off row
    const int64_t k = static_cast<int64_t>(v < 0 ? v + dd : v);
    std::memcpy(&out.bytes()[((i / inner * depth + k) * inner + i % inner) * eb], &vals.bytes()[eb], eb);
  }
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace accelc::runtime::kernels
