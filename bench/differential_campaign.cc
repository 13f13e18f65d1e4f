// bench/differential_campaign.cc — the differential campaign: random
// programs through every engine, compared bit for bit (and cycle for cycle
// between the cycle model and the RTL).
//
//   differential_campaign PRESET CASES [FIRST_SEED] [OUT_DIR]
//
// Each case is isa::randomProgram(PRESET, seed) run on a fresh functional
// simulator, a fresh cycle model and the preset's verilated RTL (linked in).
// The engines must end with the same DRAM window, fsim and the cycle model
// with the same event counts, and the cycle model and the RTL in the same
// cycle. A disagreement is shrunk (instructions removed while the program
// stays valid on fsim and the engines still disagree) and written to OUT_DIR
// as assembly, to become a regression test. One preset per process: the
// cycle model holds one hwspec per process (scripts/differential.sh runs
// them all). Prints the counts and the time.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "hwspec/hwspec.h"
#include "isa/disassembler.h"
#include "isa/random_program.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/functional/fsim.h"
#include "simulator/rtl/builtin_models.h"
#include "simulator/rtl/rtl_sim.h"

namespace accelc {
namespace {

/// What one engine ended with.
struct Outcome {
  std::string error;             ///< the diagnostic, or empty
  std::vector<uint8_t> dram;     ///< the window after the run
  isa::Counters counters;        ///< fsim, cycle
  uint64_t cycles = 0;           ///< cycle, rtl
};

std::vector<uint8_t> initialDram(const isa::Program& p) {
  std::vector<uint8_t> d(p.window, 0);
  for (const isa::Segment& s : p.segments) std::copy(s.bytes.begin(), s.bytes.end(), d.begin() + static_cast<long>(s.addr));
  return d;
}

Outcome onFsim(const isa::Target& t, const isa::Program& p) {
  Outcome o;
  simulator::FunctionalSim sim(t);
  auto loaded = sim.loadProgram(p);
  auto c = loaded ? sim.run(p, "case") : support::Expected<isa::Counters>(loaded.diag());
  if (!c) return o.error = c.diag().str(), o;
  o.counters = *c;
  o.dram.resize(p.window);
  (void)sim.read(0, o.dram.data(), p.window);
  return o;
}

Outcome onCycle(const isa::Target& t, const isa::Program& p) {
  Outcome o;
  auto sim = simulator::CycleSim::create(t);
  if (!sim) return o.error = sim.diag().str(), o;
  auto loaded = (*sim)->loadProgram(p);
  if (!loaded) return o.error = loaded.str(), o;
  auto s = (*sim)->run(p, "case");
  if (!s) return o.error = s.diag().str(), o;
  o.counters = s->counters, o.cycles = s->cycles;
  o.dram.resize(p.window);
  (void)(*sim)->read(0, o.dram.data(), p.window);
  return o;
}

uint64_t gRtlCycles = 0;  ///< cycles the RTL simulated, for the summary

Outcome onRtl(const isa::Target& t, const isa::Program& p, uint64_t cycles) {
  Outcome o;
  auto model = simulator::builtinRtlModel(t);
  if (!model) return o.error = model.diag().str(), o;
  o.dram = initialDram(p);
  simulator::RtlRunOptions opt;
  opt.cycleLimit = 2 * cycles + 1000;
  auto r = simulator::runOnRtl(**model, t, p, o.dram, opt, "case");
  if (!r) return o.error = r.diag().str(), o;
  o.cycles = r->cycles;
  gRtlCycles += r->cycles;
  return o;
}

/// Empty when every engine agrees on `p`; else what differs.
std::string disagreement(const isa::Target& t, const isa::Program& p) {
  const Outcome f = onFsim(t, p), c = onCycle(t, p);
  if (!f.error.empty() || !c.error.empty()) {
    if (f.error == c.error) return "";
    return "fsim: " + (f.error.empty() ? "ok" : f.error) + "; cycle: " + (c.error.empty() ? "ok" : c.error);
  }
  if (f.dram != c.dram) return "fsim and cycle end with different DRAM";
  if (!(f.counters == c.counters)) return "fsim and cycle count different events";
  const Outcome r = onRtl(t, p, c.cycles);
  if (!r.error.empty()) return "rtl: " + r.error;
  if (r.dram != c.dram) return "cycle and rtl end with different DRAM";
  if (r.cycles != c.cycles)
    return "cycle ends in cycle " + std::to_string(c.cycles) + ", rtl in " + std::to_string(r.cycles);
  return "";
}

/// Removes instructions one at a time while the program stays valid on
/// fsim and the engines still disagree: a minimal failing program.
isa::Program shrink(const isa::Target& t, isa::Program p) {
  bool progress = true;
  while (progress) {
    progress = false;
    isa::Segment* text = nullptr;
    for (isa::Segment& s : p.segments)
      if (s.role == isa::SegmentRole::kText) text = &s;
    const size_t w = t.insnBytes(), n = text->bytes.size() / w;
    for (size_t i = 0; i + 1 < n; ++i) {  // the last instruction is FINISH
      isa::Program q = p;
      for (isa::Segment& s : q.segments)
        if (s.role == isa::SegmentRole::kText)
          s.bytes.erase(s.bytes.begin() + static_cast<long>(i * w), s.bytes.begin() + static_cast<long>((i + 1) * w));
      q.labels.clear();
      if (!onFsim(t, q).error.empty() || disagreement(t, q).empty()) continue;
      p = std::move(q), progress = true;
      break;
    }
  }
  return p;
}

int campaign(const std::string& preset, uint64_t cases, uint64_t first, const std::string& outDir) {
  auto spec = hwspec::loadHwSpec(preset);
  auto t = spec ? isa::loadTarget(*spec) : support::Expected<isa::Target>(spec.diag());
  if (!t) return std::fprintf(stderr, "%s\n", t.diag().str().c_str()), 2;
  const auto began = std::chrono::steady_clock::now();
  uint64_t agreed = 0, failed = 0;
  for (uint64_t seed = first; seed < first + cases; ++seed) {
    auto p = isa::randomProgram(*t, seed);
    if (!p) return std::fprintf(stderr, "seed %llu: %s\n", static_cast<unsigned long long>(seed), p.diag().str().c_str()), 2;
    const std::string why = disagreement(*t, *p);
    if (why.empty()) {
      ++agreed;
      continue;
    }
    ++failed;
    const isa::Program small = shrink(*t, *p);
    const std::string file = outDir + "/" + preset + "-seed" + std::to_string(seed) + ".s";
    auto text = isa::disassemble(small, *t, file);
    std::ofstream(file) << (text ? *text : text.diag().str());
    std::printf("%s seed %llu disagrees: %s (shrunk to %zu instructions: %s)\n", preset.c_str(),
                static_cast<unsigned long long>(seed), why.c_str(), small.text().bytes.size() / t->insnBytes(),
                file.c_str());
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  std::printf("%s: %llu cases (seeds %llu..%llu), %llu agree on fsim, cycle and rtl, %llu disagree; %llu RTL cycles; "
              "%.1f s\n",
              preset.c_str(), static_cast<unsigned long long>(cases), static_cast<unsigned long long>(first),
              static_cast<unsigned long long>(first + cases - 1), static_cast<unsigned long long>(agreed),
              static_cast<unsigned long long>(failed), static_cast<unsigned long long>(gRtlCycles), s);
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace accelc

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: differential_campaign PRESET CASES [FIRST_SEED] [OUT_DIR]\n");
    return 2;
  }
  return accelc::campaign(argv[1], std::stoull(argv[2]), argc > 3 ? std::stoull(argv[3]) : 1,
                          argc > 4 ? argv[4] : ".");
}
