// compiler/report/report.cc — the per-layer report's figures.
#include "compiler/report/report.h"

#include "compiler/lower/cost.h"
#include "runtime/executor.h"
#include "runtime/ops.h"

namespace accelc::compiler {

namespace {

/// The figures of layer `l`, whose step is `step` (b.steps.size() when it has none).
support::Expected<LayerRow> layerRow(const runtime::Bundle& b, const isa::Target& t, const runtime::LayerInfo& l,
                                     size_t step, const MeasuredSteps* measured, int64_t& datapath) {
  const hwspec::HwSpec& hw = t.spec;
  const double peak = static_cast<double>(hw.peakMacsPerCycle());
  LayerRow r;
  r.layer = l.name, r.where = l.where, r.why = l.why;
  r.macs = l.macs, r.estCycles = l.cycles, r.dramBytes = l.dramBytes, r.rooflineCycles = runtime::rooflineCycles(l, hw);
  r.utilizationPct = l.cycles ? 100.0 * l.macs / (peak * static_cast<double>(l.cycles)) : 0.0;
  if (step < b.steps.size() && b.steps[step].kind == runtime::Step::Kind::kAccel) {
    const isa::Program& program = b.programs[static_cast<size_t>(b.steps[step].program)];
    ACCELC_ASSIGN_OR_RETURN(lower::ProgramCycles pc, lower::programCycles(program, t));
    r.gemmAluCycles = pc.datapath;
    ACCELC_ASSIGN_OR_RETURN(int64_t dp, lower::datapathBound(l, program, t));
    datapath += dp;
  }
  if (measured && step < b.steps.size() && l.where == "accelerator") r.measuredCycles = measured->cycles[step];
  if (measured && step < b.steps.size() && l.where == "host") {
    r.hostMs = 1e3 * measured->seconds[step];
    r.hostKernel = measured->kernels[step];
  }
  return r;
}

/// The op kind a host step's time is reported under.
std::string hostKind(const runtime::Step& s) {
  return s.kind == runtime::Step::Kind::kHost ? std::string(runtime::opInfo(s.op).name) : "pack/unpack";
}

/// The coverage figures of `rep`'s layers and `b`'s host steps.
Coverage coverageOf(const runtime::Bundle& b, const BundleReport& rep, const MeasuredSteps* measured) {
  Coverage c;
  for (const LayerRow& r : rep.layers)
    if (r.where == "accelerator") c.accelMacs += r.macs;
  c.accelMacSharePct = rep.totalMacs ? 100.0 * static_cast<double>(c.accelMacs) / static_cast<double>(rep.totalMacs) : 100.0;
  for (size_t i = 0; i < b.steps.size(); ++i) {
    const runtime::Step& s = b.steps[i];
    if (s.kind == runtime::Step::Kind::kAccel) continue;
    const bool boundary = s.kind == runtime::Step::Kind::kHost &&
                          (s.op == runtime::OpKind::kQuantizeLinear || s.op == runtime::OpKind::kDequantizeLinear);
    c.quantBoundaries += boundary;
    ++c.hostSteps[hostKind(s)];
    if (measured) c.hostMs[hostKind(s)] += 1e3 * measured->seconds[i];
  }
  return c;
}

}  // namespace

support::Expected<BundleReport> bundleReport(const runtime::Bundle& b, const isa::Target& t,
                                             const MeasuredSteps* measured) {
  BundleReport rep;
  rep.hwspec = t.spec.name, rep.clockMhz = t.spec.clockMhz;
  const std::vector<size_t> stepOf = runtime::layerSteps(b);
  if (measured) {
    rep.accelMeasuredCycles = 0, rep.hostMs = 0.0, rep.packUnpackMs = 0.0;
    for (size_t i = 0; i < b.steps.size(); ++i)  // the host's share of moving between layouts
      if (b.steps[i].kind == runtime::Step::Kind::kPack || b.steps[i].kind == runtime::Step::Kind::kUnpack)
        *rep.packUnpackMs += 1e3 * measured->seconds[i];
  }
  for (size_t li = 0; li < b.layers.size(); ++li) {
    const size_t step = li < stepOf.size() ? stepOf[li] : b.steps.size();
    ACCELC_ASSIGN_OR_RETURN(LayerRow r, layerRow(b, t, b.layers[li], step, measured, rep.accelDatapathBoundCycles));
    if (r.measuredCycles) *rep.accelMeasuredCycles += *r.measuredCycles;
    if (r.hostMs) *rep.hostMs += *r.hostMs;
    if (r.where == "accelerator") rep.accelEstCycles += r.estCycles, rep.accelRooflineCycles += r.rooflineCycles;
    rep.totalRooflineCycles += r.rooflineCycles, rep.totalMacs += r.macs;
    rep.layers.push_back(std::move(r));
  }
  rep.coverage = coverageOf(b, rep, measured);
  return rep;
}

support::Expected<MeasuredSteps> measureSteps(const runtime::Bundle& b, runtime::Device& d, const std::string& name,
                                              runtime::HostKernels host) {
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> e, runtime::Executor::create(b, d, name, std::move(host)));
  std::vector<runtime::Tensor> in;
  for (int id : b.inputs) in.emplace_back(b.tensors[id].dtype, b.tensors[id].shape);
  // The second of two inferences: the first touches every buffer and cache line for the first time, which a
  // model served over many inferences does not pay each time (and the peers' timings do not count either).
  ACCELC_TRY(e->run(in).status());
  const std::vector<double> seconds = e->stats().stepSeconds;
  const std::vector<uint64_t> cycles = e->stats().stepCycles;
  ACCELC_TRY(e->run(in).status());
  MeasuredSteps m{e->stats().stepSeconds, e->stats().stepCycles, e->stats().stepKernel};
  for (size_t i = 0; i < m.seconds.size(); ++i) m.seconds[i] -= seconds[i], m.cycles[i] -= cycles[i];
  return m;
}

