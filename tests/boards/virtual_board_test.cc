// tests/boards/virtual_board_test.cc — the board driver (boards/driver) on a
// virtual board: the verilated Zynq IP in another process (accelc-vboard)
// behind shared memory. The driver's register sequence, its pool and
// register windows, its timeout and ABORT, and the IP's faults, end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "boards/driver/driver.h"
#include "boards/virtual/virtual_bus.h"
#include "isa/builder.h"
#include "isa/random_program.h"
#include "tests/simulator/cycle_runs.h"
#include "tests/simulator/sim_util.h"
#include "tests/test_util.h"

namespace accelc::boards {
namespace {

constexpr uint64_t kPhysical = 0x18000000, kPool = 1 << 22;

VirtualBoardOptions board(const std::string& hwspec, uint64_t seed = 0) {
  VirtualBoardOptions o;
  o.board = "test", o.hwspec = hwspec, o.clockMhz = 100;
  o.poolPhysical = kPhysical, o.poolBytes = kPool, o.randomSeed = seed;
  return o;
}

std::unique_ptr<Driver> open(const VirtualBoardOptions& o, const isa::Target& t, uint64_t window,
                             const DriverOptions& d = {}) {
  auto bus = openVirtualBoard(o);
  EXPECT_TRUE(bus.isOk()) << bus.diag().str();
  if (!bus) return nullptr;
  auto driver = Driver::open(std::move(*bus), t, window, d);
  EXPECT_TRUE(driver.isOk()) << driver.diag().str();
  return driver ? std::move(*driver) : nullptr;
}

/// Writes `p`'s window (zeros, then its segments) through the driver.
void load(Driver& d, const isa::Program& p) {
  const std::vector<uint8_t> image = testing::programImage(p);
  ASSERT_TRUE(d.write(0, image.data(), image.size()).isOk());
}

TEST(VirtualBoardTest, ProgramsEndWithTheCycleModelsDramInItsCycle) {
  const isa::Target t = testing::presetTarget("tiny");
  std::vector<isa::Program> programs;
  for (uint64_t seed = 1; seed <= 8; ++seed) programs.push_back(*isa::randomProgram(t, seed));
  const std::vector<testing::RtlRun> ref = testing::cycleModelRuns(t, programs);
  ASSERT_EQ(ref.size(), programs.size());
  // A board powered on with zeroed buffers for each: the generator's
  // programs read accumulators they never wrote, as the cycle model starts.
  for (size_t i = 0; i < programs.size(); ++i) {
    auto d = open(board("tiny"), t, programs[i].window);
    ASSERT_NE(d, nullptr);
    load(*d, programs[i]);
    auto cycles = d->run(programs[i].text().addr, programs[i].insnCount(t), "p.bin");
    ASSERT_TRUE(cycles.isOk()) << cycles.diag().str();
    EXPECT_EQ(*cycles, ref[i].cycles) << "program " << i;
    std::vector<uint8_t> after(programs[i].window);
    ASSERT_TRUE(d->read(0, after.data(), after.size()).isOk());
    EXPECT_TRUE(after == ref[i].after) << "program " << i;
  }
}

TEST(VirtualBoardTest, ARunThatNeverEndsTimesOutAndTheNextRunWorks) {
  const isa::Target t = testing::presetTarget("tiny");
  const isa::Program hung = testing::hungProgram(t);
  const isa::Program good = *isa::randomProgram(t, 2);
  const std::vector<testing::RtlRun> ref = testing::cycleModelRuns(t, {good});
  ASSERT_EQ(ref.size(), 1u);
  DriverOptions o;
  o.timeoutNs = 200'000, o.pollNs = 10'000;  // 20,000 cycles at 100 MHz
  auto d = open(board("tiny"), t, std::max(hung.window, good.window), o);
  ASSERT_NE(d, nullptr);
  load(*d, hung);
  auto r = d->run(hung.text().addr, hung.insnCount(t), "hung.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str(),
            "hung.bin: error: the accelerator did not finish within 200 us (fetch at pc 2); aborted, the device is idle");
  load(*d, good);
  auto ok = d->run(good.text().addr, good.insnCount(t), "good.bin");
  ASSERT_TRUE(ok.isOk()) << ok.diag().str();
  EXPECT_EQ(*ok, ref[0].cycles);
}

TEST(VirtualBoardTest, AnIpBuiltForAnotherHwspecIsRefused) {
  const isa::Target vta = testing::presetTarget("vta-default"), tiny = testing::presetTarget("tiny");
  auto bus = openVirtualBoard(board("tiny"));
  ASSERT_TRUE(bus.isOk()) << bus.diag().str();
  auto d = Driver::open(std::move(*bus), vta, 4096);
  ASSERT_FALSE(d.isOk());
  std::ostringstream want;
  want << "virtual board test: error: the accelerator was built for target 0x" << std::hex << tiny.hash
       << ", the program for 0x" << vta.hash
       << " (hwspec 'vta-default'): load the bitstream of the program's hwspec, or compile for the board's";
  EXPECT_EQ(d.diag().str(), want.str());
}

TEST(VirtualBoardTest, AWindowLargerThanThePoolIsRefused) {
  const isa::Target t = testing::presetTarget("tiny");
  auto bus = openVirtualBoard(board("tiny"));
  ASSERT_TRUE(bus.isOk()) << bus.diag().str();
  auto d = Driver::open(std::move(*bus), t, kPool + 1);
  ASSERT_FALSE(d.isOk());
  EXPECT_EQ(d.diag().str(),
            "virtual board test: error: the program's DRAM window of 4194305 bytes does not fit the DMA "
            "pool of 4194304 bytes: give the pool (the u-dma-buf node's size) at least the window; "
            "accelc compile --window says at compile time whether a model fits a pool");
}

TEST(VirtualBoardTest, AccessesOutsideTheWindowsAreRefusedAndTheDeviceStaysUsable) {
  const isa::Target t = testing::presetTarget("tiny");
  const isa::Program good = *isa::randomProgram(t, 2);
  auto d = open(board("tiny"), t, good.window);
  ASSERT_NE(d, nullptr);
  auto reg = d->readRegister(0x80);
  ASSERT_FALSE(reg.isOk());
  EXPECT_EQ(reg.diag().str(),
            "virtual board test: error: register 0x80 is outside the register window [0x0, 0x80) or not a word");
  uint8_t bytes[8] = {};
  auto dma = d->write(good.window - 4, bytes, 8);
  ASSERT_FALSE(dma.isOk());
  std::ostringstream want;
  want << "virtual board test: error: DMA bytes [0x" << std::hex << good.window - 4 << ", 0x" << good.window + 4
       << ") are outside the DRAM window [0x0, 0x" << good.window << ") at physical 0x18000000";
  EXPECT_EQ(dma.diag().str(), want.str());
  load(*d, good);
  EXPECT_TRUE(d->run(good.text().addr, good.insnCount(t), "good.bin").isOk());
}

TEST(VirtualBoardTest, AnAxiErrorResponseSurfacesAndTheNextRunWorks) {
  const isa::Target t = testing::presetTarget("tiny");
  const isa::Program good = *isa::randomProgram(t, 2);
  VirtualBoardOptions o = board("tiny");
  // The memory answers SLVERR for the text's first byte: the first run's
  // fetch meets it. The second run's text is a copy past the window's end.
  o.errorLo = kPhysical + good.text().addr, o.errorHi = o.errorLo + 1;
  const uint64_t copyAt = (good.window + 4095) / 4096 * 4096;
  auto d = open(o, t, copyAt + good.text().bytes.size());
  ASSERT_NE(d, nullptr);
  load(*d, good);
  auto r = d->run(good.text().addr, good.insnCount(t), "good.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str(),
            "good.bin: error: the accelerator stopped: an AXI response on the DRAM port was SLVERR or DECERR (STATUS bit "
            "3), fetch at pc 0");
  ASSERT_TRUE(d->write(copyAt, good.text().bytes.data(), good.text().bytes.size()).isOk());
  load(*d, good);
  EXPECT_TRUE(d->run(copyAt, good.insnCount(t), "copy.bin").isOk());
}

TEST(VirtualBoardTest, RandomBuffersAtPowerOnShowAProgramThatReadsWhatItNeverWrote) {
  // The generator's programs accumulate onto accumulator rows they never
  // reset: on zeroed buffers they give the cycle model's DRAM, on a board's
  // they do not.
  const isa::Target t = testing::presetTarget("tiny");
  const isa::Program p = *isa::randomProgram(t, 1);
  const std::vector<testing::RtlRun> ref = testing::cycleModelRuns(t, {p});
  ASSERT_EQ(ref.size(), 1u);
  auto d = open(board("tiny", 7), t, p.window);
  ASSERT_NE(d, nullptr);
  load(*d, p);
  auto cycles = d->run(p.text().addr, p.insnCount(t), "p.bin");
  ASSERT_TRUE(cycles.isOk()) << cycles.diag().str();
  EXPECT_EQ(*cycles, ref[0].cycles);
  std::vector<uint8_t> after(p.window);
  ASSERT_TRUE(d->read(0, after.data(), after.size()).isOk());
  EXPECT_FALSE(after == ref[0].after);
  // The checked mode (--check-defined) names a read of an accumulator row the program never wrote.
  const testing::Ran checked = testing::run(t, p, true, true);
  ASSERT_FALSE(checked.counters.isOk());
  EXPECT_TRUE(std::regex_search(checked.counters.diag().str(), std::regex("(GEMM|ALU) reads acc entry [0-9]+")))
      << checked.counters.diag().str();
}

TEST(VirtualBoardTest, AHwspecTheAxiWrapperDoesNotImplementIsRefusedBeforeAnythingIsVerilated) {
  auto bus = openVirtualBoard(board("ice40"));
  ASSERT_FALSE(bus.isOk());
  EXPECT_EQ(bus.diag().str(), "virtual board test: error: ice40: error: the AXI wrapper does not implement "
                              "dram.split_4k: false: an AXI4 burst must not cross a 4 KiB boundary, so the hwspec "
                              "must set it true");
}

}  // namespace
}  // namespace accelc::boards
