// tools/accelc/cmd_tune.cc — `accelc tune`: each accelerator layer's
// schedule searched (compiler/tune), the tuning log written, and the model
// measured on the cycle model with and without the tuned schedules.
#include <unistd.h>

#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "compiler/frontend/compile_model.h"
#include "compiler/report/report.h"
#include "compiler/tune/tune_log.h"
#include "compiler/tune/tuner.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

namespace {

using support::Expected;
using support::Status;

struct TuneArgs {
  std::string model, hw = "vta-default", calibrate, log, budget = "60s";
  int jobs = 0;
  bool serialize = false;
};

/// "60s", "90", "2m" or "1.5m" as seconds; an error names the option.
Expected<double> parseBudget(const std::string& text) {
  double scale = 1;
  std::string number = text;
  if (!number.empty() && (number.back() == 's' || number.back() == 'm')) {
    scale = number.back() == 'm' ? 60 : 1;
    number.pop_back();
  }
  std::istringstream in(number);
  double v = 0;
  if (number.empty() || !(in >> v) || !in.eof() || !(v > 0) || v * scale > 7 * 24 * 3600)
    return support::error(support::Location(), "--budget '" + text + "': expected a time such as 60s, 90 or 2m (at most 7 days)");
  return v * scale;
}

/// The tuner's progress: a bar redrawn in place on a terminal, plain lines at each quarter otherwise.
class Progress {
 public:
  explicit Progress(bool tty) : tty_(tty) {}
  ~Progress() { end(); }
  void operator()(const std::string& phase, size_t done, size_t total) {
    if (phase != phase_) end(), phase_ = phase, quarter_ = -1;
    if (tty_) {
      const size_t width = 30, filled = total ? done * width / total : width;
      std::cout << "\r" << std::left << std::setw(9) << phase << "[" << std::string(filled, '#')
                << std::string(width - filled, '.') << "] " << done << "/" << total << std::flush;
      open_ = true;
      return;
    }
    const int q = total ? static_cast<int>(4 * done / total) : 4;
    if (q == quarter_) return;
    quarter_ = q;
    std::cout << phase << ": " << done << "/" << total << (phase == "estimate" ? " layer keys" : " programs") << "\n"
              << std::flush;
  }
  void end() {
    if (open_) std::cout << "\n" << std::flush;
    open_ = false;
  }

 private:
  bool tty_ = false, open_ = false;
  std::string phase_;
  int quarter_ = -1;
};

/// The model compiled for `t`, with the tuning log's choices when `tuned` is given; `seen` hears its tunable layers.
Expected<runtime::Bundle> compileWith(const TuneArgs& a, const isa::Target& t, const compiler::TunedSchedules* tuned,
                                      std::vector<compiler::TunableLayer>* seen) {
  compiler::CompileOptions o;
  o.calibrate = a.calibrate, o.serialize = a.serialize;
  const compiler::TuneHooks hooks{tuned, seen};
  o.tune = &hooks;
  return compiler::compileModel(a.model, t, o);
}

/// The report of `b` after one inference on `d`.
Expected<compiler::BundleReport> measured(const runtime::Bundle& b, const isa::Target& t, runtime::Device& d,
                                          const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(compiler::MeasuredSteps m, compiler::measureSteps(b, d, name));
  return compiler::bundleReport(b, t, &m);
}

std::string pct(double v) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(1) << v << "%";
  return o.str();
}

/// Per accelerator layer: its cycles untuned and tuned in the model, its bounds, the cost model's error, the
/// schedule and why it won.
void printLayers(const compiler::BundleReport& before, const compiler::BundleReport& after,
                 const std::vector<compiler::tune::LayerTuning>& tuned) {
  std::map<std::string, const compiler::tune::LayerTuning*> byLayer;
  for (const auto& l : tuned)
    for (const std::string& n : l.names) byLayer[n] = &l;
  std::map<std::string, uint64_t> untuned;
  for (const compiler::LayerRow& r : before.layers)
    if (r.measuredCycles) untuned[r.layer] = *r.measuredCycles;
  std::cout << std::left << std::setw(30) << "layer" << std::right << std::setw(10) << "untuned" << std::setw(10)
            << "tuned" << std::setw(10) << "roofline" << std::setw(10) << "datapath" << std::setw(8) << "est.err"
            << "  schedule\n";
  for (const compiler::LayerRow& r : after.layers) {
    if (!r.measuredCycles) continue;
    const auto it = byLayer.find(r.layer);
    const auto* l = it == byLayer.end() ? nullptr : it->second;
    std::cout << std::left << std::setw(30) << r.layer.substr(0, 29) << std::right << std::setw(10) << untuned[r.layer]
              << std::setw(10) << *r.measuredCycles << std::setw(10) << r.rooflineCycles << std::setw(10)
              << std::max(r.rooflineCycles, r.gemmAluCycles.value_or(0)) << std::setw(8)
              << (l ? pct(compiler::tune::estimateErrorPct(*l)) : "") << "  "
              << (l ? compiler::describeChoice(l->candidates[l->chosen].choice) : "(not tunable)") << "\n";
    if (l) std::cout << "    " << l->why << "\n";
  }
}