namespace {
bool measured(const BundleReport& r) { return r.hostMs.has_value(); }
}  // namespace

nlohmann::ordered_json reportJson(const BundleReport& r) {
  nlohmann::ordered_json rows = nlohmann::json::array();
  for (const LayerRow& l : r.layers) {
    nlohmann::ordered_json row{{"layer", l.layer},
                               {"where", l.where},
                               {"macs", l.macs},
                               {"est_cycles", l.estCycles},
                               {"dram_bytes", l.dramBytes},
                               {"roofline_cycles", l.rooflineCycles},
                               {"utilization_pct", l.utilizationPct}};
    if (l.gemmAluCycles) row["gemm_alu_cycles"] = *l.gemmAluCycles;
    if (l.measuredCycles) row["measured_cycles"] = *l.measuredCycles;
    if (l.hostMs) row["host_ms"] = *l.hostMs, row["host_kernel"] = l.hostKernel;
    row["why"] = l.why;
    rows.push_back(row);
  }
  nlohmann::ordered_json j{{"hwspec", r.hwspec},
                           {"layers", rows},
                           {"accelerator_est_cycles", r.accelEstCycles},
                           {"accelerator_roofline_cycles", r.accelRooflineCycles},
                           {"total_roofline_cycles", r.totalRooflineCycles},
                           {"total_macs", r.totalMacs}};
  j["accelerator_datapath_bound_cycles"] = r.accelDatapathBoundCycles;
  if (r.accelMeasuredCycles) j["accelerator_measured_cycles"] = *r.accelMeasuredCycles;
  if (r.hostMs) j["host_ms"] = *r.hostMs;
  if (r.packUnpackMs) j["pack_unpack_ms"] = *r.packUnpackMs;
  const Coverage& c = r.coverage;
  j["coverage"] = {{"accelerator_macs", c.accelMacs},
                   {"accelerator_mac_share_pct", c.accelMacSharePct},
                   {"quantize_dequantize_boundaries", c.quantBoundaries},
                   {"host_steps_by_op", c.hostSteps}};
  if (measured(r)) j["coverage"]["host_ms_by_op"] = c.hostMs;
  return j;
}

}  // namespace accelc::compiler
