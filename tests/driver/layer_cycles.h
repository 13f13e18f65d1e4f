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
  const std::vector<size_t> steps = runtime::layerSteps(b);
  for (size_t li = 0; li < b.layers.size(); ++li)
    if (steps[li] < b.steps.size() && b.steps[steps[li]].kind == runtime::Step::Kind::kAccel)
      out.push_back({&b.layers[li], stats.stepCycles[steps[li]]});
  return out;
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_DRIVER_LAYER_CYCLES_H_
