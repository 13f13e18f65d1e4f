// tests/hls/rtl_gen_test.cc — which hwspecs the RTL implements, and the error
// that names the key it does not.
#include <gtest/gtest.h>

#include "hls/rtl_gen.h"
#include "hwspec/hwspec.h"
#include "isa/random_target.h"
#include "tests/test_util.h"

namespace accelc::hls {
namespace {

TEST(RtlGenTest, EveryPresetIsImplemented) {
  for (const char* preset : {"tiny", "vta-default", "wide", "ice40"}) {
    auto hw = hwspec::loadHwSpec(preset);
    ASSERT_TRUE(hw.isOk()) << hw.diag().str();
    EXPECT_TRUE(rtlSupports(*hw).isOk()) << preset << ": " << rtlSupports(*hw).diag().str();
  }
}

TEST(RtlGenTest, EveryRandomTargetIsImplemented) {
  // The differential campaign runs its random targets on the RTL too.
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    auto r = isa::randomTarget(seed);
    ASSERT_TRUE(r.isOk()) << r.diag().str();
    support::Status s = rtlSupports(r->target.spec);
    EXPECT_TRUE(s.isOk()) << s.str() << "\n" << r->yaml;
  }
}

TEST(RtlGenTest, UnimplementedShapesNameTheirKey) {
  auto base = hwspec::loadHwSpec("tiny");
  ASSERT_TRUE(base.isOk());
  auto expectError = [](hwspec::HwSpec hw, const std::string& key) {
    support::Status s = rtlSupports(hw);
    ASSERT_FALSE(s.isOk()) << key;
    EXPECT_NE(s.diag().str().find(key), std::string::npos) << s.diag().str();
  };
  hwspec::HwSpec shallow = *base;
  shallow.timing.pipelineDepth = 1;  // three stages at II 1 need two cycles
  expectError(shallow, "timing.pipeline_depth");
  hwspec::HwSpec close = *base;
  close.timing.accHazard = 1;  // stage 1 would read a row stage 2 writes in the same cycle
  expectError(close, "timing.acc_hazard");
  hwspec::HwSpec odd = *base;
  odd.timing.maxBurst = 6;  // tiny's beats are 4 bytes
  expectError(odd, "timing.max_burst");
  hwspec::HwSpec wideBeat = *base;
  wideBeat.dramBytesPerCycle = 32, wideBeat.timing.maxBurst = 128;  // tiny's instructions are 16 bytes
  expectError(wideBeat, "dram.bytes_per_cycle");
  hwspec::HwSpec narrowRows = *base;
  narrowRows.dramBytesPerCycle = 8;  // tiny's output rows are 4 bytes: they move one a beat
  EXPECT_TRUE(rtlSupports(narrowRows).isOk()) << rtlSupports(narrowRows).diag().str();
  hwspec::HwSpec narrowAcc = narrowRows;
  narrowAcc.blockOut = 1;  // accumulator rows of 4 bytes on 8-byte beats
  expectError(narrowAcc, "an accumulator row (batch x block_out x 4 bytes) must hold at least one beat");
  hwspec::HwSpec split = *base;
  split.timing.maxBurst = 72;  // whole beats, but the fifth instruction would straddle two bursts
  expectError(split, "fetch needs a whole number of instructions per burst");
}

}  // namespace
}  // namespace accelc::hls
