// compiler/driver/partition.h — the `partition` pass: where each node runs.
#ifndef ACCELC_COMPILER_DRIVER_PARTITION_H_
#define ACCELC_COMPILER_DRIVER_PARTITION_H_

#include "compiler/driver/lowering.h"

namespace accelc::compiler {

/// Gives every node a placement: an accelerator plan when its kind has an
/// accelerator form, the hwspec's GEMM shape suits it and its trial lowering
/// (at address 0, on the trial borders) encodes in the ISA's fields;
/// otherwise the host, with the reason. A node whose entry in `forced` is
/// not empty stays on the host with that reason (the placement by cost).
support::Status partition(Lowering& s, const std::vector<std::string>& forced = {});

/// Places every node on the host with reason `why` (a whole model compiled for the host).
void placeOnHost(Lowering& s, const std::string& why);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_PARTITION_H_
