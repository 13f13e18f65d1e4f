// tests/hls/bitstream_test.cc — `accelc bitstream` on the ice40 preset with
// examples/ice40_dense.s preloaded: Yosys, nextpnr-ice40 and icepack (about
// a minute). nextpnr's utilization must be read back, with the GEMM core in
// the eight DSPs and DRAM in the four SPRAMs. The design either fits — then
// nextpnr routes it, reports its clock, and icepack writes the bitstream —
// or packing stops on logic cells, and the command says so and fails.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "hls/ice40_board.h"
#include "hls/synth_gen.h"
#include "tests/test_util.h"

namespace accelc::hls {
namespace {

TEST(BitstreamTest, TheIce40PresetThroughYosysNextpnrAndIcepack) {
  const std::string dir = testing::tempDir() + "/bitstream-ice40", bin = dir + ".bin";
  const std::string accelc = ACCELC_BINARY;
  const std::string asmCmd = accelc + " asm " + ACCELC_SOURCE_DIR + "/examples/ice40_dense.s -o " + bin;
  ASSERT_EQ(std::system(asmCmd.c_str()), 0);
  const int rc = std::system(
      (accelc + " bitstream " + bin + " -o " + dir + " --json > " + dir + ".json 2> " + dir + ".err").c_str());
  const std::string out = testing::readFile(dir + ".json") + testing::readFile(dir + ".err");
  auto r = pnrReportOf(testing::readFile(dir + "/nextpnr.log"), dir + "/nextpnr.log");
  ASSERT_TRUE(r.isOk()) << r.diag().str() << "\n" << out;
  const isa::Target t = testing::presetTarget("ice40");
  ASSERT_NE(r->find("ICESTORM_DSP"), nullptr);
  EXPECT_EQ(r->find("ICESTORM_DSP")->used, estimateIce40(t).dsps);
  EXPECT_EQ(r->find("ICESTORM_SPRAM")->used, 4);  // the 128 KiB DRAM window
  EXPECT_EQ(r->find("ICESTORM_RAM")->used, estimateIce40(t).brams + 1);  // and the image's ROM
  const BelUse* lc = r->find("ICESTORM_LC");
  ASSERT_NE(lc, nullptr);
  EXPECT_EQ(lc->available, 5280);
  // The command's JSON says the same.
  const nlohmann::json j = nlohmann::json::parse(testing::readFile(dir + ".json"));
  EXPECT_EQ(j["hwspec"], "ice40");
  EXPECT_EQ(j["fits"], r->fits);
  EXPECT_EQ(j["utilization"]["ICESTORM_LC"]["used"], lc->used);
  EXPECT_EQ(j["utilization"]["ICESTORM_LC"]["available"], 5280);
  if (r->fits) {
    EXPECT_EQ(rc, 0) << out;
    EXPECT_GT(r->fmaxMhz, 0.0) << out;
    struct stat st;
    ASSERT_EQ(::stat((dir + "/accelc_board.bin").c_str(), &st), 0) << out;
    EXPECT_GT(st.st_size, 100000);  // a UP5K bitstream is about 104 kB
  } else {
    EXPECT_NE(rc, 0) << out;
    EXPECT_NE(out.find("does not fit the UP5K: ICESTORM_LC " + std::to_string(lc->used) + " of 5280"), std::string::npos)
        << out;
  }
}

}  // namespace
}  // namespace accelc::hls
