// compiler/report/html_report.h — the bundle report as one self-contained
// HTML page (`accelc report BUNDLE --html FILE`): the per-layer table, a
// roofline plot, and after a measured inference the per-unit timeline.
//
// The roofline plot puts each accelerator layer with MACs at its arithmetic
// intensity (MACs per byte of DRAM it moves) and its attained MACs per cycle
// (measured cycles when there are, else estimated), under the hwspec's roof:
// the GEMM core's peak and the DRAM port's bytes per cycle. Layers without
// MACs (pools, additions) have no intensity and are left out of it. The
// timeline draws, for one inference on the cycle model, the span of each
// accelerator layer and when the load, compute and store units were busy,
// merged at the plot's resolution.
#ifndef ACCELC_COMPILER_REPORT_HTML_REPORT_H_
#define ACCELC_COMPILER_REPORT_HTML_REPORT_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/report/report.h"
#include "hwspec/hwspec.h"
#include "support/status.h"

namespace accelc::compiler {

/// One inference on the cycle model, as the timeline draws it.
struct Timeline {
  struct Span {
    std::string name;
    uint64_t start = 0, end = 0;  ///< cycles from the inference's start
  };
  uint64_t cycles = 0;                ///< the inference's accelerator cycles
  std::vector<Span> layers;           ///< one per accelerator step, in order
  std::array<std::vector<std::pair<uint64_t, uint64_t>>, 3> busy;  ///< load, compute, store: [start, end) per instruction
};

/// The last inference of a cycle device's trace (Device::trace: Chrome JSON)
/// of a bundle with `layers` accelerator steps; an error when the trace has
/// fewer layers or does not parse.
support::Expected<Timeline> timelineOf(const std::string& traceJson, size_t layers);

/// The page: `r`'s totals and table, the roofline plot of its accelerator
/// layers on `hw`, and `t`'s timeline when given. Table rows are class
/// "layer", roofline marks class "mark", timeline layer spans class "span".
std::string bundleHtml(const BundleReport& r, const hwspec::HwSpec& hw, const std::optional<Timeline>& t,
                       const std::string& title);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_REPORT_HTML_REPORT_H_
