// tests/boards/board_test.cc — the iCE40 UP5K top level
// (boards/ice40/accelc_ice40_top.sv) verilated with examples/ice40_dense.s as its
// image: from configuration it copies the image into DRAM and clears the rest
// of the window, runs the program, and raises `done` the cycle after the
// core's; its DRAM then equals the cycle model's, and the core's run takes the
// cycle model's count.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "boards/ice40/board.h"
#include "hls/rtl_gen.h"
#include "isa/assembler.h"
#include "simulator/cycle/cycle_sim.h"
#include "tests/test_util.h"

namespace accelc::simulator {
namespace {

/// Two lower-case hex digits per byte: how the board's harness writes DRAM.
std::string hexOf(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : bytes) hex += digits[b >> 4], hex += digits[b & 15];
  return hex;
}

TEST(BoardTest, TheUp5kTopLevelRunsItsProgramAsTheCycleModelDoes) {
  const isa::Target t = testing::presetTarget("ice40");
  const std::string src = std::string(ACCELC_SOURCE_DIR) + "/examples/ice40_dense.s";
  auto p = isa::assembleFile(src, t);
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  const std::string dir = testing::tempDir() + "/board-sim";
  std::filesystem::remove_all(dir);  // a folder verilated from other sources is not reused
  ASSERT_TRUE(boards::writeIce40Board(t, *p, src, dir).isOk());
  std::string files;
  for (const std::string& f : hls::rtlFiles()) files += " " + f;
  const std::string verilate = "cd '" + dir + "' && OBJCACHE=ccache verilator --cc --exe --build -j 2 -O2 -Wall " +
                               "-Wno-UNUSEDPARAM --public-flat-rw --top-module accelc_ice40_top -Mdir obj -o board" +
                               files + " accelc_image_pkg.sv accelc_ice40_top.sv " + ACCELC_SOURCE_DIR +
                               "/boards/ice40/board_main.cc > verilate.log 2>&1";
  ASSERT_EQ(std::system(verilate.c_str()), 0) << testing::readFile(dir + "/verilate.log");

  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  ASSERT_TRUE((*sim)->loadProgram(*p).isOk());
  auto stats = (*sim)->run(*p, src);
  ASSERT_TRUE(stats.isOk()) << stats.diag().str();
  std::vector<uint8_t> after(p->window);
  ASSERT_TRUE((*sim)->read(0, after.data(), after.size()).isOk());

  const uint64_t words = p->window / 2;
  const std::string run = "cd '" + dir + "' && obj/board 1000000 " + std::to_string(words) + " > run.out";
  ASSERT_EQ(std::system(run.c_str()), 0);
  std::istringstream out(testing::readFile(dir + "/run.out"));
  std::string word, hex;
  uint64_t done = 0;
  out >> word >> done >> hex;
  ASSERT_EQ(word, "done") << testing::readFile(dir + "/run.out");
  // 16 cycles of power-on reset, one word of the window a cycle, the start
  // cycle, the core's run from the cycle after it, and `done`'s register.
  EXPECT_EQ(done, 16 + words + 1 + 1 + stats->cycles + 1);
  EXPECT_EQ(hex, hexOf(after));
}

}  // namespace
}  // namespace accelc::simulator
