// bench/differential_campaign.cc — the differential campaign: random
// programs and random layers through every engine, compared bit for bit (and
// cycle for cycle between the cycle model and the RTL).
//
//   differential_campaign TARGET CASES [FIRST_SEED] [OUT_DIR] [--layers] [--no-rtl] [--no-hls]
//
// TARGET is a preset, or random:SEED for isa::randomTarget(SEED) (a random
// valid hwspec; its RTL is verilated into the model cache on first use).
// Each case is, by seed:
// - programs (the default): isa::randomProgram(TARGET, seed);
// - --layers: a random convolution (compiler/lower/random_layer.h) under a
//   schedule drawn from every legal one (rankSchedules), with the ALU passes
//   in loops or per pixel and the units overlapped or serialized at random.
//   fsim's output must also equal the reference kernel's (runtime QConv).
// Each runs on a fresh functional simulator, a fresh cycle model, the
// verilated RTL and the HLS C++ in C-simulation (compiled into its cache on
// first use). The engines must end with the same DRAM window, fsim, the cycle
// model and the HLS C++ with the same event counts, and the cycle model and
// the RTL in the same cycle. A disagreement between engines is shrunk
// (instructions removed while the program stays valid on fsim and the
// engines still disagree) and written to OUT_DIR as assembly, to become a
// regression test; a layer whose engines agree but differ from the
// reference is written as the command line that reproduces it. One target
// per process: the cycle model holds one hwspec per process
// (scripts/differential.sh runs them all). Prints the counts and the time.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compiler/lower/random_layer.h"
#include "hwspec/hwspec.h"
#include "isa/disassembler.h"
#include "isa/random_program.h"
#include "isa/random_target.h"
#include "runtime/sim_devices/hls_device.h"
#include "runtime/sim_devices/rtl_device.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/functional/fsim.h"
#include "simulator/rtl/builtin_models.h"
#include "simulator/rtl/rtl_sim.h"

