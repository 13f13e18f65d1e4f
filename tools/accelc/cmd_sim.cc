// tools/accelc/cmd_sim.cc — `accelc sim`: run a program on a simulator.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "isa/program.h"
#include "runtime/device.h"
#include "runtime/sim_devices/make_device.h"
#include "runtime/tensor.h"
#include "support/npy.h"
#include "support/yaml.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

namespace {

using support::Expected;
using support::Status;

struct SimArgs {
  std::string program;               ///< program file
  std::string engine = "fsim";       ///< which simulator
  std::string trace;                 ///< Perfetto trace file (cycle engine)
  std::string vcd;                   ///< waveform file (rtl engine)
  std::vector<std::string> inputs;   ///< SYMBOL=FILE.npy
  std::string outDir;                ///< where outputs go
  std::string hw;                    ///< optional hwspec to check against
  bool json = false;                 ///< machine-readable output
  bool noRaceCheck = false;          ///< skip the race checker
  bool checkDefined = false;         ///< refuse reads of SRAM entries nothing wrote
  isa::RunLimits limits;             ///< when a run stops
};

/// One `SYMBOL=FILE.npy`, read and checked against the symbol's dtype and shape.
struct InputData {
  const isa::Symbol* symbol = nullptr;
  support::NpyArray array;
};

Expected<InputData> readInput(const isa::Program& p, const std::string& arg, const std::string& name) {
  size_t eq = arg.find('=');
  if (eq == std::string::npos)
    return support::error(support::Location(), "--input '" + arg + "': expected SYMBOL=FILE.npy");
  std::string sym = arg.substr(0, eq), file = arg.substr(eq + 1);
  const isa::Symbol* s = p.findSymbol(sym);
  if (!s) return support::error(support::Location::file(name), "--input: the program has no symbol '" + sym + "'");
  if (s->role != isa::SymbolRole::kInput)
    return support::error(support::Location::file(name), "--input: symbol '" + sym + "' is " +
                                                              isa::symbolRoleName(s->role) + ", not an input");
  ACCELC_ASSIGN_OR_RETURN(support::NpyArray a, support::readNpy(file));
  if (a.dtype != s->dtype || support::shapeElements(a.shape) != support::shapeElements(s->shape))
    return support::error(support::Location::file(file),
                          std::string("expected ") + support::dtypeName(s->dtype) + " " + support::shapeStr(s->shape) +
                              " for symbol '" + sym + "', found " + support::dtypeName(a.dtype) + " " +
                              support::shapeStr(a.shape));
  return InputData{s, std::move(a)};
}

/// Every input symbol needs an --input: DRAM left as it was would be a silent wrong answer.
Status checkAllInputsGiven(const isa::Program& p, const SimArgs& args) {
  for (const isa::Symbol& s : p.symbols) {
    if (s.role != isa::SymbolRole::kInput) continue;
    bool given = false;
    for (const std::string& in : args.inputs) given = given || in.rfind(s.name + "=", 0) == 0;
    if (!given)
      return support::error(support::Location::file(args.program),
                            "input symbol '" + s.name + "' (" + support::dtypeName(s.dtype) + " " +
                                support::shapeStr(s.shape) + ") was not given; pass --input " + s.name + "=FILE.npy");
  }
  return Status::ok();
}

/// The values of a small tensor, for the terminal.
std::string preview(const support::NpyArray& a) {
  runtime::Tensor t(a.dtype, a.shape);
  t.bytes() = a.data;
  std::ostringstream o;
  o << "[";
  for (int64_t i = 0; i < t.numel() && i < 64; ++i) {
    o << (i ? " " : "");
    support::isFloatDType(t.dtype()) ? void(o << t.at(i)) : void(o << t.intAt(i));
  }
  return o.str() + (t.numel() > 64 ? " ...]" : "]");
}

/// A run's figures as (name, value) rows: the timing rows of a timed run
/// first, then its event counts.
std::vector<std::pair<std::string, uint64_t>> resultRows(const runtime::RunResult& r) {
  std::vector<std::pair<std::string, uint64_t>> rows;
  if (r.cycles) rows.push_back({"cycles", *r.cycles});
  if (r.units) {
    const uint64_t cycles = r.cycles.value_or(0);
    for (int u = 0; u < isa::kNumUnits; ++u) {  // every cycle of a unit is busy, waiting on a token or DRAM, or idle
      const std::string n = isa::unitName(isa::Unit(u));
      const runtime::UnitTime& ut = (*r.units)[u];
      const uint64_t used = ut.busy + ut.tokenWait + ut.dramStall;
      rows.push_back({n + "_busy_cycles", ut.busy});
      rows.push_back({n + "_token_wait_cycles", ut.tokenWait});
      rows.push_back({n + "_dram_stall_cycles", ut.dramStall});
      rows.push_back({n + "_idle_cycles", cycles - std::min(cycles, used)});
    }
  }
  if (r.fetchWait) rows.push_back({"fetch_wait_cycles", *r.fetchWait});
  if (!r.events) return rows;
  if (r.cycles) {  // achieved DRAM bandwidth, in bytes per 1000 cycles (integers, like every row)
    const uint64_t bytes = r.events->dramReadBytes + r.events->dramWriteBytes;
    rows.push_back({"dram_bytes_per_kcycle", *r.cycles ? bytes * 1000 / *r.cycles : 0});
  }
  for (const auto& row : r.events->rows()) rows.push_back(row);
  return rows;
}

Expected<support::NpyArray> readOutput(runtime::Device& sim, const isa::Symbol& s) {
  support::NpyArray a;
  a.dtype = s.dtype;
  a.shape = s.shape;
  a.data.resize(s.bytes());
  ACCELC_TRY(sim.read(s.addr, a.data.data(), a.data.size()));
  return a;
}

Status runSim(const SimArgs& args) {
  ACCELC_ASSIGN_OR_RETURN(isa::CheckedProgram checked, isa::loadCheckedProgram(args.program));
  const isa::Program& p = checked.program;
  const isa::Target& t = checked.target;
  if (!args.hw.empty()) {
    ACCELC_ASSIGN_OR_RETURN(isa::Target given, targetFor(args.hw));
    ACCELC_TRY(isa::checkProgramTarget(p, given, args.program));
  }
  // Inputs are read and checked before the device is made: the RTL engine
  // may verilate for minutes first.
  std::vector<InputData> inputs;
  for (const std::string& in : args.inputs) {
    ACCELC_ASSIGN_OR_RETURN(InputData d, readInput(p, in, args.program));
    inputs.push_back(std::move(d));
  }
  ACCELC_TRY(checkAllInputsGiven(p, args));
  runtime::DeviceOptions o;
  o.checkRaces = !args.noRaceCheck;
  o.checkDefined = args.checkDefined;
  o.limits = args.limits;
  reportProgress(o.limits, args.engine);
  ACCELC_ASSIGN_OR_RETURN(runtime::Engine engine, engineFor(args.engine, args.trace, args.vcd, o));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Device> dev, runtime::makeDevice(engine, t, o));
  runtime::Device& sim = *dev;
  ACCELC_TRY(sim.loadProgram(p));
  for (const InputData& in : inputs) ACCELC_TRY(sim.write(in.symbol->addr, in.array.data.data(), in.array.data.size()));
  ACCELC_ASSIGN_OR_RETURN(runtime::RunResult result, sim.run(p, args.program));
  const std::vector<std::pair<std::string, uint64_t>> rows = resultRows(result);
  if (!args.trace.empty()) ACCELC_TRY(writeTrace(args.trace, sim.trace().value_or("")));
  if (!args.outDir.empty()) ::mkdir(args.outDir.c_str(), 0755);
  nlohmann::ordered_json j;
  for (const isa::Symbol& s : p.symbols) {
    if (s.role != isa::SymbolRole::kOutput) continue;
    ACCELC_ASSIGN_OR_RETURN(support::NpyArray a, readOutput(sim, s));
    std::string file = args.outDir.empty() ? "" : args.outDir + "/" + s.name + ".npy";
    if (!file.empty()) ACCELC_TRY(support::writeNpy(file, a));
    if (args.json) {
      j["outputs"][s.name] = {{"dtype", support::dtypeName(s.dtype)}, {"shape", s.shape}, {"file", file}};
      continue;
    }
    std::cout << "output " << s.name << " (" << support::dtypeName(s.dtype) << " " << support::shapeStr(s.shape)
              << ")" << (file.empty() ? "" : " -> " + file) << "\n  " << preview(a) << "\n";
  }
  if (args.json) {
    j["engine"] = args.engine;
    for (const auto& [k, v] : rows) j["counters"][k] = v;
    for (const runtime::LabelSpan& l : result.labels)
      j["labels"].push_back({{"name", l.name}, {"first", l.first}, {"last", l.last}, {"cycles", l.last - l.first}});
    std::cout << j.dump(2) << "\n";
    return Status::ok();
  }
  if (result.cycles && !result.events) {  // the RTL counts cycles, not events
    std::cout << *result.cycles << " cycles\n";
    if (!args.vcd.empty()) std::cout << "waveform -> " << args.vcd << "\n";
    return Status::ok();
  }
  if (result.cycles) {
    std::cout << *result.cycles << " cycles\n";
    for (const runtime::LabelSpan& l : result.labels)
      std::cout << "  " << l.name << ": " << l.last - l.first << " cycles (" << l.first << " to " << l.last << ")\n";
  }
  std::cout << "counters (" << args.engine << ", " << t.spec.name << "):\n";
  for (const auto& [k, v] : rows) std::cout << "  " << std::left << std::setw(26) << k << std::right << v << "\n";
  return Status::ok();
}

}  // namespace

