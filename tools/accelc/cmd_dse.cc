// tools/accelc/cmd_dse.cc — `accelc dse`: a sweep of hwspec keys over a
// model (compiler/dse), and `accelc dse-point`, the process that evaluates
// one point for every engine.
#include <unistd.h>

#include <iomanip>
#include <iostream>
#include <memory>

#include "compiler/dse/front.h"
#include "compiler/dse/sweep_run.h"
#include "support/yaml.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

namespace {

using support::Status;

struct DseArgs {
  std::string model, sweep, out, calibrate, engine = "local", html;
  int jobs = 0, tune = 0;
  bool yosys = false;
  int64_t point = -1;
};

/// This program's own path: the local engine runs it once per point.
std::string selfPath() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  return n > 0 ? path.substr(0, static_cast<size_t>(n)) : "accelc";
}

void printSummary(const compiler::dse::SweepResults& r, size_t evaluated) {
  size_t ok = 0;
  for (const compiler::dse::PointRecord& p : r.records) ok += p.ok;
  std::cout << r.records.size() << " points: " << ok << " ok, " << r.records.size() - ok << " failed; " << evaluated
            << " evaluated now, " << r.records.size() - evaluated << " from earlier runs; " << r.front.size()
            << " on the Pareto front of cycles, DSPs, BRAM18 and LUTs:\n";
  const std::vector<size_t> front = compiler::dse::byCycles(r.records, r.front);
  std::cout << std::left << std::setw(7) << "point" << std::right << std::setw(12) << "cycles" << std::setw(10) << "roofline"
            << std::setw(7) << "DSP" << std::setw(8) << "BRAM18" << std::setw(9) << "LUT" << "  values\n";
  for (size_t i : front) {
    const compiler::dse::PointRecord& p = r.records[i];
    const double pct = p.cycles ? 100.0 * static_cast<double>(p.rooflineCycles) / static_cast<double>(p.cycles) : 0.0;
    std::ostringstream roof;
    roof << std::fixed << std::setprecision(1) << pct << "%";
    std::string values;
    for (const auto& [k, v] : p.values) values += (values.empty() ? "" : ", ") + k + "=" + v;
    std::cout << std::left << std::setw(7) << p.point << std::right << std::setw(12) << p.cycles << std::setw(10) << roof.str()
              << std::setw(7) << p.dsps << std::setw(8) << p.bram18 << std::setw(9) << p.luts << "  "
              << (values.empty() ? "base" : values) << (p.fits ? "" : " (does not fit the board)") << "\n";
  }
}

/// The MPI engine's program, beside this one.
std::string mpiWorker() {
  const std::string self = selfPath();
  return self.substr(0, self.rfind('/') + 1) + "accelc-dse-mpi";
}

Status dse(const DseArgs& a) {
  ACCELC_ASSIGN_OR_RETURN(compiler::dse::Sweep s, compiler::dse::loadSweep(a.sweep));
  const compiler::dse::ModelInput m{a.model, a.calibrate, a.tune, a.yosys};
  ACCELC_ASSIGN_OR_RETURN(std::vector<int64_t> pending, compiler::dse::pendingPoints(s, a.out, m));
  std::cout << a.sweep << ": " << s.points() << " points, " << pending.size() << " to evaluate\n" << std::flush;
  std::vector<std::string> command = {selfPath(), "dse-point", a.model, "--sweep", a.sweep, "-o", a.out};
  for (const std::string& o : compiler::dse::pointOptions(m)) command.push_back(o);
  const int jobs = a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  auto print = [](const std::string& line) { std::cout << line << "\n" << std::flush; };
  if (a.engine == "mpi") {
    ACCELC_TRY(compiler::dse::runMpi(pending, mpiWorker(), selfPath(), jobs, s, a.out, m));
  } else if (a.engine == "slurm") {
    ACCELC_TRY(compiler::dse::runSlurm(pending, selfPath(), a.jobs, s, a.out, m, print));
  } else {
    ACCELC_TRY(compiler::dse::runLocal(pending, command, jobs, s, a.out, print));
  }
  ACCELC_ASSIGN_OR_RETURN(compiler::dse::SweepResults r, compiler::dse::writeResults(s, a.out));
  printSummary(r, pending.size());
  std::cout << "wrote " << a.out << "/results.jsonl, points.csv, front.csv, front.json, front.svg\n";
  if (!a.html.empty()) {
    ACCELC_TRY(support::writeTextFile(a.html, compiler::dse::sweepHtml(r.records, r.front, "accelc dse: " + a.sweep)));
    std::cout << "wrote " << a.html << "\n";
  }
  return Status::ok();
}