namespace accelc {
namespace {

using compiler::lower::LayerProgram;

/// What one engine ended with.
struct Outcome {
  std::string error;             ///< the diagnostic, or empty
  std::vector<uint8_t> dram;     ///< the window after the run
  isa::Counters counters;        ///< fsim, cycle
  uint64_t cycles = 0;           ///< cycle, rtl
};

/// One case: a program and the DRAM window it starts from.
struct Case {
  isa::Program program;
  std::vector<uint8_t> dram;
};

/// The campaign's engines: the target and its RTL model (loaded once).
struct Engines {
  isa::Target t;
  std::unique_ptr<simulator::RtlModel> rtl;  ///< null with --no-rtl
  std::unique_ptr<runtime::HlsDevice> hls;   ///< null with --no-hls
  uint64_t rtlCycles = 0;                    ///< cycles the RTL simulated, for the summary
};

Case caseOf(isa::Program p, const compiler::lower::DramWrites& writes = {}) {
  Case c{std::move(p), {}};
  c.dram.assign(c.program.window, 0);
  for (const isa::Segment& s : c.program.segments)
    std::copy(s.bytes.begin(), s.bytes.end(), c.dram.begin() + static_cast<long>(s.addr));
  for (const auto& [addr, bytes] : writes) std::copy(bytes.begin(), bytes.end(), c.dram.begin() + static_cast<long>(addr));
  return c;
}

Outcome onFsim(const isa::Target& t, const Case& k) {
  Outcome o;
  simulator::FunctionalSim sim(t);
  support::Status s = sim.loadProgram(k.program);
  if (s) s = sim.write(0, k.dram.data(), k.dram.size());
  auto c = s ? sim.run(k.program, "case") : support::Expected<isa::Counters>(s.diag());
  if (!c) return o.error = c.diag().str(), o;
  o.counters = *c;
  o.dram.resize(k.dram.size());
  (void)sim.read(0, o.dram.data(), o.dram.size());
  return o;
}

Outcome onCycle(const isa::Target& t, const Case& k) {
  Outcome o;
  auto sim = simulator::CycleSim::create(t);
  if (!sim) return o.error = sim.diag().str(), o;
  support::Status loaded = (*sim)->loadProgram(k.program);
  if (loaded) loaded = (*sim)->write(0, k.dram.data(), k.dram.size());
  if (!loaded) return o.error = loaded.str(), o;
  auto s = (*sim)->run(k.program, "case");
  if (!s) return o.error = s.diag().str(), o;
  o.counters = s->counters, o.cycles = s->cycles;
  o.dram.resize(k.dram.size());
  (void)(*sim)->read(0, o.dram.data(), o.dram.size());
  return o;
}

Outcome onRtl(Engines& e, const Case& k, uint64_t cycles) {
  Outcome o;
  o.dram = k.dram;
  simulator::RtlRunOptions opt;
  opt.cycleLimit = 2 * cycles + 1000;
  auto r = simulator::runOnRtl(*e.rtl, e.t, k.program, o.dram, opt, "case");
  if (!r) return o.error = r.diag().str(), o;
  o.cycles = r->cycles;
  e.rtlCycles += r->cycles;
  return o;
}

Outcome onHls(runtime::HlsDevice& d, const Case& k) {
  Outcome o;
  support::Status s = d.loadProgram(k.program);
  if (s) s = d.write(0, k.dram.data(), k.dram.size());
  auto r = s ? d.run(k.program, "case") : support::Expected<runtime::RunResult>(s.diag());
  if (!r) return o.error = r.diag().str(), o;
  o.counters = r->events.value_or(isa::Counters{});
  o.dram.resize(k.dram.size());
  (void)d.read(0, o.dram.data(), o.dram.size());
  return o;
}

/// The HLS engine's disagreement with fsim's outcome `f` on `k`, or empty.
std::string hlsDisagreement(Engines& e, const Case& k, const Outcome& f) {
  if (!e.hls) return "";
  const Outcome h = onHls(*e.hls, k);
  if (!f.error.empty() || !h.error.empty()) {
    if (!f.error.empty() && !h.error.empty()) return "";  // both refuse it (STATUS says less than fsim)
    return "fsim: " + (f.error.empty() ? "ok" : f.error) + "; hls: " + (h.error.empty() ? "ok" : h.error);
  }
  if (h.dram != f.dram) return "fsim and hls end with different DRAM";
  if (!(h.counters == f.counters)) return "fsim and hls count different events";
  return "";
}

/// Empty when every engine agrees on `k`; else what differs. `fsimOut`
/// receives fsim's outcome.
std::string disagreement(Engines& e, const Case& k, Outcome* fsimOut = nullptr) {
  const Outcome f = onFsim(e.t, k), c = onCycle(e.t, k);
  if (fsimOut) *fsimOut = f;
  if (std::string why = hlsDisagreement(e, k, f); !why.empty()) return why;
  if (!f.error.empty() || !c.error.empty()) {
    if (f.error == c.error) return "";
    return "fsim: " + (f.error.empty() ? "ok" : f.error) + "; cycle: " + (c.error.empty() ? "ok" : c.error);
  }
  if (f.dram != c.dram) return "fsim and cycle end with different DRAM";
  if (!(f.counters == c.counters)) return "fsim and cycle count different events";
  if (!e.rtl) return "";
  const Outcome r = onRtl(e, k, c.cycles);
  if (!r.error.empty()) return "rtl: " + r.error;
  if (r.dram != c.dram) return "cycle and rtl end with different DRAM";
  if (r.cycles != c.cycles)
    return "cycle ends in cycle " + std::to_string(c.cycles) + ", rtl in " + std::to_string(r.cycles);
  return "";
}

/// Removes instructions one at a time while the program stays valid on
/// fsim and the engines still disagree: a minimal failing program.
Case shrink(Engines& e, Case k) {
  const size_t w = static_cast<size_t>(e.t.insnBytes());
  for (bool progress = true; progress;) {
    progress = false;
    const isa::Segment& text = k.program.text();
    const size_t n = text.bytes.size() / w;
    for (size_t i = 0; i + 1 < n; ++i) {  // the last instruction is FINISH
      Case q = k;
      for (isa::Segment& s : q.program.segments)
        if (s.role == isa::SegmentRole::kText) {
          s.bytes.erase(s.bytes.begin() + static_cast<long>(i * w), s.bytes.begin() + static_cast<long>((i + 1) * w));
          std::fill(q.dram.begin() + static_cast<long>(s.addr + s.bytes.size()),
                    q.dram.begin() + static_cast<long>(s.addr + s.bytes.size() + w), 0);
          std::copy(s.bytes.begin(), s.bytes.end(), q.dram.begin() + static_cast<long>(s.addr));
        }
      q.program.labels.clear();
      if (!onFsim(e.t, q).error.empty() || disagreement(e, q).empty()) continue;
      k = std::move(q), progress = true;
      break;
    }
  }
  return k;
}

/// The campaign's options.
struct Options {
  std::string target, outDir = ".";
  uint64_t cases = 0, first = 1;
  bool layers = false, rtl = true, hls = true;
};

/// A random layer case: the program and its DRAM, the reference's output,
/// where the engines leave theirs, and what it is.
struct LayerCase {
  Case k;
  runtime::Tensor want;       ///< the reference kernel's output
  runtime::BlockedLayout y;   ///< the output's layout in DRAM
  uint64_t out = 0;           ///< and its address
  std::string what, error;    ///< the layer and schedule; why it did not compile
};

/// The random layer case of `seed`; false, with the reason in `c.error`, when
/// the layer has no legal schedule (it is skipped).
bool layerCase(const isa::Target& t, uint64_t seed, LayerCase& c) {
  using namespace compiler::lower;
  const hwspec::HwSpec& hw = t.spec;
  const ConvShape s = randomConvShape(hw, seed);
  const ConvLayer l = randomConvLayer(hw, seed, s);
  const runtime::Tensor x = randomConvInput(l, hw, seed + 1);
  auto ranked = rankSchedules(l, hw);
  if (!ranked) return c.error = ranked.diag().message, false;
  std::mt19937_64 g(seed);
  ConvSchedule sched = (*ranked)[g() % ranked->size()];
  const bool loops = g() % 2, serialize = g() % 4 == 0;
  ConvSchedule looped = sched;
  looped.aluLoops = loops;
  if (checkSchedule(l, looped, hw)) sched = looped;
  auto ref = referenceConv(l, x);
  auto lp = ref ? convProgram(l, sched, t, x, serialize) : support::Expected<LayerProgram>(ref.diag());
  c.what = "c" + std::to_string(s.c) + " m" + std::to_string(s.m) + " " + std::to_string(s.h) + "x" +
           std::to_string(s.w) + " k" + std::to_string(s.k) + " s" + std::to_string(s.stride) + " p" +
           std::to_string(s.pad) + ", " + describe(sched) + (sched.aluLoops ? ", ALU loops" : "") +
           (serialize ? ", serialized" : "");
  if (!lp) return c.error = lp.diag().str(), true;
  c.want = *ref, c.y = l.y, c.out = lp->out;
  c.k = caseOf(std::move(lp->program), lp->writes);
  return true;
}

/// Writes `k`, shrunk, to OUT_DIR; returns the file.
std::string saveShrunk(Engines& e, const Options& o, uint64_t seed, const Case& k) {
  const Case small = shrink(e, k);
  const std::string file = o.outDir + "/" + e.t.spec.name + (o.layers ? "-layer" : "-seed") + std::to_string(seed) + ".s";
  auto text = isa::disassemble(small.program, e.t, file);
  std::ofstream(file) << (text ? *text : text.diag().str());
  return file + " (" + std::to_string(small.program.text().bytes.size() / static_cast<size_t>(e.t.insnBytes())) +
         " instructions)";
}

/// Runs one case; returns the disagreement, empty when all agree; `skipped`
/// receives why a layer has no legal schedule, `saved` the shrunk program's file.
std::string runCase(Engines& e, const Options& o, uint64_t seed, std::string& skipped, std::string& saved) {
  LayerCase c;
  if (o.layers) {
    if (!layerCase(e.t, seed, c)) return skipped = c.error, "";
    if (!c.error.empty()) return c.what + ": does not compile: " + c.error;
  } else {
    auto p = isa::randomProgram(e.t, seed);
    if (!p) return "no program: " + p.diag().str();
    c.k = caseOf(std::move(*p));
  }
  Outcome f;
  const std::string why = disagreement(e, c.k, &f);
  if (!why.empty()) {
    saved = saveShrunk(e, o, seed, c.k);
    return (c.what.empty() ? "" : c.what + ": ") + why;
  }
  if (!o.layers) return "";
  if (!f.error.empty()) return c.what + ": every engine refuses it: " + f.error;
  if (runtime::unpackBlocked(f.dram.data() + c.out, c.y).bytes() != c.want.bytes())
    return c.what + ": the engines agree but differ from the reference kernel";
  return "";
}

/// `text` as a count; false unless it is all digits.
bool parseCount(const std::string& text, uint64_t& v) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  v = std::stoull(text);
  return true;
}

/// The HLS engine of `t`, when the campaign runs it.
support::Status addHls(Engines& e, const Options& o) {
  if (!o.hls) return support::Status::ok();
  ACCELC_ASSIGN_OR_RETURN(e.hls, runtime::HlsDevice::create(e.t, [](const std::string& line) {
    std::fprintf(stderr, "%s\n", line.c_str());
  }));
  return support::Status::ok();
}

support::Expected<Engines> engines(const Options& o) {
  Engines e;
  if (o.target.rfind("random:", 0) == 0) {
    uint64_t seed = 0;
    if (!parseCount(o.target.substr(7), seed))
      return support::error(support::Location::file(o.target), "expected random:SEED with a decimal seed");
    ACCELC_ASSIGN_OR_RETURN(isa::RandomTarget r, isa::randomTarget(seed));
    e.t = std::move(r.target);
    std::ofstream(o.outDir + "/" + e.t.spec.name + ".yaml") << r.yaml;  // to reproduce it with --hw
    if (o.rtl) {
      ACCELC_ASSIGN_OR_RETURN(e.rtl, runtime::verilatedRtlModel(e.t, false, [](const std::string& line) {
        std::fprintf(stderr, "%s\n", line.c_str());
      }));
    }
    ACCELC_TRY(addHls(e, o));
    return e;
  }
  ACCELC_ASSIGN_OR_RETURN(hwspec::HwSpec spec, hwspec::loadHwSpec(o.target));
  ACCELC_ASSIGN_OR_RETURN(e.t, isa::loadTarget(spec));
  if (o.rtl) {
    ACCELC_ASSIGN_OR_RETURN(e.rtl, simulator::builtinRtlModel(e.t));
  }
  ACCELC_TRY(addHls(e, o));
  return e;
}

int campaign(const Options& o) {
  auto made = engines(o);
  if (!made) return std::fprintf(stderr, "%s\n", made.diag().str().c_str()), 2;
  Engines& e = *made;
  const auto began = std::chrono::steady_clock::now();
  uint64_t agreed = 0, failed = 0, skipped = 0;
  std::string firstSkip;
  for (uint64_t seed = o.first; seed < o.first + o.cases; ++seed) {
    std::string skip, saved;
    const std::string why = runCase(e, o, seed, skip, saved);
    if (!skip.empty()) {
      if (!skipped++) firstSkip = skip;
    }
    else if (why.empty()) ++agreed;
    else {
      ++failed;
      std::printf("%s %s %llu disagrees: %s%s\n", e.t.spec.name.c_str(), o.layers ? "layer" : "seed",
                  static_cast<unsigned long long>(seed), why.c_str(), saved.empty() ? "" : ("; shrunk to " + saved).c_str());
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  std::printf("%s: %llu %s (seeds %llu..%llu), %llu agree on fsim, cycle%s%s%s, %llu disagree", e.t.spec.name.c_str(),
              static_cast<unsigned long long>(agreed + failed), o.layers ? "layers" : "programs",
              static_cast<unsigned long long>(o.first), static_cast<unsigned long long>(o.first + o.cases - 1),
              static_cast<unsigned long long>(agreed), o.rtl ? ", rtl" : "", o.hls ? ", hls" : "",
              o.layers ? " and the reference" : "",
              static_cast<unsigned long long>(failed));
  if (skipped)
    std::printf(", %llu layers have no legal schedule (the first: %s)", static_cast<unsigned long long>(skipped),
                firstSkip.c_str());
  std::printf("; %llu RTL cycles; %.1f s\n", static_cast<unsigned long long>(e.rtlCycles), s);
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace accelc

int main(int argc, char** argv) {
  accelc::Options o;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--layers")) o.layers = true;
    else if (!std::strcmp(argv[i], "--no-rtl")) o.rtl = false;
    else if (!std::strcmp(argv[i], "--no-hls")) o.hls = false;
    else pos.push_back(argv[i]);
  }
  if (pos.size() < 2 || pos.size() > 4 || !accelc::parseCount(pos[1], o.cases) ||
      (pos.size() > 2 && !accelc::parseCount(pos[2], o.first))) {
    std::fprintf(stderr, "usage: differential_campaign PRESET|random:SEED CASES [FIRST_SEED] [OUT_DIR] [--layers] "
                         "[--no-rtl] [--no-hls]\n");
    return 2;
  }
  o.target = pos[0];
  if (pos.size() > 3) o.outDir = pos[3];
  return accelc::campaign(o);
}
