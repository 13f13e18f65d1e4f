// runtime/sim_devices/hls_device.cc — compiling the HLS C++ into the cache,
// loading it, and reading a run's register file back.
#include "runtime/sim_devices/hls_device.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>

#include "hls/csim/csim_abi.h"
#include "hls/hls_gen.h"
#include "isa/disassembler.h"
#include "isa/encoding.h"
#include "isa/tokens.h"
#include "support/hash.h"
#include "support/yaml.h"

namespace accelc::runtime {

namespace {

using support::Location;

/// The compiler command, run in the folder of the sources. g++ may optimize
/// and vectorize for this machine; the sources stay plain HLS C++.
const char* const kCompile =
    "$(command -v ccache) g++ -std=c++17 -O3 -march=native -fPIC -shared -fno-strict-aliasing -Wno-unknown-pragmas "
    "-I. -o model.so accelc_accel.cpp accelc_csim.cpp -pthread";

/// The CPU's model and flags (-march=native compiles for them).
std::string cpuIdentity() {
  std::ifstream f("/proc/cpuinfo");
  std::string id;
  for (std::string l; std::getline(f, l);)
    if (l.rfind("model name", 0) == 0 || l.rfind("flags", 0) == 0) {
      id += l + "\n";
      if (id.size() > l.size() + 20) break;
    }
  return id;
}

/// Compiles the model of `t` into `dir`/model.so, in a folder of this process
/// first so that processes compiling at once do not meet.
support::Status compile(const isa::Target& t, const std::string& dir, const simulator::Progress& progress) {
  const Location at = Location::file(dir);
  if (std::system("command -v g++ > /dev/null 2>&1") != 0)
    return support::error(at, "--engine hls needs g++ on PATH (scripts/bootstrap.sh installs it)");
  if (progress)
    progress("compiling the HLS C++ for hwspec '" + t.spec.name + "' into " + dir + " (once per hwspec)...");
  const std::string work = dir + ".partial-" + std::to_string(::getpid());
  ACCELC_TRY(hls::writeHls(t, work));
  for (const auto& [name, text] : hls::csimSources()) ACCELC_TRY(support::writeTextFile(work + "/" + name, text));
  const std::string log = work + "/compile.log";
  if (std::system(("cd '" + work + "' && " + kCompile + " > '" + log + "' 2>&1").c_str()) != 0 ||
      !support::isRegularFile(work + "/model.so"))
    return support::error(at, "compiling the HLS C++ failed; the end of " + log + ":" + support::lastLines(log, 15));
  if (!support::moveIntoPlace(work, dir, "model.so"))
    return support::error(at, "cannot move the compiled model from " + work);
  return support::Status::ok();
}

uint64_t slot(const uint64_t* s, int unit, int field) {
  return s[ACCELC_CSIM_UNIT + unit * ACCELC_CSIM_UNIT_SLOTS + field];
}

/// The events of a run, from its units' registers.
isa::Counters events(const uint64_t* s) {
  isa::Counters c;
  c.fetchBytes = s[ACCELC_CSIM_FETCH_BYTES];
  c.dramReadBytes = c.fetchBytes;
  for (int u = 0; u < isa::kNumUnits; ++u) {
    for (int op = 0; op < isa::kNumOpcodes; ++op) c.insns[op] += slot(s, u, ACCELC_CSIM_U_INSNS + op);
    c.dramReadBytes += slot(s, u, ACCELC_CSIM_U_DRAM_READ);
    c.dramWriteBytes += slot(s, u, ACCELC_CSIM_U_DRAM_WRITE);
    for (int b = 0; b < hwspec::kNumBuffers; ++b) {
      c.sramReadBytes[b] += slot(s, u, ACCELC_CSIM_U_SRAM_READ + b);
      c.sramWriteBytes[b] += slot(s, u, ACCELC_CSIM_U_SRAM_WRITE + b);
    }
    c.macs += slot(s, u, ACCELC_CSIM_U_MACS);
    c.gemmUops += slot(s, u, ACCELC_CSIM_U_GEMM_UOPS);
    c.aluUops += slot(s, u, ACCELC_CSIM_U_ALU_UOPS);
    for (int q = 0; q < isa::kNumTokenQueues; ++q) c.tokens += slot(s, u, ACCELC_CSIM_U_PUSHES + q);
  }
  return c;
}

/// Tokens in each queue at the end: pushed by one unit less popped by another.
std::array<size_t, isa::kNumTokenQueues> queueSizes(const uint64_t* s) {
  std::array<size_t, isa::kNumTokenQueues> sizes{};
  for (int q = 0; q < isa::kNumTokenQueues; ++q) {
    int64_t n = 0;
    for (int u = 0; u < isa::kNumUnits; ++u)
      n += static_cast<int64_t>(slot(s, u, ACCELC_CSIM_U_PUSHES + q)) - static_cast<int64_t>(slot(s, u, ACCELC_CSIM_U_POPS + q));
    sizes[q] = static_cast<size_t>(std::max<int64_t>(n, 0));
  }
  return sizes;
}

/// The instruction at `pc` of `p` in `dram`, decoded (an error when it does not decode).
support::Expected<isa::Instruction> instructionAt(const isa::Target& t, const isa::Program& p, isa::DramImage& dram,
                                                  uint64_t pc, const std::string& name) {
  return isa::decodeInstruction(t, dram.at(p.text().addr + pc * t.insnBytes()), Location::pc(name, pc));
}

/// The deadlock as fsim describes one: each unit's instruction and the queue it waits on.
support::Diagnostic deadlock(const isa::Target& t, const isa::Program& p, isa::DramImage& dram, const uint64_t* s,
                             const std::string& name) {
  isa::StallView v;
  v.program = name;
  std::array<isa::Instruction, isa::kNumUnits> heads;
  std::array<std::string, isa::kNumUnits> blocked;
  for (int u = 0; u < isa::kNumUnits; ++u) {
    if (!slot(s, u, ACCELC_CSIM_U_HAS_HEAD)) continue;
    const uint64_t pc = slot(s, u, ACCELC_CSIM_U_HEAD_PC);
    auto insn = instructionAt(t, p, dram, pc, name);
    if (!insn) return insn.diag();
    heads[u] = *insn;
    v.units[u] = {&heads[u], pc, false};
    const uint64_t kind = slot(s, u, ACCELC_CSIM_U_WAIT_KIND), queue = slot(s, u, ACCELC_CSIM_U_WAIT_QUEUE);
    if ((kind == isa::TokenWait::kEmpty || kind == isa::TokenWait::kFull) && queue < isa::kNumTokenQueues)
      blocked[u] = isa::TokenWait{static_cast<isa::TokenWait::Kind>(kind), static_cast<int>(queue)}.str();
    else
      blocked[u] = "waits for room in its unit's result path";  // not a token queue: a stream the unit writes
  }
  v.fetchPc = s[ACCELC_CSIM_FETCH_PC];
  v.finishFetched = s[ACCELC_CSIM_FETCH_FINISH] != 0;
  isa::Instruction next;
  if (s[ACCELC_CSIM_FETCH_HOLDING])
    if (auto insn = instructionAt(t, p, dram, v.fetchPc, name)) next = *insn, v.fetchNext = &next;
  return isa::deadlockDiagnostic(v, queueSizes(s), blocked);
}

/// The diagnostic of a run that stopped with STATUS set.
support::Diagnostic fault(const isa::Target& t, const isa::Program& p, isa::DramImage& dram, const uint64_t* s,
                          uint64_t window, const std::string& name) {
  const uint64_t status = s[ACCELC_CSIM_STATUS], pc = s[ACCELC_CSIM_STOP_PC], count = p.insnCount(t);
  const Location at = Location::pc(name, pc);
  if (status & 4) return deadlock(t, p, dram, s, name);
  if (pc >= count)
    return support::error(at, "the program ends without FINISH (" + std::to_string(count) + " instructions)");
  auto insn = instructionAt(t, p, dram, pc, name);
  if (!insn) return insn.diag();
  if (std::string why = isa::flagError(*insn); !why.empty()) return support::error(at, why);
  const std::string text = isa::formatInstruction(t, *insn);
  if (status & 2)
    return support::error(at, "out-of-range DRAM access: '" + text + "' reaches past the program's DRAM window of " +
                                  std::to_string(window) + " bytes (STATUS: DMA outside the window)");
  return support::error(at, "illegal instruction: the hardware cannot run '" + text +
                                "' (STATUS: illegal instruction)");
}

/// The run limits over the instructions up to the first FINISH, in program
/// order, with fsim's diagnostic; an instruction that does not decode ends
/// the check (the run reports it from STATUS).
support::Status checkLimits(const isa::Target& t, const isa::Program& p, isa::DramImage& dram, const isa::RunLimits& l,
                            const std::string& name) {
  uint64_t retired = 0, uops = 0;
  for (uint64_t pc = 0; pc < p.insnCount(t); ++pc) {
    auto insn = instructionAt(t, p, dram, pc, name);
    if (!insn) break;
    const uint64_t apps = isa::uopApplications(*insn);
    if (retired >= l.maxInsns) return isa::limitReached(name, pc, "max-insns", l.maxInsns, "instructions");
    if (apps > l.maxUops - std::min(uops, l.maxUops))
      return isa::limitReached(name, pc, "max-uops", l.maxUops, "micro-op applications");
    ++retired, uops += apps;
    if (insn->opcode == isa::Opcode::kFinish) break;
  }
  return support::Status::ok();
}

}  // namespace

std::string hlsCacheDir(const isa::Target& t) {
  std::string root;
  if (const char* c = std::getenv("ACCELC_HLS_CACHE"); c && *c)
    root = c;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    root = std::string(x) + "/accelc/hls";
  else
    root = std::string(std::getenv("HOME") ? std::getenv("HOME") : "/tmp") + "/.cache/accelc/hls";
  const uint64_t h = support::fnv1a64(hls::hlsParams(t) + hls::hlsSourceTexts() + kCompile + cpuIdentity(), t.hash);
  return root + "/" + support::hex64(h);
}

support::Expected<std::unique_ptr<HlsDevice>> HlsDevice::create(const isa::Target& t,
                                                                const simulator::Progress& progress,
                                                                const isa::RunLimits& limits) {
  ACCELC_TRY(hls::hlsSupports(t.spec));
  const std::string dir = hlsCacheDir(t);
  support::makeDirs(dir.substr(0, dir.rfind('/')));
  if (!support::isRegularFile(dir + "/model.so")) ACCELC_TRY(compile(t, dir, progress));
  const std::string path = dir + "/model.so";
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // stays loaded for the process
  if (!lib) return support::error(Location::file(path), std::string("cannot load the HLS model: ") + ::dlerror());
  auto run = reinterpret_cast<accelc_csim_run_fn>(::dlsym(lib, ACCELC_CSIM_RUN));
  auto hash = reinterpret_cast<accelc_csim_hash_fn>(::dlsym(lib, ACCELC_CSIM_HASH));
  auto beat = reinterpret_cast<accelc_csim_beat_fn>(::dlsym(lib, ACCELC_CSIM_BEAT));
  if (!run || !hash || !beat) return support::error(Location::file(path), "not an HLS model: its entry points are missing");
  if (hash() != t.hash)
    return support::error(Location::file(path), "the HLS model was generated for another hwspec than '" + t.spec.name + "'");
  return std::unique_ptr<HlsDevice>(new HlsDevice(t, run, beat(), limits));
}

support::Expected<RunResult> HlsDevice::run(const isa::Program& p, const std::string& name) {
  if (p.hash != t_.hash)
    return support::error(Location::file(name), "the program was built for another hwspec than this device's ('" +
                                                    t_.spec.name + "')");
  const uint64_t window = p.window;  // DMA may touch the program's window only, as on fsim
  dram_.ensure((std::max<uint64_t>(p.window, dram_.size()) + beat_ - 1) / beat_ * beat_);
  ACCELC_TRY(checkLimits(t_, p, dram_, limits_, name));
  uint64_t s[ACCELC_CSIM_SLOTS] = {};
  const auto began = std::chrono::steady_clock::now();
  if (run_(dram_.at(0), dram_.size(), static_cast<uint32_t>(p.text().addr), static_cast<uint32_t>(p.insnCount(t_)),
           window, s) != 0)
    return support::error(Location::file(name), "the DRAM window is not a whole number of beats");
  RunResult r;
  r.simSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  if (s[ACCELC_CSIM_STATUS]) return fault(t_, p, dram_, s, window, name);
  if (std::optional<std::string> left = isa::leftoverTokens(queueSizes(s)))
    return support::error(Location::pc(name, s[ACCELC_CSIM_STOP_PC]), *left);
  r.events = events(s);
  return r;
}

}  // namespace accelc::runtime