Status writeTrace(const std::string& path, const std::string& json) {
  std::ofstream out(path);
  out << json;
  if (!out) return support::error(support::Location::file(path), "cannot write the trace");
  return Status::ok();
}

Expected<runtime::Engine> engineFor(const std::string& name, const std::string& trace, const std::string& vcd,
                                    runtime::DeviceOptions& o) {
  ACCELC_ASSIGN_OR_RETURN(runtime::Engine e, runtime::parseEngine(name));
  if (!trace.empty() && e != runtime::Engine::kCycle)
    return support::error(support::Location(), "--trace needs --engine cycle");
  if (!vcd.empty() && e != runtime::Engine::kRtl)
    return support::error(support::Location(), "--vcd needs --engine rtl");
  o.trace = !trace.empty(), o.vcd = vcd;
  o.progress = [](const std::string& line) { std::cerr << "accelc: " << line << std::endl; };
  return e;
}

std::optional<int64_t> positiveByteSize(const std::string& text) {
  const std::optional<int64_t> bytes = support::parseByteSize(text);
  return bytes && *bytes > 0 ? bytes : std::nullopt;
}

void addLimitOptions(CLI::App* cmd, isa::RunLimits& limits) {
  cmd->add_option("--max-insns", limits.maxInsns, "fsim, hls: stop a program run after this many instructions")
      ->capture_default_str();
  cmd->add_option("--max-uops", limits.maxUops,
                  "fsim, hls: stop a program run after this many micro-op applications (loop iterations included)")
      ->capture_default_str();
  cmd->add_option("--max-cycles", limits.maxCycles, "cycle, rtl: stop a program run after this many cycles")
      ->capture_default_str();
}

