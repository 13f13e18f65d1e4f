// tests/simulator/rtl_dma_test.cc — the RTL's DMA engine on the RTL DRAM port
// (hls/rtl/accelc_dma.sv, verilated per preset with tests/simulator/rtl_tb/tb_dma_alone.sv)
// takes exactly the contract's cycles for a LOAD or STORE alone on the port:
// simulator::DramPort::aloneCycles plus one cycle per padding entry, its
// bursts cut at the same places (at 4 KiB boundaries with dram.split_4k).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "simulator/timing/dram_port.h"
#include "tests/simulator/rtl_util.h"
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
    // Rows on beats, anywhere in the first 64 KiB of the window: with dram.split_4k many cross 4 KiB.
    const uint64_t beat = static_cast<uint64_t>(t.spec.dramBytesPerCycle);
    const uint64_t span = std::min<uint64_t>(65536, static_cast<uint64_t>(t.spec.dramWindowBytes) / 2);
    const uint64_t addr = g() % (span / beat) * beat, pitch = g() % (span / 16 / beat) * beat;
    in << write << " " << rows << " " << bytes << " " << pads << " " << addr << " " << pitch << "\n";
    want << DramPort::aloneCycles(t.spec, {rows, bytes, write, addr, pitch}) + pads << "\n";
  }
  EXPECT_EQ(testing::runVerilated(GetParam(), "dma_alone", in.str()), want.str());
}

ACCELC_INSTANTIATE_FOR_RTL_PRESETS(RtlDmaTest);

}  // namespace
}  // namespace accelc::simulator
