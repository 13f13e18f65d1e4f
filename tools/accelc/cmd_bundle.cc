// tools/accelc/cmd_bundle.cc — `accelc compile`, `accelc report`, and running bundles.
#include <sys/stat.h>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "compiler/driver/pipeline.h"
#include "compiler/engine/reference.h"
#include "compiler/frontend/compile_model.h"
#include "compiler/host/host_cost.h"
#include "compiler/host/library.h"
#include "compiler/host/step_kernels.h"
#include "compiler/graph/graph_text.h"
#include "compiler/report/html_report.h"
#include "compiler/report/report.h"
#include "compiler/tune/tune_log.h"
#include "isa/disassembler.h"
#include "runtime/carried_code.h"
#include "runtime/deploy_device.h"
#include "runtime/executor.h"
#include "runtime/sim_devices/make_device.h"
#include "support/npy.h"
#include "support/yaml.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

namespace {

using support::Expected;
using support::Status;

/// Prints the report's table, one line per layer.
void printRows(const compiler::BundleReport& r, bool measured) {
  std::cout << std::left << std::setw(28) << "layer" << std::setw(12) << "where" << std::right << std::setw(12)
            << "MACs" << std::setw(12) << "est.cycles" << std::setw(12) << "roofline" << std::setw(8) << "util%"
            << (measured ? "    measured   host ms  host kernel" : "") << "\n";
  for (const compiler::LayerRow& l : r.layers) {
    std::cout << std::left << std::setw(28) << l.layer.substr(0, 27) << std::setw(12) << l.where << std::right
              << std::setw(12) << l.macs << std::setw(12) << l.estCycles << std::setw(12) << l.rooflineCycles
              << std::setw(8) << std::fixed << std::setprecision(1) << l.utilizationPct;
    if (l.measuredCycles) std::cout << std::setw(12) << *l.measuredCycles;
    if (l.hostMs) std::cout << std::setw(22) << std::setprecision(3) << *l.hostMs << "  " << l.hostKernel;
    std::cout << "\n";
  }
}

/// Prints the coverage: the accelerator's share of the MACs, the float/int8
/// boundaries, and the host steps (and, measured, their time) by op kind.
void printCoverage(const compiler::Coverage& c, bool measured) {
  std::cout << "coverage: " << std::fixed << std::setprecision(2) << c.accelMacSharePct << "% of MACs on the accelerator ("
            << c.accelMacs << "), " << c.quantBoundaries << " quantize/dequantize boundaries\nhost steps by op:";
  for (const auto& [kind, n] : c.hostSteps) {
    std::cout << " " << kind << " " << n;
    if (measured) std::cout << " (" << std::setprecision(3) << c.hostMs.at(kind) << " ms)";
    std::cout << ";";
  }
  std::cout << "\n";
}

/// Prints the per-layer report of `b` (compiler/report/report.h), with the
/// figures of a measured inference when given.
Status printReport(const runtime::Bundle& b, const isa::Target& t, bool json,
                   const compiler::MeasuredSteps* measured = nullptr) {
  ACCELC_ASSIGN_OR_RETURN(compiler::BundleReport r, compiler::bundleReport(b, t, measured));
  if (json) {
    std::cout << compiler::reportJson(r).dump(2) << "\n";
    return Status::ok();
  }
  printRows(r, measured != nullptr);
  printCoverage(r.coverage, measured != nullptr);
  std::cout << "accelerator layers: " << r.accelEstCycles << " estimated cycles against a roofline bound of "
            << r.accelRooflineCycles << "\nall layers: roofline bound " << r.totalRooflineCycles << " cycles ("
            << std::setprecision(3)
            << static_cast<double>(r.totalRooflineCycles) / static_cast<double>(r.clockMhz) / 1e3 << " ms at "
            << r.clockMhz << " MHz)\n";
  if (!r.accelMeasuredCycles) return Status::ok();
  const int64_t measuredCycles = static_cast<int64_t>(*r.accelMeasuredCycles);
  auto pct = [&](int64_t bound) { return std::to_string(measuredCycles ? 100 * bound / measuredCycles : 0); };
  std::cout << "accelerator layers: " << measuredCycles
            << " cycles measured on the cycle model: " << pct(r.accelRooflineCycles) << "% of their roofline bound, "
            << pct(r.accelDatapathBoundCycles) << "% of their datapath bound (" << r.accelDatapathBoundCycles
            << " cycles: per layer the roofline or the GEMM and ALU cycles)\n"
            << "host layers: " << std::setprecision(3) << *r.hostMs << " ms measured, pack/unpack " << *r.packUnpackMs
            << " ms (one inference on this machine)\n";
  return Status::ok();
}

/// Kernels for `b`'s host steps: "bundle" loads the code the bundle carries
/// (compiled in-process when it carries none), "jit" compiles them in-process
/// (the code lives in `jit`), "reference" gives none.
Expected<runtime::HostKernels> hostKernelsFor(const runtime::Bundle& b, const std::string& path, const std::string& hostCode,
                                              int threads, std::unique_ptr<compiler::host::HostJit>& jit) {
  if (hostCode == "reference") return runtime::HostKernels{};
  auto pool = std::make_shared<support::ThreadPool>(threads);
  if (hostCode == "bundle" && runtime::carriesHostCode(b)) return runtime::carriedHostKernels(b, path, pool);
  ACCELC_ASSIGN_OR_RETURN(jit, compiler::host::HostJit::create());
  return compiler::host::generatedHostKernels(b, *jit, path, pool);
}

/// Runs one inference of `b` on the cycle model with zero inputs: per step,
/// wall seconds and accelerator cycles, host steps on `hostCode`'s kernels.
/// One inference of the bundle measured on the cycle model; with `timeline`, also what each unit did when.
Expected<compiler::MeasuredSteps> measureSteps(const runtime::CheckedBundle& c, const std::string& path,
                                               const std::string& hostCode,
                                               std::optional<compiler::Timeline>* timeline = nullptr) {
  runtime::DeviceOptions options;
  options.trace = timeline != nullptr;
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Device> device,
                          runtime::makeDevice(runtime::Engine::kCycle, c.target, options));
  std::unique_ptr<compiler::host::HostJit> jit;
  ACCELC_ASSIGN_OR_RETURN(runtime::HostKernels host, hostKernelsFor(c.bundle, path, hostCode, 1, jit));
  ACCELC_ASSIGN_OR_RETURN(compiler::MeasuredSteps m, compiler::measureSteps(c.bundle, *device, path, std::move(host)));
  if (timeline && device->trace()) {
    const size_t layers = static_cast<size_t>(std::count_if(c.bundle.steps.begin(), c.bundle.steps.end(), [](const runtime::Step& s) {
      return s.kind == runtime::Step::Kind::kAccel;
    }));
    if (layers > 0) {
      ACCELC_ASSIGN_OR_RETURN(*timeline, compiler::timelineOf(*device->trace(), layers));
    }
  }
  return m;
}

