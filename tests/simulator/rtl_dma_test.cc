// tests/simulator/rtl_dma_test.cc — the RTL's DMA engine on the RTL DRAM port
// (hls/rtl/accelc_dma.sv, verilated per preset with simulator/rtl/tb_dma_alone.sv)
// takes exactly the contract's cycles for a LOAD or STORE alone on the port:
// simulator::DramPort::aloneCycles plus one cycle per padding entry.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "simulator/cycle/dram_port.h"
#include "tests/test_util.h"

namespace accelc::simulator {
namespace {

class RtlDmaTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RtlDmaTest, LoadsAndStoresAloneTakeTheContractsCycles) {
  isa::Target t = testing::presetTarget(GetParam());
  std::mt19937_64 g(11);
  std::ostringstream in, want;
  const int count = 200;
  in << count << "\n";
  for (int i = 0; i < count; ++i) {
    const bool write = g() % 2;
    const int64_t rows = static_cast<int64_t>(g() % 12), bytes = 1 + static_cast<int64_t>(g() % static_cast<uint64_t>(3 * t.spec.timing.maxBurst));
    const int64_t pads = write ? 0 : static_cast<int64_t>(g() % 3 ? 0 : g() % 40);
    in << write << " " << rows << " " << bytes << " " << pads << "\n";
    want << DramPort::aloneCycles(t.spec, {rows, bytes, write}) + pads << "\n";
  }
  const std::string harness = std::string(ACCELC_BUILD_DIR) + "/simulator/rtl/" + GetParam() + "/dma_alone";
  const std::string inFile = testing::tempDir() + "/dma_" + GetParam() + ".in", outFile = inFile + ".out";
  std::ofstream(inFile) << in.str();
  ASSERT_EQ(std::system((harness + " < " + inFile + " > " + outFile).c_str()), 0) << harness;
  EXPECT_EQ(testing::readFile(outFile), want.str());
}

ACCELC_INSTANTIATE_FOR_PRESETS(RtlDmaTest);

}  // namespace
}  // namespace accelc::simulator
