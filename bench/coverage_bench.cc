// bench/coverage_bench.cc — how much of each model of the zoo the accelerator
// covers, and what the host costs beside it: every model compiled for
// vta-default (calibrated on its own input), reported (compiler/report/
// report.h), and run once with zero inputs on the SystemC cycle model. One
// row per model: MACs and the accelerator's share, the quantize/dequantize
// boundaries, the accelerator layers' measured cycles against their roofline
// and datapath bounds, accelerator ms at the hwspec clock, the measured host
// ms (every host step, pack/unpack included) against it, the three costliest
// host op kinds, and onnxruntime's time for the float model (one thread).
// Then every depthwise convolution of the models (one channel per group) on
// its own: measured cycles against its roofline bound (targets: >= 25% at
// stride 1, >= 40% at stride 2), with the model's own requantization.
//
// A plain program rather than a Google Benchmark: a row holds text (the host
// op kinds) and is measured once. Host times are wall times of this build on
// this machine.
//
//   coverage_bench [--json FILE] [MODEL ...]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/frontend/compile_model.h"
#include "compiler/graph/graph_text.h"
#include "compiler/report/report.h"
#include "hwspec/hwspec.h"
#include "runtime/sim_devices/make_device.h"
#include "bench/zoo_util.h"
#include "support/npy.h"

