// tests/boards/bitstream_test.cc — `accelc bitstream` on the ice40 preset with
// examples/ice40_dense.s preloaded: Yosys, nextpnr-ice40 and icepack (about
// a minute and a half). nextpnr's utilization must be read back, with the
// GEMM core in the eight DSPs and DRAM in the four SPRAMs; the design fits,
// nextpnr places and routes it and reports its clock (not held to the
// hwspec's), and icepack writes the bitstream.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "boards/ice40/board.h"
#include "hls/synth_gen.h"
#include "tests/test_util.h"

namespace accelc::boards {
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
  EXPECT_EQ(r->find("ICESTORM_DSP")->used, hls::estimateIce40(t).dsps);
  EXPECT_EQ(r->find("ICESTORM_SPRAM")->used, 4);  // the 128 KiB DRAM window
  EXPECT_EQ(r->find("ICESTORM_RAM")->used, hls::estimateIce40(t).brams + 1);  // and the image's ROM
  const BelUse* lc = r->find("ICESTORM_LC");
  ASSERT_NE(lc, nullptr);
  EXPECT_EQ(lc->available, 5280);
  // The command's JSON says the same.
  const nlohmann::json j = nlohmann::json::parse(testing::readFile(dir + ".json"));
  EXPECT_EQ(j["hwspec"], "ice40");
  EXPECT_EQ(j["fits"], r->fits);
  EXPECT_EQ(j["utilization"]["ICESTORM_LC"]["used"], lc->used);
  EXPECT_EQ(j["utilization"]["ICESTORM_LC"]["available"], 5280);
  ASSERT_TRUE(r->fits) << out;
  EXPECT_LE(lc->used, lc->available);
  EXPECT_EQ(rc, 0) << out;
  // Placed and routed: nextpnr timed the routed design; packed: icepack wrote it.
  const std::string log = testing::readFile(dir + "/nextpnr.log");
  EXPECT_NE(log.find("Routing complete"), std::string::npos) << out;
  EXPECT_GT(r->fmaxMhz, 0.0) << out;
  EXPECT_EQ(j["fmax_mhz"], r->fmaxMhz);
  struct stat st;
  ASSERT_EQ(::stat((dir + "/accelc_board.bin").c_str(), &st), 0) << out;
  EXPECT_GT(st.st_size, 100000);  // a UP5K bitstream is about 104 kB
}

}  // namespace
}  // namespace accelc::boards
