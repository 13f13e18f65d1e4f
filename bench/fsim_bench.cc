// bench/fsim_bench.cc — functional simulator throughput on a GEMM-heavy program.
//
// The program is the inner loop of a convolution on vta-default: 64 input
// rows and 128 weight tiles resident, then GEMMs whose micro-op loops reduce
// over 8 input channels into 16 output rows, each GEMM 2 M MACs. Reported:
// MACs per second of wall time (GMAC/s), with and without the race checker.
#include <benchmark/benchmark.h>

#include "isa/builder.h"
#include "simulator/functional/fsim.h"

namespace accelc {
namespace {

isa::Instruction load(isa::Buffer b, int64_t dram, int64_t n, bool push) {
  isa::Instruction i = isa::makeInstruction(isa::Opcode::kLoad);
  isa::MemInsn& m = i.mem();
  m.buffer = static_cast<int64_t>(b), m.dramBase = dram, m.ySize = 1, m.xSize = n, m.xStride = n, m.pushNext = push;
  return i;
}

isa::Program gemmProgram(const isa::Target& t, int gemms) {
  isa::ProgramBuilder b(t);
  std::vector<isa::Uop> uops;
  for (int64_t u = 0; u < 16; ++u) uops.push_back({u, u % 4, u});  // 16 output rows, 16 weight tiles
  b.uops("u", 0, uops);
  b.text(0x10000);
  b.add(load(isa::Buffer::kUop, 0, 16, false));
  b.add(load(isa::Buffer::kInp, 0x1000 / t.spec.entryBytes(hwspec::BufferKind::kInput), 64, false));
  b.add(load(isa::Buffer::kWgt, 0x2000 / t.spec.entryBytes(hwspec::BufferKind::kWeight), 128, true));
  for (int g = 0; g < gemms; ++g) {
    isa::Instruction i = isa::makeInstruction(isa::Opcode::kGemm);
    isa::GemmInsn& m = i.gemm();
    m.popPrev = g == 0, m.reset = 0, m.uopBgn = 0, m.uopEnd = 16, m.iterOut = 64, m.iterIn = 8;
    m.dstFactorOut = 16, m.dstFactorIn = 0, m.srcFactorOut = 0, m.srcFactorIn = 8, m.wgtFactorOut = 0, m.wgtFactorIn = 16;
    b.add(i);
  }
  b.add(isa::makeInstruction(isa::Opcode::kFinish));
  return *b.finish("bench.bin");
}

void BM_FsimGemm(benchmark::State& state) {
  auto spec = hwspec::loadHwSpec("vta-default");
  isa::Target t = *isa::loadTarget(*spec);
  isa::Program p = gemmProgram(t, 50);
  simulator::FsimOptions o;
  o.checkRaces = state.range(0) != 0;
  simulator::FunctionalSim sim(t, o);
  if (!sim.loadProgram(p).isOk()) state.SkipWithError("load failed");
  uint64_t macs = 0;
  for (auto _ : state) {
    auto c = sim.run(p, "bench.bin");
    if (!c) {
      state.SkipWithError(c.diag().str().c_str());
      break;
    }
    macs += c->macs;
  }
  state.counters["GMAC/s"] = benchmark::Counter(static_cast<double>(macs) / 1e9, benchmark::Counter::kIsRate);
  state.SetLabel(state.range(0) ? "race checker on" : "race checker off");
}
BENCHMARK(BM_FsimGemm)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace accelc

BENCHMARK_MAIN();
