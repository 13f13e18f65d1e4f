// tests/boards/virtual_board_verilate_test.cc — a virtual board of a hwspec
// the build verilated no IP for: accelc-vboard verilates the Zynq IP at run
// time into the cache of verilated models, and the driver runs programs on
// it as the cycle model does; a model compiled for that hwspec gives on it
// the outputs and cycles of --engine rtl. Heavy: a first verilation takes
// minutes.
#include <dirent.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "boards/driver/driver.h"
#include "boards/virtual/virtual_bus.h"
#include "hwspec/hwspec.h"
#include "isa/random_program.h"
#include "support/yaml.h"
#include "tests/simulator/cycle_runs.h"
#include "tests/test_util.h"
#include "tests/tools/cli_util.h"

namespace accelc::boards {
namespace {

/// tiny with a longer DRAM latency: no preset, so no IP of it is linked in.
std::string slowTinyYaml() {
  std::string y = hwspec::presetText("tiny");
  auto swap = [&y](const std::string& from, const std::string& to) {
    const size_t at = y.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) y.replace(at, from.size(), to);
  };
  swap("name: tiny", "name: tiny-slow-dram");
  swap("latency_cycles: 8", "latency_cycles: 12");
  return y;
}

/// The folders of `dir` whose names end in `suffix`.
int foldersEndingIn(const std::string& dir, const std::string& suffix) {
  int n = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      n += name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    }
    ::closedir(d);
  }
  return n;
}

TEST(VirtualBoardVerilateTest, AnotherHwspecsIpIsVerilatedOnceAndRunsAsTheCycleModel) {
  const std::string cache = testing::tempDir() + "/rtl-cache-vboard";
  std::filesystem::remove_all(cache);              // a build tree keeps the IPs of RTL since changed
  ::setenv("ACCELC_RTL_CACHE", cache.c_str(), 1);  // the board's process inherits it
  auto spec = hwspec::parseHwSpec(slowTinyYaml(), "slow-tiny.yaml");
  ASSERT_TRUE(spec.isOk()) << spec.diag().str();
  auto t = isa::loadTarget(*spec);
  ASSERT_TRUE(t.isOk()) << t.diag().str();
  std::vector<isa::Program> programs;
  for (uint64_t seed = 1; seed <= 4; ++seed) programs.push_back(*isa::randomProgram(*t, seed));
  const std::vector<testing::RtlRun> ref = testing::cycleModelRuns(*t, programs);
  ASSERT_EQ(ref.size(), programs.size());
  VirtualBoardOptions o;
  o.board = "test", o.hwspecYaml = t->spec.canonicalYaml(), o.clockMhz = 100;
  o.poolPhysical = 0x18000000, o.poolBytes = 1 << 22, o.randomSeed = 0;
  for (size_t i = 0; i < programs.size(); ++i) {  // the first opening verilates, the others load the cache's
    auto bus = openVirtualBoard(o);
    ASSERT_TRUE(bus.isOk()) << bus.diag().str();
    auto d = Driver::open(std::move(*bus), *t, programs[i].window);
    ASSERT_TRUE(d.isOk()) << d.diag().str();
    const std::vector<uint8_t> image = testing::programImage(programs[i]);
    ASSERT_TRUE((*d)->write(0, image.data(), image.size()).isOk());
    auto cycles = (*d)->run(programs[i].text().addr, programs[i].insnCount(*t), "p.bin");
    ASSERT_TRUE(cycles.isOk()) << cycles.diag().str();
    EXPECT_EQ(*cycles, ref[i].cycles) << "program " << i;
    std::vector<uint8_t> after(programs[i].window);
    ASSERT_TRUE((*d)->read(0, after.data(), after.size()).isOk());
    EXPECT_TRUE(after == ref[i].after) << "program " << i;
  }
  EXPECT_EQ(foldersEndingIn(cache, "-axi"), 1);
}

TEST(VirtualBoardVerilateTest, ABundleForAHwspecFileRunsOnTheBoardAsOnTheRtl) {
  ::setenv("ACCELC_RTL_CACHE", (kTmp + "/rtl-cache-vboard-cli").c_str(), 1);
  const std::string hw = kTmp + "/slow-tiny.yaml", acx = kTmp + "/digits-slow-tiny.acx";
  ASSERT_TRUE(support::writeTextFile(hw, slowTinyYaml()).isOk());
  Result c = sh("compile " + kSrc + "/models/digits/digits_int8.onnx --hw " + hw + " -o " + acx);
  ASSERT_EQ(c.rc, 0) << c.out;
  const std::string in = " --input input=" + kSrc + "/models/digits/input.npy --output ";
  Result rtl = sh("run " + acx + " --engine rtl" + in + kTmp + "/digits-slow-tiny-rtl");
  ASSERT_EQ(rtl.rc, 0) << rtl.out;
  Result vb = sh("run " + acx + " --engine virtual:pynq-z1" + in + kTmp + "/digits-slow-tiny-vb");
  ASSERT_EQ(vb.rc, 0) << vb.out;
  EXPECT_EQ(testing::readFile(kTmp + "/digits-slow-tiny-rtl/logits.npy"),
            testing::readFile(kTmp + "/digits-slow-tiny-vb/logits.npy"));
  const std::string cycles = " cycles on the accelerator (RTL)";
  const size_t at = rtl.out.find(cycles);
  ASSERT_NE(at, std::string::npos) << rtl.out;
  const std::string line = rtl.out.substr(rtl.out.rfind('\n', at) + 1, at - rtl.out.rfind('\n', at) - 1) + cycles;
  EXPECT_NE(vb.out.find(line), std::string::npos) << vb.out << "\nwithout: " << line;
}

}  // namespace
}  // namespace accelc::boards
