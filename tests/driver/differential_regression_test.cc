// tests/driver/differential_regression_test.cc — the programs the
// differential campaign (bench/differential_campaign) shrank from its
// disagreements, each with the random hwspec it ran on, in
// tests/golden/differential: fsim, the cycle model and the RTL (verilated
// for that hwspec on first use) end each with the same outputs, and the RTL
// in the cycle model's cycle (the RTL device checks that). One hwspec per
// test: the cycle model holds one per process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hwspec/hwspec.h"
#include "isa/assembler.h"
#include "runtime/sim_devices/make_device.h"
#include "tests/test_util.h"

namespace accelc {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Each output symbol's bytes after `p` ran on `engine`.
std::vector<std::vector<uint8_t>> outputsOn(runtime::Engine engine, const isa::Target& t, const isa::Program& p) {
  auto d = runtime::makeDevice(engine, t);
  EXPECT_TRUE(d.isOk()) << (d ? "" : d.diag().str());
  if (!d) return {};
  EXPECT_TRUE((*d)->loadProgram(p).isOk());
  auto r = (*d)->run(p, "regression.bin");
  EXPECT_TRUE(r.isOk()) << (r ? "" : r.diag().str());
  std::vector<std::vector<uint8_t>> out;
  for (const isa::Symbol& s : p.symbols) {
    if (s.role != isa::SymbolRole::kOutput) continue;
    out.emplace_back(s.bytes());
    EXPECT_TRUE((*d)->read(s.addr, out.back().data(), out.back().size()).isOk());
  }
  return out;
}

void expectAgreement(const std::string& hw, const std::string& program) {
  ::setenv("ACCELC_RTL_CACHE", (testing::tempDir() + "/rtl-cache-differential").c_str(), 1);
  const std::string dir = testing::sourceDir() + "/tests/golden/differential/";
  auto spec = hwspec::loadHwSpec(dir + hw);
  ASSERT_TRUE(spec.isOk()) << spec.diag().str();
  auto t = isa::loadTarget(*spec);
  ASSERT_TRUE(t.isOk()) << t.diag().str();
  auto p = isa::assemble(slurp(dir + program), dir + program, *t);
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  const auto want = outputsOn(runtime::Engine::kFsim, *t, *p);
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(outputsOn(runtime::Engine::kRtl, *t, *p), want);  // the RTL device runs the cycle model first
}

// A core of two GEMM rows on a one-byte bus has 256 one-byte words per weight
// entry: the RTL's word indexes were 7 bits wider than the entry index only,
// so weight words aliased and a GEMM read another entry's weights.
TEST(DifferentialRegressionTest, WeightWordsOfAOneByteBus) {
  expectAgreement("random-15.yaml", "random-15-seed23.s");
}

}  // namespace
}  // namespace accelc