/// `accelc report --html`: the page, with the timeline of a measured inference.
Status writeHtmlReport(const runtime::CheckedBundle& c, const std::string& path, const compiler::MeasuredSteps* measured,
                       const std::optional<compiler::Timeline>& timeline, const std::string& out) {
  ACCELC_ASSIGN_OR_RETURN(compiler::BundleReport r, compiler::bundleReport(c.bundle, c.target, measured));
  ACCELC_TRY(support::writeTextFile(out, compiler::bundleHtml(r, c.target.spec, timeline, "accelc report: " + path)));
  std::cout << "wrote " << out << "\n";
  return Status::ok();
}

struct CompileArgs {
  std::string model, hw = "vta-default", out, calibrate, dumpAfter, target, host = "x86", cpu = "native", tuneLog,
                                                                            placement = "accelerator";
  std::vector<std::string> shapes;
  std::string window;  ///< --window, as given
  double percentile = 100.0;
  bool report = false, serialize = false, quantize = false, noHostCode = false;
};

/// Compiles `b`'s host steps for `t` into the library the bundle carries.
Status addHostCode(runtime::Bundle& b, const compiler::host::LibraryTarget& t, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(b.host, compiler::host::compileHostCode(b, t, name));
  compiler::host::noteHostKernels(b);
  if (b.host.kernels.empty()) return Status::ok();
  std::string features;
  for (const std::string& f : b.host.features) features += (features.empty() ? "" : " ") + f;
  std::cout << "host code: " << b.host.kernels.size() << " kernels for " << b.host.triple << " " << b.host.cpu << " ("
            << b.host.library.size() << " bytes; needs " << (features.empty() ? "no extensions" : features) << ")\n";
  return Status::ok();
}

