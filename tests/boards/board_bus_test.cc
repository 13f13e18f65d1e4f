// tests/boards/board_bus_test.cc — a board's bus (boards/driver/board_bus.h)
// against a tree of plain files in the layout of sysfs and /dev: the UIO
// node named "accelc", the u-dma-buf pool and its sync files. The driver
// opens it (HWSPEC_HASH, DRAM_BASE at the pool's physical address,
// DRAM_WINDOW), flushes before a run, and, since nothing answers ap_start
// in a file, times out, ABORTs and says the IP never came back to idle.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "boards/driver/board_bus.h"
#include "boards/driver/driver.h"
#include "isa/control_regs.h"
#include "tests/test_util.h"

namespace accelc::boards {
namespace {

namespace fs = std::filesystem;
namespace regs = isa::regs;

class BoardBusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::tempDir() + "/board_bus_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    put("sys/class/uio/uio0/name", "accelc\n");
    put("sys/class/uio/uio0/maps/map0/size", "0x1000\n");
    put("sys/class/u-dma-buf/udmabuf0/size", "65536\n");
    put("sys/class/u-dma-buf/udmabuf0/phys_addr", "0x70000000\n");
    for (const char* f : {"sync_offset", "sync_size", "sync_direction", "sync_for_device", "sync_for_cpu"})
      put(std::string("sys/class/u-dma-buf/udmabuf0/") + f, "");
    put("dev/uio0", std::string(4096, '\0'));
    put("dev/udmabuf0", std::string(65536, '\0'));
    setRegister(regs::kHashLo, static_cast<uint32_t>(t_.hash));
    setRegister(regs::kHashHi, static_cast<uint32_t>(t_.hash >> 32));
  }

  void put(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(root_ + "/" + path).parent_path());
    std::ofstream(root_ + "/" + path, std::ios::binary) << text;
  }
  void setRegister(uint32_t offset, uint32_t v) {
    std::fstream f(root_ + "/dev/uio0", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(offset);
    f.write(reinterpret_cast<const char*>(&v), 4);
  }
  uint32_t reg(uint32_t offset) {
    std::ifstream f(root_ + "/dev/uio0", std::ios::binary);
    f.seekg(offset);
    uint32_t v = 0;
    f.read(reinterpret_cast<char*>(&v), 4);
    return v;
  }
  std::string word(const std::string& path) { return testing::readFile(root_ + "/" + path); }

  BoardBusOptions options() const {
    BoardBusOptions o;
    o.board = "kv260", o.dmaDevice = "/dev/udmabuf0", o.sysfs = root_ + "/sys", o.dev = root_ + "/dev";
    return o;
  }

  isa::Target t_ = testing::presetTarget("tiny");
  std::string root_;
};

TEST_F(BoardBusTest, TheDriverOpensTheBoardFlushesAndAbortsARunNothingAnswers) {
  auto bus = openBoardBus(options());
  ASSERT_TRUE(bus.isOk()) << bus.diag().str();
  DriverOptions o;
  o.timeoutNs = 1'000'000, o.pollNs = 100'000;
  auto d = Driver::open(std::move(*bus), t_, 8192, o);
  ASSERT_TRUE(d.isOk()) << d.diag().str();
  EXPECT_EQ(reg(regs::kDramBaseLo), 0x70000000u);
  EXPECT_EQ(reg(regs::kDramBaseHi), 0u);
  EXPECT_EQ(reg(regs::kWindowLo), 8192u);
  const uint8_t bytes[4] = {1, 2, 3, 4};
  ASSERT_TRUE((*d)->write(100, bytes, 4).isOk());
  EXPECT_EQ(testing::readFile(root_ + "/dev/udmabuf0").substr(100, 4), std::string("\1\2\3\4"));
  auto r = (*d)->run(64, 5, "p.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str(),
            "board kv260 (" + root_ + "/dev/uio0): error: the accelerator did not return to idle after ABORT: reset "
            "the board");
  EXPECT_EQ(reg(regs::kInsnAddr), 64u);
  EXPECT_EQ(reg(regs::kInsnCount), 5u);
  EXPECT_EQ(reg(regs::kAbort), 1u);
  // The window went to the device before the start: a flush of all of it.
  const std::string sync = "sys/class/u-dma-buf/udmabuf0/";
  EXPECT_EQ(word(sync + "sync_offset"), "0");
  EXPECT_EQ(word(sync + "sync_size"), "8192");
  EXPECT_EQ(word(sync + "sync_direction"), "1");
  EXPECT_EQ(word(sync + "sync_for_device"), "1");
  EXPECT_EQ(word(sync + "sync_for_cpu"), "");
}

TEST_F(BoardBusTest, ACoherentPortNeedsNoCacheMaintenance) {
  BoardBusOptions o = options();
  o.coherent = true;
  auto bus = openBoardBus(o);
  ASSERT_TRUE(bus.isOk()) << bus.diag().str();
  EXPECT_TRUE((*bus)->flush(0, 4096).isOk());
  EXPECT_EQ(word("sys/class/u-dma-buf/udmabuf0/sync_for_device"), "");
}

TEST_F(BoardBusTest, WhatIsMissingIsNamed) {
  fs::remove_all(root_ + "/sys/class/u-dma-buf");
  auto noPool = openBoardBus(options());
  ASSERT_FALSE(noPool.isOk());
  EXPECT_EQ(noPool.diag().str(), "device 'board:kv260': error: no DMA pool: " + root_ +
                                     "/sys/class/u-dma-buf/udmabuf0 has no size and phys_addr (is the u-dma-buf "
                                     "module loaded?)");
  BoardBusOptions cma = options();
  cma.udmabuf = false;
  auto heap = openBoardBus(cma);
  ASSERT_FALSE(heap.isOk());
  EXPECT_NE(heap.diag().str().find("the board file's DMA allocator is the CMA heap, which gives user space no "
                                   "physical address"),
            std::string::npos);
  put("sys/class/uio/uio0/name", "other\n");
  auto none = openBoardBus(options());
  ASSERT_FALSE(none.isOk());
  EXPECT_EQ(none.diag().str(), "device 'board:kv260': error: no accelerator on this machine: no UIO device named "
                               "'accelc' in " + root_ + "/sys/class/uio (docs/deploy.md says how a board shows it)");
}

TEST_F(BoardBusTest, ABitstreamOfAnotherHwspecIsRefused) {
  setRegister(regs::kHashLo, 0x1234);
  auto bus = openBoardBus(options());
  ASSERT_TRUE(bus.isOk()) << bus.diag().str();
  auto d = Driver::open(std::move(*bus), t_, 8192);
  ASSERT_FALSE(d.isOk());
  EXPECT_NE(d.diag().str().find("error: the accelerator was built for target 0x"), std::string::npos) << d.diag().str();
}

}  // namespace
}  // namespace accelc::boards
