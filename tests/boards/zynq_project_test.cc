// tests/boards/zynq_project_test.cc — the Vitis HLS and Vivado project of the
// HLS IP for a Zynq board: golden scripts and sources for vta-default on
// PYNQ-Z1, every file the scripts name shipped or made by an earlier step,
// the project's own test bench passing in C-simulation (g++ and the shim),
// and a hwspec that does not fit refused naming the resource.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <set>

#include "boards/zynq/project.h"
#include "hls/hls_gen.h"
#include "support/yaml.h"
#include "tests/test_util.h"

namespace accelc::boards {
namespace {

/// The project of vta-default on PYNQ-Z1, written once per test into a folder of its own;
/// `written` gets the files it wrote.
std::string project(const std::string& tag, std::vector<std::string>* written = nullptr) {
  auto b = loadBoard("pynq-z1");
  EXPECT_TRUE(b.isOk());
  const std::string dir = testing::tempDir() + "/zynq-" + tag;
  auto files = writeZynqProject(*b, testing::presetTarget("vta-default"), dir);
  EXPECT_TRUE(files.isOk()) << files.diag().str();
  if (files && written) *written = *files;
  return dir;
}

TEST(ZynqProjectTest, TheScriptsAndSourcesForVtaDefaultOnPynqZ1AreTheGoldenOnes) {
  const std::string dir = project("golden");
  for (const char* f : {"run_hls.tcl", "vivado.tcl", "Makefile", "accelc_params.h"})
    testing::expectGolden(std::string("hls/pynq-z1/") + f, testing::readFile(dir + "/" + f));
}

TEST(ZynqProjectTest, EveryFileTheScriptsNameIsShippedOrMadeByAStep) {
  std::vector<std::string> written;
  const std::string dir = project("names", &written);
  std::set<std::string> known(written.begin(), written.end());
  EXPECT_EQ(known.count("rtl/package_ip.tcl"), 1u);  // vta-default's RTL IP beside the HLS one
  EXPECT_EQ(known.count("rtl/accelc_axi.sv"), 1u);
  for (const std::string& f : hls::hlsFiles()) known.insert(f);
  for (const std::string& f : hls::flowFiles()) known.insert(f);
  for (const auto& [f, step] : hls::flowProducts()) known.insert(f);
  for (const std::string& f : known) EXPECT_FALSE(f.empty());
  // A file name: a path of letters, digits, '_', '-', '.', '/' and '*' ending in an extension the flow uses.
  const std::regex name(R"([A-Za-z0-9_./*-]+\.(cpp|h|tcl|bin|txt|rpt|xml|xpr|bit|hwh|xsa|bd|v|log)\b)");
  size_t checked = 0;
  for (const char* script : {"run_hls.tcl", "vivado.tcl", "Makefile"}) {
    const std::string text = testing::readFile(dir + "/" + script);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), name); it != std::sregex_iterator(); ++it) {
      std::string f = it->str();
      if (f.find("docs/") == 0 || f == "accelc.bd") continue;  // the comment's pointer; the design Vivado names
      const bool glob = f.find('*') != std::string::npos;
      bool ok = known.count(f) > 0;
      if (glob || f.find("accelc_vivado/") == 0) ok = true;  // inside the Vivado project, which vivado.tcl creates
      EXPECT_TRUE(ok) << script << " names '" << f << "', which the flow neither ships nor makes";
      ++checked;
    }
  }
  EXPECT_GT(checked, 15u);
  for (const std::string& f : written) EXPECT_TRUE(support::isRegularFile(dir + "/" + f)) << f;
}

TEST(ZynqProjectTest, TheProjectsTestBenchPassesInCSimulation) {
  const std::string dir = project("csim");
  ASSERT_TRUE(support::makeDirs(dir + "/csim"));
  for (const auto& [name, text] : hls::csimSources()) {
    if (name.size() > 2 && name.compare(name.size() - 2, 2, ".h") == 0) {
      ASSERT_TRUE(support::writeTextFile(dir + "/csim/" + name, text).isOk());
    }
  }
  const std::string build = "cd '" + dir + "' && g++ -std=c++14 -O1 -Wno-unknown-pragmas -I. -Icsim accelc_tb.cpp " +
                            "accelc_accel.cpp -o tb.out -pthread > tb.log 2>&1";
  ASSERT_EQ(std::system(build.c_str()), 0) << testing::readFile(dir + "/tb.log");
  EXPECT_EQ(std::system(("cd '" + dir + "' && ./tb.out > run.log 2>&1").c_str()), 0) << testing::readFile(dir + "/run.log");
  EXPECT_EQ(testing::readFile(dir + "/run.log"), "STATUS 0, STOP_PC 21, 0 of 90112 bytes differ from accelc's "
                                                 "functional simulator\n");
  // A wrong expectation fails the test bench.
  std::string expected = testing::readFile(dir + "/tb/expected.bin");
  expected[expected.size() / 2] ^= 1;
  ASSERT_TRUE(support::writeTextFile(dir + "/tb/expected.bin", expected).isOk());
  EXPECT_NE(std::system(("cd '" + dir + "' && ./tb.out > run.log 2>&1").c_str()), 0);
  EXPECT_NE(testing::readFile(dir + "/run.log").find(" 1 of 90112 bytes differ"), std::string::npos);
}

TEST(ZynqProjectTest, AHwspecThatDoesNotFitIsRefusedNamingTheResource) {
  auto b = loadBoard("pynq-z1");
  ASSERT_TRUE(b.isOk());
  auto files = writeZynqProject(*b, testing::presetTarget("wide"), testing::tempDir() + "/zynq-wide");
  ASSERT_FALSE(files.isOk());
  EXPECT_EQ(files.diag().str().rfind("boards/pynq-z1.yaml: error: the accelerator of 'wide' does not fit pynq-z1: LUT "
                                     "needs ", 0), 0u) << files.diag().str();
  EXPECT_FALSE(support::isRegularFile(testing::tempDir() + "/zynq-wide/run_hls.tcl"));  // refused before writing
}

}  // namespace
}  // namespace accelc::boards