Status compileCmd(const CompileArgs& a) {
  if (!a.target.empty()) {
    const std::string problem = compiler::hostTargetProblem(a.target);
    if (!problem.empty()) return support::error(support::Location(), problem);
  }
  if (a.quantize && a.target.empty()) return support::error(support::Location(), "--quantize asks for int8 on the host: it needs --target");
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, targetFor(a.hw));
  // The host code's target, checked before the model is read.
  ACCELC_ASSIGN_OR_RETURN(compiler::host::LibraryTarget host,
                          compiler::host::libraryTarget(a.target.empty() ? a.host : a.target, a.cpu));
  compiler::CompileOptions o;
  o.hostTarget = a.target, o.quantize = a.quantize;
  if (!a.window.empty()) {
    const std::optional<int64_t> bytes = positiveByteSize(a.window);
    if (!bytes)
      return support::error(support::Location(),
                            "--window '" + a.window + "': expected a positive byte count such as 134217728 or 128MiB");
    if (!a.target.empty())
      return support::error(support::Location(),
                            "--window limits the accelerator's DRAM: --target puts every layer "
                            "on the host");
    o.window = *bytes;
  }
  if (a.placement == "cost") {
    if (!a.target.empty())
      return support::error(support::Location(), "--placement cost weighs the accelerator against the host: "
                                                 "--target puts every layer on the host already");
    ACCELC_ASSIGN_OR_RETURN(compiler::host::HostSpeed speed, compiler::host::hostSpeed(a.host));
    const bool generated = !a.noHostCode;  // without code in the bundle a board runs the reference kernels
    o.hostCost = compiler::HostCost{speed.name,
                                    [speed, generated](runtime::OpKind k, int64_t macs, int64_t bytes) {
                                      return compiler::host::hostSeconds(speed, k, macs, bytes, generated);
                                    },
                                    speed.packBytes};
  }
  for (const std::string& s : a.shapes) {
    size_t eq = s.find('=');
    auto dims = eq == std::string::npos ? std::nullopt : support::parseShape(s.substr(eq + 1));
    if (!dims) return support::error(support::Location(), "--shape '" + s + "': expected NAME=DIMS");
    o.shapes[s.substr(0, eq)] = *dims;
  }
  o.calibrate = a.calibrate, o.percentile = a.percentile, o.serialize = a.serialize;
  std::vector<std::string> log;
  compiler::TunedSchedules tuned;
  const compiler::TuneHooks hooks{&tuned, nullptr};
  if (!a.tuneLog.empty()) {
    ACCELC_ASSIGN_OR_RETURN(std::vector<compiler::tune::TuneEntry> entries, compiler::tune::readTuneLog(a.tuneLog));
    tuned = compiler::tune::applicable(entries, t.spec, &log);
    log.push_back("tuning log " + a.tuneLog + ": " + std::to_string(tuned.size()) + " of its " +
                  std::to_string(entries.size()) + " entries apply to this hwspec and compiler build");
    o.tune = &hooks;
  }
  std::string dump;
  o.dumpAfter = a.dumpAfter, o.dump = &dump;
  ACCELC_ASSIGN_OR_RETURN(runtime::Bundle b, compiler::compileModel(a.model, t, o, &log));
  std::cout << dump;
  for (const std::string& l : log) std::cout << l << "\n";
  if (!a.noHostCode) ACCELC_TRY(addHostCode(b, host, a.out));
  ACCELC_TRY(runtime::saveBundleFile(a.out, b));
  int accel = 0;
  for (const runtime::Step& s : b.steps) accel += s.kind == runtime::Step::Kind::kAccel;
  std::cout << "wrote " << a.out << ": " << b.steps.size() << " steps (" << accel << " on the accelerator), "
            << b.window << " bytes of DRAM\n";
  if (a.report) ACCELC_TRY(printReport(b, t, false));
  return Status::ok();
}

Expected<runtime::Tensor> loadTensor(const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(support::NpyArray a, support::readNpy(path));
  runtime::Tensor t(a.dtype, a.shape);
  t.bytes() = a.data;
  return t;
}

}  // namespace

/// Top-1 accuracy of a [N, classes] output against int64 labels [N].
Expected<double> top1(const runtime::Tensor& logits, const runtime::Tensor& labels, const std::string& labelsPath) {
  if (logits.rank() != 2 || labels.numel() != logits.dim(0))
    return support::error(support::Location::file(labelsPath), "expected " + std::to_string(logits.rank() == 2 ? logits.dim(0) : 0) +
                                                                   " labels for an output of " + support::shapeStr(logits.shape()));
  int64_t correct = 0;
  for (int64_t r = 0; r < logits.dim(0); ++r) {
    int64_t best = 0;
    for (int64_t j = 1; j < logits.dim(1); ++j)
      if (logits.at(r * logits.dim(1) + j) > logits.at(r * logits.dim(1) + best)) best = j;
    correct += best == labels.intAt(r);
  }
  return 100.0 * static_cast<double>(correct) / static_cast<double>(logits.dim(0));
}

