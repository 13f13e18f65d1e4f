// tests/simulator/sim_util.h — building small programs and running them on fsim.
#ifndef ACCELC_TESTS_SIMULATOR_SIM_UTIL_H_
#define ACCELC_TESTS_SIMULATOR_SIM_UTIL_H_

#include <algorithm>
#include <cstring>
#include <random>

#include "isa/builder.h"
#include "isa/semantics.h"
#include "simulator/functional/fsim.h"
#include "tests/test_util.h"

namespace accelc::testing {

/// A GEMM that waits for a token nothing pushes, then FINISH: a run that never ends.
inline isa::Program hungProgram(const isa::Target& t) {
  isa::ProgramBuilder b(t);
  b.text(0);
  isa::Instruction gemm = isa::makeInstruction(isa::Opcode::kGemm);
  isa::setDeps(gemm, {true, false, false, false});
  b.add(gemm), b.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p = b.finish("hung.bin");
  EXPECT_TRUE(p.isOk()) << p.diag().str();
  return p ? *p : isa::Program{};
}

/// A LOAD or STORE with the given fields.
inline isa::Instruction mem(isa::Opcode op, isa::Buffer b, int64_t sram, int64_t dram, int64_t ys, int64_t xs,
                            int64_t stride, isa::Deps d = {}) {
  isa::Instruction i = isa::makeInstruction(op);
  isa::MemInsn& m = i.mem();
  m.buffer = static_cast<int64_t>(b);
  m.sramBase = sram, m.dramBase = dram, m.ySize = ys, m.xSize = xs, m.xStride = stride;
  isa::setDeps(i, d);
  return i;
}

/// Where the timing tests keep their micro-ops: 1 MiB, or half the DRAM window when smaller.
inline int64_t uopsAt(const isa::Target& t) { return std::min<int64_t>(1 << 20, t.spec.dramWindowBytes / 2); }

/// One micro-op per accumulator row of a hazard window: a loop over them
/// writes each row no more often than the hazard rule allows.
inline std::vector<isa::Uop> hazardUops(const isa::Target& t) {
  std::vector<isa::Uop> uops;
  for (int64_t i = 0; i < t.spec.timing.accHazard; ++i) uops.push_back({static_cast<uint32_t>(i), 0, 0});
  return uops;
}

/// The compute unit's LOAD of `uops` from uopsAt(t).
inline isa::Instruction uopTableLoad(const isa::Target& t, const std::vector<isa::Uop>& uops) {
  const int64_t n = static_cast<int64_t>(uops.size());
  return mem(isa::Opcode::kLoad, isa::Buffer::kUop, 0, uopsAt(t) / t.uopBytes(), 1, n, n);
}

/// Random bytes from a seeded engine.
inline std::vector<uint8_t> randomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t& x : v) x = static_cast<uint8_t>(g());
  return v;
}

/// Runs a built program on a fresh fsim; returns the simulator for inspection.
struct Ran {
  std::unique_ptr<simulator::FunctionalSim> sim;  ///< after the run
  support::Expected<isa::Counters> counters = support::Diagnostic();  ///< or the diagnostic
  std::vector<uint8_t> read(uint64_t addr, uint64_t n) const {
    std::vector<uint8_t> v(n);
    EXPECT_TRUE(sim->read(addr, v.data(), n).isOk());
    return v;
  }
};

/// `checkDefined` (--check-defined) is on unless a test reads SRAM it never
/// wrote on purpose (random programs, diagnostics of other rules).
inline Ran run(const isa::Target& t, const isa::Program& p, bool races = true, bool checkDefined = true) {
  Ran r;
  r.sim = std::make_unique<simulator::FunctionalSim>(t, simulator::FsimOptions{races, {}, checkDefined});
  EXPECT_TRUE(r.sim->loadProgram(p).isOk());
  r.counters = r.sim->run(p, "test.bin");
  return r;
}

/// Builds and runs, failing the test on any diagnostic.
inline Ran buildAndRun(const isa::Target& t, isa::ProgramBuilder& b) {
  auto p = b.finish("test.bin");
  EXPECT_TRUE(p.isOk()) << (p ? "" : p.diag().str());
  Ran r = run(t, *p);
  EXPECT_TRUE(r.counters.isOk()) << (r.counters ? "" : r.counters.diag().str());
  return r;
}

/// Builds and runs, returning the diagnostic text ("ok" when none).
inline std::string runError(const isa::Target& t, isa::ProgramBuilder& b, bool checkDefined = true) {
  auto p = b.finish("test.bin");
  if (!p) return p.diag().str();
  Ran r = run(t, *p, true, checkDefined);
  return r.counters ? "ok" : r.counters.diag().str();
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_SIMULATOR_SIM_UTIL_H_