namespace accelc {
namespace {

using namespace bench;  // NOLINT: the zoo helpers

const char* const kModels[] = {"mobilenet_v3_small", "mobilenet_v2", "mnasnet0_5",         "squeezenet1_0",
                               "inception_v3",       "densenet121",  "shufflenet_v2_x0_5", "transformer_encoder"};

/// One depthwise convolution of a model, measured.
struct DepthwiseRow {
  std::string model, layer;
  int64_t channels = 0, side = 0, kernel = 0, stride = 1, roofline = 0;
  uint64_t cycles = 0;
};

/// One model's row.
struct Row {
  std::string model;
  int64_t macs = 0, boundaries = 0, roofline = 0, datapath = 0;
  double accelSharePct = 0, accelMs = 0, hostMs = 0, ortMs = -1;
  uint64_t cycles = 0;
  std::vector<std::pair<std::string, double>> topHost;  ///< the three costliest host op kinds, ms
  std::vector<DepthwiseRow> depthwise;                  ///< its depthwise convolutions
};


/// `measured` as a percentage of `bound` cycles (how close to the bound the model ran).
double pctOf(int64_t bound, uint64_t measured) {
  return measured ? 100.0 * static_cast<double>(bound) / static_cast<double>(measured) : 0.0;
}

/// The row of a measured report.
Row rowOf(const std::string& name, const compiler::BundleReport& r) {
  Row row;
  row.model = name, row.macs = r.totalMacs, row.accelSharePct = r.coverage.accelMacSharePct;
  row.boundaries = r.coverage.quantBoundaries, row.cycles = r.accelMeasuredCycles.value_or(0);
  row.roofline = r.accelRooflineCycles, row.datapath = r.accelDatapathBoundCycles;
  row.accelMs = static_cast<double>(row.cycles) / static_cast<double>(r.clockMhz) / 1e3;
  // Every host step, pack/unpack included (BundleReport::hostMs counts host layers only).
  for (const auto& [kind, ms] : r.coverage.hostMs) row.hostMs += ms, row.topHost.emplace_back(kind, ms);
  std::stable_sort(row.topHost.begin(), row.topHost.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (row.topHost.size() > 3) row.topHost.resize(3);
  return row;
}

/// Compiles, reports and measures zoo model `name` on `device`.
support::Expected<Row> measureModel(const std::string& name, const isa::Target& t, runtime::Device& device) {
  const std::string model = zooModel(name);
  if (model.empty())
    return support::error(support::Location::file(name),
                          "models/zoo/export_zoo.py could not export it (a key of its MODELS?)");
  compiler::CompileOptions o;
  o.calibrate = kZoo + "/" + name + "_input.npy";
  ACCELC_ASSIGN_OR_RETURN(runtime::Bundle b, compiler::compileModel(model, t, o));
  ACCELC_ASSIGN_OR_RETURN(compiler::MeasuredSteps m, compiler::measureSteps(b, device, name + ".acx"));
  ACCELC_ASSIGN_OR_RETURN(compiler::BundleReport r, compiler::bundleReport(b, t, &m));
  Row row = rowOf(name, r);
  ACCELC_ASSIGN_OR_RETURN(compiler::Graph g, compiler::parseGraph(b.graphText, name));
  for (const compiler::Node& n : g.nodes) {
    if (n.kind != runtime::OpKind::kQConv) continue;
    const auto& a = std::get<runtime::QConvAttrs>(n.attrs);
    const compiler::Shape& x = g.values[n.inputs[0]].shape;
    if (a.group == 1 || a.group != x[1] || g.values[n.outputs[0]].shape[1] != x[1]) continue;
    for (const compiler::LayerRow& l : r.layers)
      if (l.layer == n.name && l.measuredCycles)
        row.depthwise.push_back({name, n.name, x[1], x[2], g.values[n.inputs[1]].shape[2], a.strides.empty() ? 1 : a.strides[0], l.rooflineCycles,
                                 *l.measuredCycles});
  }
  ACCELC_ASSIGN_OR_RETURN(support::NpyArray x, support::readNpy(o.calibrate));
  const double s = ortSecondsPerInference(model, x.shape, 10);
  row.ortMs = s < 0 ? -1 : 1e3 * s;
  return row;
}

void printHeader() {
  std::printf("%-20s %12s %7s %5s %12s %12s %7s %12s %7s %9s %9s %7s %9s  %s\n", "model", "MACs", "accel%", "q/dq",
              "cycles", "roofline", "%roof", "datapath", "%dp", "accel ms", "host ms", "host%", "ort ms",
              "largest host op kinds (ms)");
}

void printRow(const Row& r) {
  std::printf("%-20s %12lld %7.2f %5lld %12llu %12lld %7.1f %12lld %7.1f %9.3f %9.3f %7.1f %9.3f ", r.model.c_str(),
              static_cast<long long>(r.macs), r.accelSharePct, static_cast<long long>(r.boundaries),
              static_cast<unsigned long long>(r.cycles), static_cast<long long>(r.roofline),
              pctOf(r.roofline, r.cycles), static_cast<long long>(r.datapath), pctOf(r.datapath, r.cycles), r.accelMs,
              r.hostMs, r.accelMs > 0 ? 100.0 * r.hostMs / r.accelMs : 0.0, r.ortMs);
  for (const auto& [kind, ms] : r.topHost) std::printf(" %s %.3f;", kind.c_str(), ms);
  std::printf("\n");
  std::fflush(stdout);
}

/// The target of hwspec preset `name`.
support::Expected<isa::Target> presetTarget(const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(hwspec::HwSpec spec, hwspec::loadHwSpec(name));
  return isa::loadTarget(spec);
}

nlohmann::ordered_json jsonOf(const Row& r) {
  nlohmann::ordered_json top = nlohmann::json::array();
  for (const auto& [kind, ms] : r.topHost) top.push_back({{"op", kind}, {"ms", ms}});
  return {{"model", r.model},
          {"hwspec", "vta-default"},
          {"total_macs", r.macs},
          {"accelerator_mac_share_pct", r.accelSharePct},
          {"quantize_dequantize_boundaries", r.boundaries},
          {"accelerator_measured_cycles", r.cycles},
          {"accelerator_roofline_cycles", r.roofline},
          {"pct_of_roofline", pctOf(r.roofline, r.cycles)},
          {"accelerator_datapath_bound_cycles", r.datapath},
          {"pct_of_datapath_bound", pctOf(r.datapath, r.cycles)},
          {"accelerator_ms", r.accelMs},
          {"host_ms", r.hostMs},
          {"host_pct_of_accelerator", r.accelMs > 0 ? 100.0 * r.hostMs / r.accelMs : 0.0},
          {"largest_host_ops", top},
          {"onnxruntime_ms", r.ortMs}};
}

}  // namespace
}  // namespace accelc

int main(int argc, char** argv) {
  using namespace accelc;
  std::string jsonPath;
  std::vector<std::string> models;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else
      models.push_back(a);
  }
  if (models.empty()) models.assign(std::begin(kModels), std::end(kModels));
  auto t = presetTarget("vta-default");
  if (!t) return std::cerr << t.diag().str() << "\n", 1;
  // The cycle model holds one hwspec per process: one device serves every model.
  auto device = runtime::makeDevice(runtime::Engine::kCycle, *t);
  if (!device) return std::cerr << device.diag().str() << "\n", 1;
  std::ofstream json;
  if (!jsonPath.empty()) json.open(jsonPath);
  printHeader();
  int rc = 0;
  std::vector<DepthwiseRow> depthwise;
  for (const std::string& name : models) {
    auto row = measureModel(name, *t, **device);
    if (!row) {
      std::cerr << row.diag().str() << "\n";
      rc = 1;
      continue;
    }
    printRow(*row);
    depthwise.insert(depthwise.end(), row->depthwise.begin(), row->depthwise.end());
    if (json.is_open()) json << jsonOf(*row).dump() << "\n" << std::flush;
  }
  std::printf("\n%-20s %-50s %5s %5s %3s %3s %10s %10s %7s %6s\n", "model", "depthwise layer", "C", "side", "k", "s",
              "cycles", "roofline", "%roof", "target");
  for (const DepthwiseRow& d : depthwise)
    std::printf("%-20s %-50s %5lld %5lld %3lld %3lld %10llu %10lld %7.1f %6s\n", d.model.c_str(), d.layer.c_str(),
                static_cast<long long>(d.channels), static_cast<long long>(d.side), static_cast<long long>(d.kernel),
                static_cast<long long>(d.stride),
                static_cast<unsigned long long>(d.cycles), static_cast<long long>(d.roofline),
                pctOf(d.roofline, d.cycles), d.stride == 1 ? ">=25" : ">=40");
  std::printf(
      "cycles and bounds: accelerator layers; %%roof, %%dp: the bound as a percentage of the measured cycles; "
      "accel ms at %lld MHz; host ms: every host step incl. pack/unpack, one inference of this build; "
      "host%%: host ms / accel ms (target < 10); ort ms: onnxruntime, float model, one thread\n",
      static_cast<long long>(t->spec.clockMhz));
  return rc;
}
