// tools/accelc/main.cc — the accelc command line.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "support/check.h"
#include "support/memory.h"
#include "tools/accelc/commands.h"

int main(int argc, char** argv) {
  // A failed internal check (a bug) says what failed before the abort.
  accelc::support::setCheckHandler([](const char* m) { std::fprintf(stderr, "%s\n", m); });
  CLI::App app{
      "accelc: a toolkit for deep-learning accelerators described in YAML.\n"
      "Describe the hardware in a hwspec file (or use a preset: tiny, vta-default, wide, ice40),\n"
      "compile ONNX models or assemble programs for it, run them on the functional simulator,\n"
      "the cycle model or the RTL, and generate, synthesize and build the hardware itself.",
      "accelc"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "accelc 0.1.0");
  // Options of the whole tool may follow the subcommand too.
  app.fallthrough();
  app.add_option_function<std::string>(
      "--max-memory",
      [](const std::string& v) {
        const std::optional<int64_t> bytes = accelc::tools::positiveByteSize(v);
        if (!bytes) throw CLI::ValidationError("--max-memory", "expected a size such as 8GiB, got '" + v + "'");
        accelc::support::setMemoryBudget(static_cast<uint64_t>(*bytes));
      },
      "largest allocation a model, bundle or file may ask for (e.g. 8GiB; default: half of physical memory, " +
          std::to_string(accelc::support::defaultMemoryBudget() >> 20) + " MiB here)");
  int rc = 0;
  accelc::tools::registerIsa(app, rc);
  accelc::tools::registerAsm(app, rc);
  accelc::tools::registerDisasm(app, rc);
  accelc::tools::registerSim(app, rc);
  accelc::tools::registerImport(app, rc);
  accelc::tools::registerRun(app, rc);
  accelc::tools::registerOpt(app, rc);
  accelc::tools::registerCompile(app, rc);
  accelc::tools::registerReport(app, rc);
  accelc::tools::registerRtl(app, rc);
  accelc::tools::registerHls(app, rc);
  accelc::tools::registerSynth(app, rc);
  accelc::tools::registerBitstream(app, rc);
  accelc::tools::registerBoards(app, rc);
  accelc::tools::registerTune(app, rc);
  accelc::tools::registerDse(app, rc);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return rc;
}
