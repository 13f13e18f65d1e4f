// compiler/report/report.h — the per-layer report of a bundle: MACs,
// estimated cycles, DRAM bytes, roofline bound, utilization, the datapath
// bound of accelerator layers and, after a measured inference, each
// accelerator layer's cycles and each host layer's wall time.
//
// The roofline bound covers every layer, host layers included. An
// accelerator layer's datapath bound is its roofline bound or, when larger,
// its program's GEMM and ALU cycles, which the compute unit spends one after
// the other. The coverage says how much of the model the accelerator runs:
// its share of the MACs, the quantize/dequantize boundaries, and the host
// steps by op kind. The CLI prints the report; reportJson is its
// machine-readable form.
#ifndef ACCELC_COMPILER_REPORT_REPORT_H_
#define ACCELC_COMPILER_REPORT_REPORT_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "isa/target.h"
#include "runtime/bundle.h"
#include "runtime/host_kernels.h"
#include "runtime/device.h"
#include "support/status.h"

namespace accelc::compiler {

/// What one measured inference gave, per bundle step.
struct MeasuredSteps {
  std::vector<double> seconds;   ///< per bundle step: wall time
  std::vector<uint64_t> cycles;  ///< per bundle step: device cycles (accelerator steps)
  std::vector<std::string> kernels;  ///< per bundle step: what ran a host step (runtime/host_kernels.h)
};

/// One layer of the report.
struct LayerRow {
  std::string layer, where, why;  ///< name, "accelerator" or "host", the partitioner's reason
  int64_t macs = 0, estCycles = 0, dramBytes = 0, rooflineCycles = 0;
  double utilizationPct = 0.0;             ///< of the peak MACs over the estimated cycles
  std::optional<int64_t> gemmAluCycles;    ///< accelerator layers: their program's GEMM and ALU cycles
  std::optional<uint64_t> measuredCycles;  ///< measured accelerator layers
  std::optional<double> hostMs;            ///< measured host layers
  std::string hostKernel;                  ///< measured host layers: what ran them
};

/// How much of a model the accelerator covers.
struct Coverage {
  int64_t accelMacs = 0;          ///< MACs of accelerator layers
  double accelMacSharePct = 0.0;  ///< their share of every layer's MACs (100 for a model without MACs)
  int64_t quantBoundaries = 0;    ///< QuantizeLinear and DequantizeLinear steps: float <-> int8 crossings
  std::map<std::string, int64_t> hostSteps;  ///< host steps per op kind ("pack/unpack" for layout moves)
  std::map<std::string, double> hostMs;      ///< after a measured inference: host wall ms per op kind
};

/// The whole report.
struct BundleReport {
  std::string hwspec;
  int64_t clockMhz = 0;
  std::vector<LayerRow> layers;
  int64_t accelEstCycles = 0, accelRooflineCycles = 0, totalRooflineCycles = 0, totalMacs = 0;
  int64_t accelDatapathBoundCycles = 0;         ///< summed over accelerator layers
  std::optional<uint64_t> accelMeasuredCycles;  ///< after a measured inference
  std::optional<double> hostMs, packUnpackMs;   ///< after a measured inference
  Coverage coverage;                            ///< the accelerator's share of the model
};

/// The report of `b` for `t`, with the figures of `measured` when given.
support::Expected<BundleReport> bundleReport(const runtime::Bundle& b, const isa::Target& t,
                                             const MeasuredSteps* measured = nullptr);

/// One inference of `b` with zero inputs on `d`, the second of two (warm): per
/// step, wall seconds and device cycles; host steps with a kernel in `host`
/// run on it, the others on their reference kernels.
support::Expected<MeasuredSteps> measureSteps(const runtime::Bundle& b, runtime::Device& d, const std::string& name,
                                              runtime::HostKernels host = {});

/// The report as JSON (the --json form of accelc report).
nlohmann::ordered_json reportJson(const BundleReport& r);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_REPORT_REPORT_H_