/// What the engine `kind` measured over a bundle's run, for the terminal.
std::string runStats(const runtime::RunStats& st, const std::string& kind, const hwspec::HwSpec& spec) {
  std::map<std::string, int> kernels;  // the bundle's host steps by what ran them
  for (const std::string& k : st.stepKernel)
    if (!k.empty()) ++kernels[k];
  std::string list;
  for (const auto& [k, n] : kernels) list += (list.empty() ? "" : ", ") + std::to_string(n) + " " + k;
  std::string stats = kind + ": " + std::to_string(st.accelSteps) + " accelerator steps, " +
                      std::to_string(st.hostSteps) + " host steps" + (list.empty() ? "" : " (kernels: " + list + ")") + ", " +
                      std::to_string(st.packSteps) + " pack/unpack steps";
  // The RTL counts cycles only; the simulators also count the work done.
  if (st.accel) stats += "; " + std::to_string(st.accel->macs) + " MACs on the accelerator";
  if (st.cycles && !st.accel) stats += "\n" + std::to_string(*st.cycles) + " cycles on the accelerator (RTL)";
  if (st.cycles && st.accel) {
    const double util =
        100.0 * static_cast<double>(st.accel->macs) /
        (static_cast<double>(spec.peakMacsPerCycle()) * static_cast<double>(std::max<uint64_t>(1, *st.cycles)));
    std::ostringstream line;
    line << "\n"
         << *st.cycles << " cycles on the accelerator, " << std::fixed << std::setprecision(1) << util
         << "% of its peak MACs";
    stats += line.str();
  }
  return stats;
}

Status runBundle(const std::string& path, const BundleRunOptions& opt) {
  const std::string &outDir = opt.outDir, &labels = opt.labels, &trace = opt.trace, &hostCode = opt.hostCode;
  ACCELC_ASSIGN_OR_RETURN(runtime::CheckedBundle checked, runtime::loadCheckedBundle(path));
  const runtime::Bundle& b = checked.bundle;
  const isa::Target& t = checked.target;
  std::vector<runtime::Tensor> in(b.inputs.size());
  std::vector<bool> given(b.inputs.size(), false);
  for (const std::string& s : opt.inputs) {
    size_t eq = s.find('=');
    if (eq == std::string::npos) return support::error(support::Location(), "--input '" + s + "': expected NAME=FILE.npy");
    bool found = false;
    for (size_t i = 0; i < b.inputs.size(); ++i) {
      if (b.tensors[b.inputs[i]].name != s.substr(0, eq)) continue;
      ACCELC_ASSIGN_OR_RETURN(in[i], loadTensor(s.substr(eq + 1)));
      given[i] = found = true;
    }
    if (!found) return support::error(support::Location::file(path), "the model has no input '" + s.substr(0, eq) + "'");
  }
  for (size_t i = 0; i < given.size(); ++i)
    if (!given[i]) {
      const runtime::TensorSlot& s = b.tensors[b.inputs[i]];
      return support::error(support::Location::node(path, s.name), "input '" + s.name + "' (" + support::dtypeName(s.dtype) +
                                                                       " " + support::shapeStr(s.shape) +
                                                                       ") was not given; pass --input " + s.name + "=FILE.npy");
    }
  std::optional<runtime::Tensor> labelData;  // read before any engine starts
  if (!labels.empty()) {
    ACCELC_ASSIGN_OR_RETURN(labelData, loadTensor(labels));
  }
  const bool hostOnly = std::none_of(b.steps.begin(), b.steps.end(),
                                     [](const runtime::Step& s) { return s.kind == runtime::Step::Kind::kAccel; });
  const std::string engine = !opt.engine.empty() ? opt.engine : hostOnly ? "host" : "ref";
  std::vector<runtime::Tensor> outs;
  std::string stats;
  if (engine == "ref") {
    ACCELC_ASSIGN_OR_RETURN(compiler::Graph g, compiler::parseGraph(b.graphText, path + ":graph"));
    ACCELC_ASSIGN_OR_RETURN(outs, compiler::runReferenceBatched(g, in));
  } else {
    runtime::DeviceOptions o;
    o.limits = opt.limits;
    o.checkDefined = opt.checkDefined;
    o.window = b.window;
    reportProgress(o.limits, engine);
    // A bundle without accelerator steps keeps only constants in the device's
    // memory (fsim's, which runs nothing here).
    const std::string name = engine == "host" ? "fsim" : engine;
    if (name == "fsim" || !runtime::isDeployDeviceName(name)) ACCELC_TRY(engineFor(name, trace, "", o).status());
    else if (!trace.empty()) return support::error(support::Location(), "--trace needs --engine cycle");
    ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Device> device, runtime::makeNamedDevice(name, t, o));
    std::unique_ptr<compiler::host::HostJit> jit;  // holds the kernels' code for the run
    ACCELC_ASSIGN_OR_RETURN(runtime::HostKernels host, hostKernelsFor(b, path, hostCode, opt.threads, jit));
    ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> ex,
                            runtime::Executor::create(b, *device, path, std::move(host)));
    ACCELC_ASSIGN_OR_RETURN(outs, ex->runBatched(in));
    if (!trace.empty()) ACCELC_TRY(writeTrace(trace, device->trace().value_or("")));
    stats = runStats(ex->stats(), engine == "host" ? "host" : device->kind(), t.spec);
  }
  if (!outDir.empty()) ::mkdir(outDir.c_str(), 0755);
  for (size_t i = 0; i < outs.size(); ++i) {
    const std::string& name = b.tensors[b.outputs[i]].name;
    std::cout << "output " << name << " " << support::dtypeName(outs[i].dtype()) << " " << support::shapeStr(outs[i].shape());
    if (!outDir.empty()) {
      const std::string file = outDir + "/" + support::npyFileName(name);
      ACCELC_TRY(support::writeNpy(file, {outs[i].dtype(), outs[i].shape(), outs[i].bytes()}));
      std::cout << " -> " << file;
    }
    std::cout << "\n";
  }
  if (!stats.empty()) std::cout << stats << "\n";
  if (!labels.empty() && !outs.empty()) {
    ACCELC_ASSIGN_OR_RETURN(double acc, top1(outs[0], *labelData, labels));
    std::cout << "top-1 accuracy (" << engine << "): " << std::fixed << std::setprecision(2) << acc << "% of "
              << outs[0].dim(0) << "\n";
  }
  return Status::ok();
}

