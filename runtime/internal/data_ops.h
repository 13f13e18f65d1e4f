// runtime/internal/data_ops.h — helpers shared by the data-movement kernels
// (data_ops.cc) and the index kernels they dispatch to (gather_scatter.cc).
#ifndef ACCELC_RUNTIME_INTERNAL_DATA_OPS_H_
#define ACCELC_RUNTIME_INTERNAL_DATA_OPS_H_

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

/// The largest element count that a size read from data (Range's count,
/// OneHot's depth) may reach: support::checkedShapeElements' bound.
constexpr int64_t kMaxGeneratedElements = int64_t{1} << 40;

/// Steps a row-major multi-index over `shape`; false once it wraps to all zeros.
bool nextIndex(Shape& idx, const Shape& shape);

// The index ops, in gather_scatter.cc.
Status gatherElements(const AxisAttrs& a, Ctx& c);
Status gatherND(const GatherNDAttrs& a, Ctx& c);
Status scatterElements(const ScatterAttrs& a, Ctx& c);
Status scatterND(const ScatterAttrs& a, Ctx& c);
Status oneHot(const AxisAttrs& a, Ctx& c);

}  // namespace accelc::runtime::kernels

#endif  // ACCELC_RUNTIME_INTERNAL_DATA_OPS_H_
