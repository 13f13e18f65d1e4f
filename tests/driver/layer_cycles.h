// tests/driver/layer_cycles.h — pairs a bundle's accelerator layers with the
// cycles their steps took on a run.
#ifndef ACCELC_TESTS_DRIVER_LAYER_CYCLES_H_
#define ACCELC_TESTS_DRIVER_LAYER_CYCLES_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/bundle.h"
#include "runtime/executor.h"

namespace accelc::testing {

/// Each accelerator layer of `b` with the cycles its step took (steps are the
/// layers in order, with pack and unpack steps between).
inline std::vector<std::pair<const runtime::LayerInfo*, uint64_t>> acceleratorLayers(const runtime::Bundle& b,
                                                                                    const runtime::RunStats& stats) {
  std::vector<std::pair<const runtime::LayerInfo*, uint64_t>> out;
  size_t layer = 0;
  for (size_t i = 0; i < b.steps.size(); ++i) {
    const runtime::Step::Kind k = b.steps[i].kind;
    if (k == runtime::Step::Kind::kPack || k == runtime::Step::Kind::kUnpack) continue;
    const runtime::LayerInfo& l = b.layers[layer++];
    if (k == runtime::Step::Kind::kAccel) out.push_back({&l, stats.stepCycles[i]});
  }
  return out;
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_DRIVER_LAYER_CYCLES_H_