/// The totals and the cost model's error over every tuned key.
void printTotals(const compiler::BundleReport& before, const compiler::BundleReport& after,
                 const std::vector<compiler::tune::LayerTuning>& tuned) {
  const int64_t u = static_cast<int64_t>(before.accelMeasuredCycles.value_or(0));
  const int64_t t = static_cast<int64_t>(after.accelMeasuredCycles.value_or(0));
  std::cout << "accelerator layers: " << u << " cycles untuned, " << t << " tuned (" << u - t << " fewer, "
            << pct(u ? 100.0 * static_cast<double>(u - t) / static_cast<double>(u) : 0.0) << "); "
            << pct(t ? 100.0 * static_cast<double>(after.accelRooflineCycles) / static_cast<double>(t) : 0.0)
            << " of their roofline bound (" << after.accelRooflineCycles << "), "
            << pct(t ? 100.0 * static_cast<double>(after.accelDatapathBoundCycles) / static_cast<double>(t) : 0.0)
            << " of their datapath bound (" << after.accelDatapathBoundCycles << ")\n";
  size_t programs = 0;
  for (const auto& l : tuned)
    for (const auto& c : l.candidates) programs += c.measured >= 0;
  std::cout << tuned.size() << " distinct layers tuned, " << programs << " programs measured on the cycle model\n";
  for (bool alone : {false, true}) {
    double sum = 0, worst = 0;
    std::string worstKey;
    for (const auto& l : tuned) {
      const double e = compiler::tune::estimateErrorPct(l, alone);
      sum += e;
      if (e >= worst) worst = e, worstKey = l.names.front();
    }
    std::cout << "the cost model's error on the chosen schedules, "
              << (alone ? "each DMA alone on the port (the compiler's search): " : "DMAs sharing the data channel: ")
              << "mean " << pct(tuned.empty() ? 0 : sum / static_cast<double>(tuned.size())) << ", largest "
              << pct(worst) << " (" << worstKey << ")\n";
  }
}

Status tuneCmd(const TuneArgs& a) {
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, targetFor(a.hw));
  ACCELC_ASSIGN_OR_RETURN(double budget, parseBudget(a.budget));
  std::vector<compiler::TunableLayer> layers;
  ACCELC_ASSIGN_OR_RETURN(runtime::Bundle untunedBundle, compileWith(a, t, nullptr, &layers));
  if (layers.empty())
    return support::error(support::Location::file(a.model), "no layer runs on the accelerator: nothing to tune");
  compiler::tune::TuneOptions o;
  o.budgetSeconds = budget, o.serialize = a.serialize;
  o.jobs = a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  Progress bar(::isatty(STDOUT_FILENO) != 0);
  o.progress = [&bar](const std::string& phase, size_t done, size_t total) { bar(phase, done, total); };
  ACCELC_ASSIGN_OR_RETURN(std::vector<compiler::tune::LayerTuning> tuned, compiler::tune::tuneLayers(layers, t, o));
  bar.end();
  const std::vector<compiler::tune::TuneEntry> entries = compiler::tune::entriesOf(tuned, t.spec);
  if (!a.log.empty()) ACCELC_TRY(compiler::tune::writeTuneLog(a.log, entries));
  const compiler::TunedSchedules choices = compiler::tune::applicable(entries, t.spec, nullptr);
  ACCELC_ASSIGN_OR_RETURN(runtime::Bundle tunedBundle, compileWith(a, t, &choices, nullptr));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Device> device, runtime::makeDevice(runtime::Engine::kCycle, t));
  ACCELC_ASSIGN_OR_RETURN(compiler::BundleReport before, measured(untunedBundle, t, *device, a.model));
  ACCELC_ASSIGN_OR_RETURN(compiler::BundleReport after, measured(tunedBundle, t, *device, a.model));
  printLayers(before, after, tuned);
  printTotals(before, after, tuned);
  if (!a.log.empty()) std::cout << "wrote " << a.log << ": " << entries.size() << " entries (compile --tune-log uses them)\n";
  return Status::ok();
}

}  // namespace

void registerTune(CLI::App& app, int& rc) {
  auto a = std::make_shared<TuneArgs>();
  auto* cmd = app.add_subcommand(
      "tune", "Search each accelerator layer's schedule: the cost model ranks the legal ones, the cycle model "
              "measures the best; writes a tuning log for compile --tune-log");
  cmd->add_option("model", a->model, "ONNX model file")->required();
  cmd->add_option("--hw", a->hw, "hwspec file or preset name")->capture_default_str();
  cmd->add_option("--calibrate", a->calibrate, "calibration inputs for a float model: FILE.npy or a directory of .npy");
  cmd->add_option("--budget", a->budget,
                  "wall time for the search (60s, 90, 2m); measuring starts no program after it, but every layer's "
                  "untuned schedule is measured")
      ->capture_default_str();
  cmd->add_option("--log", a->log,
                  "tuning log to write (JSON lines keyed by layer shape, hwspec and compiler build); entries of "
                  "other layers, hwspecs or builds already there are kept");
  cmd->add_option("--jobs", a->jobs, "processes measuring on the cycle model (default: one per core)");
  cmd->add_flag("--serialize", a->serialize, "tune programs with all overlap between the units removed");
  cmd->callback([a, &rc] { rc = report(tuneCmd(*a)); });
}

}  // namespace accelc::tools