void reportProgress(isa::RunLimits& limits, const std::string& engine) {
  using Clock = std::chrono::steady_clock;
  auto next = std::make_shared<Clock::time_point>(Clock::now() + std::chrono::seconds(2));
  limits.progress = [next, engine](const isa::RunProgress& p) {
    if (Clock::now() < *next) return;
    *next = Clock::now() + std::chrono::seconds(2);
    std::cerr << "accelc: " << engine << " still running: " << p.insns << " instructions retired, "
              << (p.cycles ? std::to_string(p.cycles) + " cycles" : std::to_string(p.uops) + " micro-op applications")
              << ", fetch at pc " << p.pc << std::endl;
  };
}

void registerSim(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("sim", "Run a program on a simulator and write its outputs");
  auto a = std::make_shared<SimArgs>();
  cmd->add_option("program", a->program, "program file (.bin)")->required();
  cmd->add_option("--engine", a->engine, "simulator to run")
      ->check(CLI::IsMember(runtime::engineNames()))
      ->capture_default_str();
  cmd->add_option("--input", a->inputs, "SYMBOL=FILE.npy, one per input symbol");
  cmd->add_option("--output", a->outDir, "directory for one SYMBOL.npy per output symbol");
  cmd->add_option("--hw", a->hw, "hwspec the program must have been built for");
  cmd->add_flag("--json", a->json, "print outputs and counters as JSON");
  cmd->add_option("--trace", a->trace, "write a Chrome/Perfetto trace of the run (--engine cycle)");
  cmd->add_option("--vcd", a->vcd, "write a waveform of the run for GTKWave (--engine rtl)");
  cmd->add_flag("--no-race-check", a->noRaceCheck, "skip the race checker");
  cmd->add_flag("--check-defined", a->checkDefined,
                "fsim, cycle: reading an SRAM entry that nothing wrote since reset is an error");
  addLimitOptions(cmd, a->limits);
  cmd->callback([a, &rc] { rc = report(runSim(*a)); });
}

}  // namespace accelc::tools