Status dsePoint(const DseArgs& a) {
  ACCELC_ASSIGN_OR_RETURN(compiler::dse::Sweep s, compiler::dse::loadSweep(a.sweep));
  ACCELC_ASSIGN_OR_RETURN(compiler::dse::PointRecord r,
                          compiler::dse::evaluatePoint(s, a.point, compiler::dse::ModelInput{a.model, a.calibrate, a.tune, a.yosys}));
  std::cout << "point " << a.point << " (" << compiler::dse::describePoint(s, a.point) << "): "
            << (r.ok ? std::to_string(r.cycles) + " cycles" : r.error) << "\n";
  return compiler::dse::writeRecord(a.out, r);
}

void commonOptions(CLI::App* cmd, DseArgs& a) {
  cmd->add_option("model", a.model, "ONNX model file")->required();
  cmd->add_option("--sweep", a.sweep, "sweep file: a base hwspec and the keys to vary (docs/dse.md)")->required();
  cmd->add_option("-o,--output", a.out, "output folder: per-point records, results.jsonl, the Pareto front")->required();
  cmd->add_option("--calibrate", a.calibrate, "calibration inputs for a float model: FILE.npy or a directory of .npy");
  cmd->add_option("--tune", a.tune,
                  "tune each point's schedules first (accelc tune), measuring the N best estimates of each layer "
                  "on the cycle model (a count, not a time, so every engine gives the same records)")
      ->check(CLI::Range(1, 64));
  cmd->add_flag("--yosys", a.yosys,
                "also synthesize each point's core with Yosys for a 7-series part (synth_xilinx; minutes a point) and "
                "record its LUTs, flip-flops, DSPs and block RAMs beside the estimate");
}

}  // namespace

void registerDse(CLI::App& app, int& rc) {
  auto a = std::make_shared<DseArgs>();
  auto* cmd = app.add_subcommand(
      "dse", "Sweep hwspec keys over a model: each point compiled, measured on the cycle model and estimated for "
             "resources; the Pareto front of cycles, DSPs, BRAM and LUTs");
  commonOptions(cmd, *a);
  cmd->add_option("--jobs", a->jobs,
                  "local: processes at a time; mpi: worker ranks (both by default one per core); slurm: array tasks, "
                  "each a chunk of the points (default: one a point)");
  cmd->add_option("--engine", a->engine,
                  "where points run: local (a process pool on this machine), mpi (mpirun: rank 0 hands points to "
                  "worker ranks) or slurm (sbatch job arrays on the cluster SLURM_CONF names)")
      ->check(CLI::IsMember({"local", "mpi", "slurm"}))
      ->capture_default_str();
  cmd->add_option("--html", a->html, "also write the sweep as one self-contained HTML page: the front's plot and the points");
  cmd->callback([a, &rc] { rc = report(dse(*a)); });
  auto b = std::make_shared<DseArgs>();
  auto* point = app.add_subcommand("dse-point", "Evaluate one point of a sweep (what every dse engine runs)");
  point->group("");  // the engines' command, not the user's
  commonOptions(point, *b);
  point->add_option("--point", b->point, "the point's number")->required();
  point->callback([b, &rc] { rc = report(dsePoint(*b)); });
}

}  // namespace accelc::tools
