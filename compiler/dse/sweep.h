// compiler/dse/sweep.h — a design-space sweep (docs/dse.md): a base hwspec,
// the keys to vary with a list or a range of values each, and optionally a
// board whose part the resources are estimated on. Its points are every
// combination of the values, numbered with the last key varying fastest; a
// point's hwspec is the base with its values.
//
//   sweep: 1
//   base: vta-default            # a preset, or a hwspec file next to this one
//   board: pynq-z1               # optional
//   vary:
//     timing.alu_ii: [1, 2]
//     dram.latency_cycles: {from: 32, to: 128, times: 2}
//     buffers.acc: [64KiB, 128KiB]
//
// A sweep is validated like a hwspec before anything runs: every error is
// located in the file. A point whose values the hwspec schema refuses (a
// buffer too small for a tile, a block the ISA cannot encode) is not an
// error of the sweep: evaluating it records why.
#ifndef ACCELC_COMPILER_DSE_SWEEP_H_
#define ACCELC_COMPILER_DSE_SWEEP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hwspec/hwspec.h"
#include "support/status.h"

namespace accelc::compiler::dse {

/// The most points a sweep may have, and values one key may take.
inline constexpr int64_t kMaxPoints = 100000, kMaxValues = 10000;

/// One varied key: its dotted hwspec key and its values as YAML scalars.
struct SweepAxis {
  std::string key;                  ///< "timing.alu_ii", "clock_mhz"
  std::vector<std::string> values;  ///< as written ("64KiB", "2", "true")
};

struct Sweep {
  std::string path;      ///< the sweep file
  std::string base;      ///< the base hwspec as written
  std::string board;     ///< "" or the board: a bundled name, or a file (placed beside the sweep)
  std::string baseYaml;  ///< the base's canonical YAML
  std::string baseDir;   ///< the base hwspec's folder ("" for a preset): where its ISA file is found
  std::vector<SweepAxis> axes;
  int64_t points() const;
};

/// Reads and validates the sweep file at `path`.
support::Expected<Sweep> loadSweep(const std::string& path);
/// Validates sweep text; `path` names it in errors and places relative files.
support::Expected<Sweep> parseSweep(const std::string& text, const std::string& path);

/// Point `i`'s value of each axis, in axis order.
std::vector<std::string> pointValues(const Sweep& s, int64_t i);
/// Point `i` as "key=value, key=value" ("base" for a sweep without axes).
std::string describePoint(const Sweep& s, int64_t i);
/// Point `i`'s hwspec: the base with its values, validated as a hwspec; the
/// error names the point when the schema refuses them.
support::Expected<hwspec::HwSpec> pointHwSpec(const Sweep& s, int64_t i);

}  // namespace accelc::compiler::dse

#endif  // ACCELC_COMPILER_DSE_SWEEP_H_