void registerCompile(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("compile", "Compile an ONNX model for an accelerator into a bundle (.acx)");
  auto a = std::make_shared<CompileArgs>();
  cmd->add_option("model", a->model, "ONNX model file")->required();
  cmd->add_option("--hw", a->hw, "hwspec file or preset name")->capture_default_str();
  cmd->add_option("-o,--output", a->out, "bundle to write")->required();
  cmd->add_option("--calibrate", a->calibrate, "calibration inputs for a float model: FILE.npy or a directory of .npy");
  cmd->add_option("--percentile", a->percentile, "calibration range: this percentile of |x| (100 = min/max)")
      ->check(CLI::Range(50.0, 100.0));
  cmd->add_option("--shape", a->shapes, "NAME=DIMS binding a dynamic input shape");
  cmd->add_option("--target", a->target,
                  "compile the whole model for a host instead of the accelerator: x86, aarch64, armv7 or cuda (PTX; "
                  "a float model stays float and needs no calibration)");
  cmd->add_option("--host", a->host,
                  "the host an accelerator bundle's host steps run on: x86, aarch64 (MPSoC boards) or armv7 "
                  "(Zynq-7000 boards such as PYNQ-Z1)")
      ->check(CLI::IsMember({"x86", "aarch64", "armv7"}))
      ->capture_default_str();
  cmd->add_option("--placement", a->placement,
                  "accelerator: every layer the accelerator can run goes there; cost: a region of accelerator layers "
                  "goes to the host (--host) when the host's estimated time beats the accelerator's at the hwspec's "
                  "clock with the packing around it (each layer's reason gives both estimates)")
      ->check(CLI::IsMember({"accelerator", "cost"}))
      ->capture_default_str();
  cmd->add_flag("--quantize", a->quantize, "with --target: int8 on the host too (calibrated with --calibrate)");
  cmd->add_option("--cpu", a->cpu,
                  "the CPU the bundle's host code is built for: on x86, native (this machine) or an LLVM CPU name "
                  "such as x86-64-v3; on ARM, the boards' cores by default (cortex-a53, cortex-a9) or a name")
      ->capture_default_str();
  cmd->add_flag("--no-host-code", a->noHostCode, "carry no generated host code (a run compiles it in-process)");
  cmd->add_flag("--report", a->report, "print the per-layer report");
  cmd->add_flag("--serialize", a->serialize, "emit programs with all overlap between the units removed");
  cmd->add_option("--window", a->window,
                  "the most DRAM the bundle may use, such as a board's DMA pool (e.g. 128MiB): a model that needs "
                  "more fails to compile; default the hwspec's dram.window");
  cmd->add_option("--tune-log", a->tuneLog,
                  "schedules from accelc tune's log for the layers whose shape, hwspec and compiler build match "
                  "(an entry for another hwspec or build is ignored with a note)");
  cmd->add_option("--dump-after", a->dumpAfter,
                  "print a pass's result: the graph, placements, steps, DRAM plan, loop IR, ...");
  // Like --help: lists the pipeline and ends the command before its required options are checked.
  cmd->add_flag_callback(
         "--list-passes",
         [] {
           size_t width = 0;
           for (const compiler::PipelinePass& p : compiler::compilePipeline()) width = std::max(width, p.name.size());
           for (const compiler::PipelinePass& p : compiler::compilePipeline())
             std::cout << std::left << std::setw(static_cast<int>(width + 2)) << p.name << p.summary << "\n";
           throw CLI::Success();
         },
         "list the compiler's passes in pipeline order (names for --dump-after)")
      ->trigger_on_parse();
  cmd->callback([a, &rc] { rc = report(compileCmd(*a)); });
}

