// runtime/sim_devices/rtl_device.cc — the verilated RTL behind the Device interface.
#include "runtime/sim_devices/rtl_device.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "hls/rtl_gen.h"

namespace accelc::runtime {

namespace {

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

/// mkdir -p.
void makeDirs(const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); ++i)
    if (i == dir.size() || dir[i] == '/') ::mkdir(dir.substr(0, i).c_str(), 0755);
}

/// The last lines of a file, for an error message.
std::string tail(const std::string& path, size_t lines) {
  std::ifstream f(path);
  std::vector<std::string> all;
  for (std::string l; std::getline(f, l);) all.push_back(l);
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) out += "\n  " + all[i];
  return out;
}

/// Verilates the RTL and the harness for `t` into `dir`; the model is the
/// shared library dir/model.so. The work happens in a folder of this
/// process's own, renamed to `dir` when done, so that processes verilating at
/// once do not meet.
support::Status verilate(const isa::Target& t, const std::string& dir, bool vcd) {
  const support::Location at = support::Location::file(dir);
  if (std::system("command -v verilator > /dev/null 2>&1") != 0)
    return support::error(at, "--engine rtl needs Verilator on PATH (scripts/bootstrap.sh installs it)");
  std::cerr << "accelc: verilating the RTL for hwspec '" << t.spec.name << "' into " << dir
            << " (once per hwspec; a minute or two)..." << std::endl;
  const std::string work = dir + ".partial-" + std::to_string(::getpid());
  makeDirs(work + "/simulator/rtl");
  ACCELC_TRY(hls::writeRtl(t, work + "/src"));
  for (const auto& [path, text] : simulator::rtlHarnessSources()) std::ofstream(work + "/" + path) << text;
  std::string sources;
  for (const std::string& f : hls::rtlFiles()) sources += " src/" + f;
  // A shared library that exports only the model's factory: its Verilator
  // runtime stays its own (-Bsymbolic, --exclude-libs).
  const std::string log = work + "/verilate.log";
  const std::string cmd = "cd '" + work + "' && OBJCACHE=$(command -v ccache) verilator --cc --exe --build -j 2 -O2 " +
                          "-Wno-fatal" + (vcd ? " --trace" : "") + " --prefix Vaccelc_model --top-module accelc_core" +
                          " -CFLAGS -fPIC -CFLAGS '-I" + work +
                          "' -LDFLAGS '-shared -Wl,-Bsymbolic -Wl,--exclude-libs,ALL'" + " -Mdir obj -o '" + work +
                          "/model.so'" + sources + " simulator/rtl/core_model.cc > '" + log + "' 2>&1";
  if (std::system(cmd.c_str()) != 0 || !exists(work + "/model.so"))
    return support::error(at, "verilating the RTL failed; the end of " + log + ":" + tail(log, 15));
  // Another process may have finished first: its model is as good as ours.
  if (::rename(work.c_str(), dir.c_str()) != 0 && exists(dir + "/model.so"))
    std::system(("rm -rf '" + work + "'").c_str());
  if (!exists(dir + "/model.so")) return support::error(at, "cannot move the verilated model from " + work);
  std::cerr << "accelc: the verilated model is " << dir << "/model.so" << std::endl;
  return support::Status::ok();
}

}  // namespace

std::string rtlCacheDir(const isa::Target& t, bool vcd) {
  std::string root;
  if (const char* c = std::getenv("ACCELC_RTL_CACHE"); c && *c) root = c;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) root = std::string(x) + "/accelc/rtl";
  else root = std::string(std::getenv("HOME") ? std::getenv("HOME") : "/tmp") + "/.cache/accelc/rtl";
  // The hwspec's hash, mixed with the RTL's and the harness's texts (FNV-1a):
  // a model verilated from other sources is not reused.
  uint64_t h = t.hash;
  auto mix = [&h](const std::string& text) {
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  };
  mix(hls::rtlSourceTexts());
  for (const auto& file : simulator::rtlHarnessSources()) mix(file.second);
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(h));
  return root + "/" + hash + (vcd ? "-vcd" : "");
}

support::Expected<std::unique_ptr<RtlDevice>> RtlDevice::create(const isa::Target& t, bool vcd) {
  ACCELC_TRY(hls::rtlSupports(t.spec));
  const std::string dir = rtlCacheDir(t, vcd);
  if (!exists(dir + "/model.so")) ACCELC_TRY(verilate(t, dir, vcd));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<simulator::RtlModel> rtl, simulator::loadRtlModel(dir + "/model.so"));
  return create(t, std::move(rtl));
}

support::Expected<std::unique_ptr<RtlDevice>> RtlDevice::create(const isa::Target& t,
                                                                std::unique_ptr<simulator::RtlModel> rtl) {
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<simulator::CycleSim> model, simulator::CycleSim::create(t));
  return std::unique_ptr<RtlDevice>(new RtlDevice(t, std::move(rtl), std::move(model)));
}

support::Status RtlDevice::write(uint64_t addr, const void* data, uint64_t n) {
  if (addr + n > static_cast<uint64_t>(t_.spec.dramWindowBytes) || addr + n < addr)
    return support::error(support::Location(), "DRAM write [" + std::to_string(addr) + ", " + std::to_string(addr + n) +
                                                   ") is outside the hwspec's window");
  if (addr + n > dram_.size()) dram_.resize(addr + n, 0);
  std::memcpy(dram_.data() + addr, data, n);
  return support::Status::ok();
}

support::Status RtlDevice::read(uint64_t addr, void* out, uint64_t n) {
  if (addr + n > dram_.size() || addr + n < addr)
    return support::error(support::Location(), "DRAM read [" + std::to_string(addr) + ", " + std::to_string(addr + n) +
                                                   ") is outside what was written");
  std::memcpy(out, dram_.data() + addr, n);
  return support::Status::ok();
}

support::Expected<simulator::Counters> RtlDevice::run(const isa::Program& p, const std::string& name) {
  if (dram_.size() < p.window) dram_.resize(p.window, 0);
  // The cycle model runs the program first, on the same DRAM: an illegal
  // program ends with its diagnostic instead of the RTL running on to its
  // cycle limit, and a legal one must end on the RTL in the same cycle.
  ACCELC_TRY(model_->write(0, dram_.data(), dram_.size()));
  ACCELC_ASSIGN_OR_RETURN(simulator::CycleStats expected, model_->run(p, name));
  simulator::RtlRunOptions o = options_;
  o.cycleLimit = 2 * expected.cycles + 1000;
  ACCELC_ASSIGN_OR_RETURN(simulator::RtlResult r, simulator::runOnRtl(*rtl_, t_, p, dram_, o, name));
  if (r.cycles != expected.cycles)
    return support::error(support::Location::file(name), "the RTL ended in cycle " + std::to_string(r.cycles) +
                                                             " and the cycle model in cycle " +
                                                             std::to_string(expected.cycles) + ": they must agree");
  cycles_ = r.cycles;
  seconds_ = r.seconds;
  return simulator::Counters{};
}

}  // namespace accelc::runtime
