// tools/accelc/commands.h — the subcommands of the accelc CLI.
//
// Each register function adds one subcommand whose callback sets `rc`; only
// the CLI prints, and every user error is printed as its diagnostic.
#ifndef ACCELC_TOOLS_ACCELC_COMMANDS_H_
#define ACCELC_TOOLS_ACCELC_COMMANDS_H_

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "isa/run_limits.h"
#include "isa/target.h"
#include "runtime/sim_devices/make_device.h"
#include "support/status.h"

namespace accelc::tools {

void registerIsa(CLI::App& app, int& rc);
void registerAsm(CLI::App& app, int& rc);
void registerDisasm(CLI::App& app, int& rc);
void registerSim(CLI::App& app, int& rc);
void registerImport(CLI::App& app, int& rc);
void registerRun(CLI::App& app, int& rc);
void registerOpt(CLI::App& app, int& rc);
void registerCompile(CLI::App& app, int& rc);
void registerReport(CLI::App& app, int& rc);
void registerRtl(CLI::App& app, int& rc);
void registerHls(CLI::App& app, int& rc);
void registerSynth(CLI::App& app, int& rc);
void registerBitstream(CLI::App& app, int& rc);
void registerBoards(CLI::App& app, int& rc);
void registerDse(CLI::App& app, int& rc);
void registerTune(CLI::App& app, int& rc);
/// How `accelc run` runs a bundle.
struct BundleRunOptions {
  std::string engine;               ///< "fsim", "cycle", "rtl", "hls" or "ref"; "" = the host for a bundle
                                    ///< without accelerator steps, else "ref"
  std::vector<std::string> inputs;  ///< NAME=FILE.npy
  std::string outDir, labels;       ///< where outputs go; int64 labels for top-1 accuracy
  std::string trace;                ///< a Perfetto trace file (cycle)
  isa::RunLimits limits;
  bool checkDefined = false;
  std::string hostCode = "bundle";  ///< "bundle": the code it carries; "jit": compiled now; "reference": none
  int threads = 0;                  ///< generated host kernels' threads; 0 = one per core
};
/// Runs a bundle (.acx).
support::Status runBundle(const std::string& path, const BundleRunOptions& o);
/// Prints every step of a bundle, programs disassembled.
support::Status disasmBundle(const std::string& path);

/// Prints a failed status to stderr and returns 1; 0 when ok.
int report(const support::Status& s);
/// Writes a device's Chrome/Perfetto trace (Device::trace) to `path`.
support::Status writeTrace(const std::string& path, const std::string& json);
/// The engine `name` names, with `o` asking for `trace` (a trace file) and
/// `vcd` (a waveform file); an error naming the flag an engine cannot serve.
support::Expected<runtime::Engine> engineFor(const std::string& name, const std::string& trace, const std::string& vcd,
                                             runtime::DeviceOptions& o);
/// Adds --max-insns and --max-uops (fsim) and --max-cycles (cycle, rtl) to
/// `cmd`, bound to `limits`.
void addLimitOptions(CLI::App* cmd, isa::RunLimits& limits);
/// Makes `limits` print a progress line to stderr every 2 seconds once a
/// run has gone on for 2 seconds.
void reportProgress(isa::RunLimits& limits, const std::string& engine);
/// Loads the target of a hwspec file or preset name.
support::Expected<isa::Target> targetFor(const std::string& hw);
/// A positive byte count as an option gives it ("134217728", "128MiB"); nullopt otherwise.
std::optional<int64_t> positiveByteSize(const std::string& text);

}  // namespace accelc::tools

#endif  // ACCELC_TOOLS_ACCELC_COMMANDS_H_
