// runtime/internal/data_ops.h — helpers shared by the data-movement kernels
// (data_ops.cc) and the index kernels they dispatch to (gather_scatter.cc).
#ifndef ACCELC_RUNTIME_INTERNAL_DATA_OPS_H_
#define ACCELC_RUNTIME_INTERNAL_DATA_OPS_H_

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

/// The largest element count that a size read from data (Range's count,
/// OneHot's depth) may reach: support::checkedShapeElements' bound.
constexpr int64_t kMaxGeneratedElements = int64_t{1} << 40;

/// The values of an integer tensor (a shape, repeats, pads) as int64.
Ints intsOf(const Tensor& t);

/// Steps a row-major multi-index over `shape`; false once it wraps to all zeros.
bool nextIndex(Shape& idx, const Shape& shape);

/// Normalizes an index read from a tensor into [0, dim); false when it is
/// outside [-dim, dim) (ONNX: negative indices count from the end).
inline bool normIndex(int64_t& i, int64_t dim) { return normAxis(i, dim); }

// The index ops, in gather_scatter.cc.
Status gatherElements(const AxisAttrs& a, Ctx& c);
Status gatherND(const GatherNDAttrs& a, Ctx& c);
Status scatterElements(const ScatterAttrs& a, Ctx& c);
Status scatterND(const ScatterAttrs& a, Ctx& c);
Status oneHot(const AxisAttrs& a, Ctx& c);

}  // namespace accelc::runtime::kernels

#endif  // ACCELC_RUNTIME_INTERNAL_DATA_OPS_H_
