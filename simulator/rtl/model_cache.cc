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

/// What one kind of cached model is built from: the RTL's top module, the
/// harness that wraps it, and the suffix of its cache folder.
struct ModelKind {
  const char* what;  ///< for progress messages
  const char* top;
  const std::vector<std::pair<std::string, std::string>>& harness;
  const char* suffix;
};

ModelKind coreKind() { return {"the RTL", "accelc_core", rtlHarnessSources(), ""}; }
ModelKind axiKind() { return {"the Zynq IP (accelc_axi)", "accelc_axi", axiHarnessSources(), "-axi"}; }

/// The verilator command that builds the model in `work` from `src` and the kind's harness.
std::string verilatorCommand(const std::string& work, const RtlSources& src, const ModelKind& k, bool vcd,
                             const std::string& log) {
  std::string sources;
  for (const std::string& f : src.files) sources += " src/" + f;
  for (const auto& [path, text] : k.harness)
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".cc") == 0) sources += " " + path;
  // A shared library that exports only the model's factory: its Verilator
  // runtime stays its own (-Bsymbolic, --exclude-libs).
  return "cd '" + work + "' && OBJCACHE=$(command -v ccache) verilator --cc --exe --build -j 2 -O2 " + "-Wno-fatal" +
         (vcd ? " --trace" : "") + " --prefix Vaccelc_model --top-module " + k.top + " -CFLAGS -fPIC -CFLAGS '-I" +
         work + "' -LDFLAGS '-shared -Wl,-Bsymbolic -Wl,--exclude-libs,ALL'" + " -Mdir obj -o '" + work + "/model.so'" +
         sources + " > '" + log + "' 2>&1";
}

/// Verilates `src` and the kind's harness into `dir`/model.so.
support::Status verilate(const isa::Target& t, const RtlSources& src, const ModelKind& k, const std::string& dir,
                         bool vcd, const Progress& progress) {
  const support::Location at = support::Location::file(dir);
  if (std::system("command -v verilator > /dev/null 2>&1") != 0)
    return support::error(at, "verilating the RTL needs Verilator on PATH (scripts/bootstrap.sh installs it)");
  if (progress)
    progress("verilating " + std::string(k.what) + " for hwspec '" + t.spec.name + "' into " + dir +
             " (once per hwspec; a minute or two)...");
  const std::string work = dir + ".partial-" + std::to_string(::getpid());
  support::makeDirs(work + "/simulator/rtl");
  ACCELC_TRY(src.write(work + "/src"));
  for (const auto& [path, text] : k.harness) std::ofstream(work + "/" + path) << text;
  const std::string log = work + "/verilate.log";
  if (std::system(verilatorCommand(work, src, k, vcd, log).c_str()) != 0 || !exists(work + "/model.so"))
    return support::error(at, "verilating the RTL failed; the end of " + log + ":" + support::lastLines(log, 15));
  if (!support::moveIntoPlace(work, dir, "model.so"))
    return support::error(at, "cannot move the verilated model from " + work);
  if (progress) progress("the verilated model is " + dir + "/model.so");
  return support::Status::ok();
}

std::string cacheDir(const isa::Target& t, const std::string& rtlText, const ModelKind& k, bool vcd) {
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
  for (const auto& file : k.harness) h = support::fnv1a64(file.second, h);
  return root + "/" + support::hex64(h) + k.suffix + (vcd ? "-vcd" : "");
}

}  // namespace

std::string rtlCacheDir(const isa::Target& t, const std::string& rtlText, bool vcd) {
  return cacheDir(t, rtlText, coreKind(), vcd);
}

support::Expected<std::unique_ptr<RtlModel>> cachedRtlModel(const isa::Target& t, const RtlSources& src, bool vcd,
                                                            const Progress& progress) {
  const std::string dir = rtlCacheDir(t, src.text, vcd);
  if (!exists(dir + "/model.so")) ACCELC_TRY(verilate(t, src, coreKind(), dir, vcd, progress));
  return loadRtlModel(dir + "/model.so");
}

support::Expected<std::unique_ptr<AxiModel>> cachedAxiModel(const isa::Target& t, const RtlSources& src,
                                                            const Progress& progress) {
  const std::string dir = cacheDir(t, src.text, axiKind(), false);
  if (!exists(dir + "/model.so")) ACCELC_TRY(verilate(t, src, axiKind(), dir, false, progress));
  ACCELC_ASSIGN_OR_RETURN(void* create, loadModelFactory(dir + "/model.so", kAxiModelFactorySymbol));
  return std::unique_ptr<AxiModel>(reinterpret_cast<AxiModelFactory>(create)());
}

}  // namespace accelc::simulator