void registerReport(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("report", "Per-layer MACs, estimated cycles, roofline bound and utilization of a bundle");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false), measure = std::make_shared<bool>(false);
  auto hostCode = std::make_shared<std::string>("bundle"), html = std::make_shared<std::string>();
  cmd->add_option("bundle", *path, "bundle (.acx)")->required();
  cmd->add_flag("--json", *json, "print JSON");
  cmd->add_option("--html", *html,
                  "write the report as one self-contained HTML page: the layer table, a roofline plot and, with "
                  "--measure, the per-unit timeline of the measured inference");
  cmd->add_flag("--measure", *measure,
                "run one inference (zero inputs) on the cycle model: measured cycles per accelerator layer, wall time "
                "per host layer (one thread) and what ran it");
  cmd->add_option("--host-code", *hostCode,
                  "with --measure: host steps on the bundle's code (bundle), code compiled now (jit), or reference kernels")
      ->check(CLI::IsMember({"bundle", "jit", "reference"}))
      ->capture_default_str();
  cmd->callback([=, &rc] {
    auto b = runtime::loadCheckedBundle(*path);
    if (!b) {
      rc = report(b.status());
      return;
    }
    std::optional<compiler::MeasuredSteps> times;
    std::optional<compiler::Timeline> timeline;
    if (*measure) {
      auto m = measureSteps(*b, *path, *hostCode, html->empty() ? nullptr : &timeline);
      if (!m) {
        rc = report(m.status());
        return;
      }
      times = *m;
    }
    if (!html->empty()) {
      rc = report(writeHtmlReport(*b, *path, times ? &*times : nullptr, timeline, *html));
      return;
    }
    rc = report(printReport(b->bundle, b->target, *json, times ? &*times : nullptr));
  });
}

Status disasmBundle(const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(runtime::CheckedBundle checked, runtime::loadCheckedBundle(path));
  const runtime::Bundle& b = checked.bundle;
  const isa::Target& t = checked.target;
  for (const runtime::Step& s : b.steps) {
    auto slots = [&](const std::vector<int>& ids) {
      std::string r;
      for (int id : ids) r += (r.empty() ? "" : ", ") + (id < 0 ? std::string("_") : b.tensors[id].name);
      return r;
    };
    switch (s.kind) {
      case runtime::Step::Kind::kAccel: {
        std::cout << "; step " << s.name << ": accelerator program " << s.program << "\n";
        ACCELC_ASSIGN_OR_RETURN(std::string text, isa::disassemble(b.programs[s.program], t, path));
        std::cout << text;
        break;
      }
      case runtime::Step::Kind::kHost:
        std::cout << "; step " << s.name << ": host " << runtime::opInfo(s.op).name << "(" << slots(s.inputs) << ") -> ("
                  << slots(s.outputs) << ")\n";
        break;
      case runtime::Step::Kind::kPack:
      case runtime::Step::Kind::kUnpack:
        std::cout << "; step " << s.name << ": " << slots(s.inputs) << " -> " << slots(s.outputs) << "\n";
        break;
    }
  }
  return Status::ok();
}

}  // namespace accelc::tools
