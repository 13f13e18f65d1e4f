// compiler/driver/place_by_cost.h — `--placement cost`: the partition weighed
// against the host.
#ifndef ACCELC_COMPILER_DRIVER_PLACE_BY_COST_H_
#define ACCELC_COMPILER_DRIVER_PLACE_BY_COST_H_

#include "compiler/driver/compile.h"
#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// Partitions by capability (partition.h), then weighs each region of
/// accelerator layers (those joined by values one writes and another reads):
/// on the accelerator, its layers' estimated cycles at the hwspec's clock
/// plus packing the values it reads from the host and unpacking those it
/// hands back; on the host, its steps' estimated time (`cost`). A region the
/// host runs faster moves there, and the partition is made again with it on
/// the host. Every node of a weighed region says both estimates in its reason.
support::Status placeByCost(Lowering& s, const HostCost& cost);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_PLACE_BY_COST_H_
