// simulator/rtl/model_cache.cc — verilating a model into the cache and loading it.
#include "simulator/rtl/model_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "simulator/rtl/rtl_sim.h"
#include "support/hash.h"
#include "support/yaml.h"

namespace accelc::simulator {

namespace {

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

/// The verilator command that builds the model in `work` from `src`.
std::string verilatorCommand(const std::string& work, const RtlSources& src, bool vcd, const std::string& log) {
  std::string sources;
  for (const std::string& f : src.files) sources += " src/" + f;
  // A shared library that exports only the model's factory: its Verilator
  // runtime stays its own (-Bsymbolic, --exclude-libs).
  return "cd '" + work + "' && OBJCACHE=$(command -v ccache) verilator --cc --exe --build -j 2 -O2 " + "-Wno-fatal" +
         (vcd ? " --trace" : "") + " --prefix Vaccelc_model --top-module accelc_core" + " -CFLAGS -fPIC -CFLAGS '-I" +
         work + "' -LDFLAGS '-shared -Wl,-Bsymbolic -Wl,--exclude-libs,ALL'" + " -Mdir obj -o '" + work + "/model.so'" +
         sources + " simulator/rtl/core_model.cc > '" + log + "' 2>&1";
}

/// Verilates `src` and the harness into `dir`/model.so.
support::Status verilate(const isa::Target& t, const RtlSources& src, const std::string& dir, bool vcd,
                         const Progress& progress) {
  const support::Location at = support::Location::file(dir);
  if (std::system("command -v verilator > /dev/null 2>&1") != 0)
    return support::error(at, "--engine rtl needs Verilator on PATH (scripts/bootstrap.sh installs it)");
  if (progress)
    progress("verilating the RTL for hwspec '" + t.spec.name + "' into " + dir +
             " (once per hwspec; a minute or two)...");
  const std::string work = dir + ".partial-" + std::to_string(::getpid());
  support::makeDirs(work + "/simulator/rtl");
  ACCELC_TRY(src.write(work + "/src"));
  for (const auto& [path, text] : rtlHarnessSources()) std::ofstream(work + "/" + path) << text;
  const std::string log = work + "/verilate.log";
  if (std::system(verilatorCommand(work, src, vcd, log).c_str()) != 0 || !exists(work + "/model.so"))
    return support::error(at, "verilating the RTL failed; the end of " + log + ":" + support::lastLines(log, 15));
  if (!support::moveIntoPlace(work, dir, "model.so"))
    return support::error(at, "cannot move the verilated model from " + work);
  if (progress) progress("the verilated model is " + dir + "/model.so");
  return support::Status::ok();
}

}  // namespace

std::string rtlCacheDir(const isa::Target& t, const std::string& rtlText, bool vcd) {
  std::string root;
  if (const char* c = std::getenv("ACCELC_RTL_CACHE"); c && *c)
    root = c;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    root = std::string(x) + "/accelc/rtl";
  else
    root = std::string(std::getenv("HOME") ? std::getenv("HOME") : "/tmp") + "/.cache/accelc/rtl";
  // The hwspec's hash, continued over the RTL's and the harness's texts: a
  // model verilated from other sources is not reused.
  uint64_t h = support::fnv1a64(rtlText, t.hash);
  for (const auto& file : rtlHarnessSources()) h = support::fnv1a64(file.second, h);
  return root + "/" + support::hex64(h) + (vcd ? "-vcd" : "");
}

support::Expected<std::unique_ptr<RtlModel>> cachedRtlModel(const isa::Target& t, const RtlSources& src, bool vcd,
                                                            const Progress& progress) {
  const std::string dir = rtlCacheDir(t, src.text, vcd);
  if (!exists(dir + "/model.so")) ACCELC_TRY(verilate(t, src, dir, vcd, progress));
  return loadRtlModel(dir + "/model.so");
}

}  // namespace accelc::simulator
