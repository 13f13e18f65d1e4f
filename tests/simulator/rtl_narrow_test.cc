// tests/simulator/rtl_narrow_test.cc — output rows narrower than a DRAM beat
// (tests/golden/narrow/narrow_rows.yaml: 4-byte rows on an 8-byte bus), which
// STOREs and acc8 LOADs move one row a beat (isa::dramBeatBytes): random
// programs on the RTL with the contract's port and with the AXI wrapper
// (narrow bursts and their write strobes, against a verilated AXI memory)
// end with the cycle model's DRAM in its cycle. Both are verilated for the
// hwspec on first use, into a cache in the build tree. One hwspec per test
// process: the cycle model holds one.
#include <gtest/gtest.h>

#include <cstdlib>

#include "hls/rtl_gen.h"
#include "hwspec/hwspec.h"
#include "isa/program.h"
#include "isa/random_program.h"
#include "isa/semantics.h"
#include "runtime/sim_devices/rtl_device.h"
#include "simulator/rtl/axi_run.h"
#include "simulator/rtl/model_cache.h"
#include "tests/simulator/cycle_runs.h"
#include "tests/simulator/rtl_util.h"
#include "tests/test_util.h"

namespace accelc::simulator {
namespace {

isa::Target narrowTarget() {
  ::setenv("ACCELC_RTL_CACHE", (testing::tempDir() + "/rtl-cache-narrow").c_str(), 1);
  auto spec = hwspec::loadHwSpec(testing::sourceDir() + "/tests/golden/narrow/narrow_rows.yaml");
  EXPECT_TRUE(spec.isOk()) << spec.diag().str();
  auto t = isa::loadTarget(*spec);
  EXPECT_TRUE(t.isOk()) << t.diag().str();
  return *t;
}

/// Whether `p` STOREs rows or LOADs acc8 rows: the transfers whose beats are narrow here.
bool movesRows(const isa::Program& p, const isa::Target& t) {
  auto insns = isa::decodeText(p, t, "r.bin");
  EXPECT_TRUE(insns.isOk()) << insns.diag().str();
  if (!insns) return false;
  for (const isa::Instruction& i : *insns)
    if (i.opcode == isa::Opcode::kStore ||
        (i.opcode == isa::Opcode::kLoad && isa::Buffer(i.mem().buffer) == isa::Buffer::kAcc8))
      return true;
  return false;
}

/// The first `count` random programs for `t` that move rows.
std::vector<isa::Program> narrowPrograms(const isa::Target& t, uint64_t count) {
  std::vector<isa::Program> programs;
  for (uint64_t seed = 1; programs.size() < count && seed < 20 * count; ++seed) {
    auto p = isa::randomProgram(t, seed);
    EXPECT_TRUE(p.isOk()) << p.diag().str();
    if (p && movesRows(*p, t)) programs.push_back(*p);
  }
  EXPECT_EQ(programs.size(), count);
  return programs;
}

TEST(RtlNarrowTest, TheHwspecHasNarrowRowsAndTheRtlImplementsIt) {
  const isa::Target t = narrowTarget();
  EXPECT_EQ(isa::dramBeatBytes(t.spec, isa::Buffer::kOut), 4);
  EXPECT_EQ(isa::dramBeatBytes(t.spec, isa::Buffer::kAcc8), 4);
  EXPECT_EQ(isa::dramBeatBytes(t.spec, isa::Buffer::kInp), 8);
  EXPECT_TRUE(hls::axiSupports(t.spec).isOk()) << hls::axiSupports(t.spec).diag().str();
}

TEST(RtlNarrowTest, RandomProgramsOnTheCoreEndInTheCycleModelsCycle) {
  const isa::Target t = narrowTarget();
  const std::vector<isa::Program> programs = narrowPrograms(t, 100);
  const std::vector<testing::RtlRun> runs = testing::cycleModelRuns(t, programs);
  ASSERT_EQ(runs.size(), programs.size());
  auto model = runtime::verilatedRtlModel(t, false, [](const std::string&) {});
  ASSERT_TRUE(model.isOk()) << model.diag().str();
  testing::expectRtlMatches(**model, t, runs);
}

TEST(RtlNarrowTest, RandomProgramsThroughAxiNarrowBurstsEndInTheCycleModelsCycle) {
  const isa::Target t = narrowTarget();
  const std::vector<isa::Program> programs = narrowPrograms(t, 100);
  const std::vector<testing::RtlRun> runs = testing::cycleModelRuns(t, programs);
  ASSERT_EQ(runs.size(), programs.size());
  const hls::RtlOptions axi{true};
  const std::string text =
      hls::rtlSourceTexts(axi) + hls::hwPackage(t.spec) + hls::isaPackage(t) + hls::targetPackage(t);
  const RtlSources src{text, hls::rtlFiles(axi),
                       [&t, &axi](const std::string& dir) { return hls::writeRtl(t, dir, axi); }};
  auto ip = cachedAxiModel(t, src, [](const std::string&) {});
  ASSERT_TRUE(ip.isOk()) << ip.diag().str();
  AxiRunOptions o;
  o.memory.latency = static_cast<uint64_t>(t.spec.dramLatency);
  std::unique_ptr<RtlModel> model = axiRtlModel(std::move(*ip), o);
  testing::expectRtlMatches(*model, t, runs);
}

}  // namespace
}  // namespace accelc::simulator
