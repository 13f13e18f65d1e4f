// tests/tools/dse_cluster_test.cc — accelc dse on a real one-node Slurm
// cluster (tests/dse/slurm_cluster.sh): the same results as the local engine.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/tools/cli_util.h"

namespace accelc {
namespace {

/// A one-node Slurm cluster in the test's temporary folder (tests/dse/slurm_cluster.sh), stopped at the end.
class SlurmCluster {
 public:
  explicit SlurmCluster(const std::string& dir) : dir_(dir) {
    const std::string script = kSrc + "/tests/dse/slurm_cluster.sh";
    const std::string log = dir + ".start.log";
    std::filesystem::remove_all(dir);
    started_ = std::system(("bash " + script + " start " + dir + " > " + log + " 2>&1").c_str()) == 0;
    startLog_ = testing::readFile(log);
    if (started_) ::setenv("SLURM_CONF", (dir + "/slurm.conf").c_str(), 1);
  }
  ~SlurmCluster() { (void)std::system(("bash " + kSrc + "/tests/dse/slurm_cluster.sh stop " + dir_).c_str()); }
  bool started() const { return started_; }
  const std::string& startLog() const { return startLog_; }

 private:
  std::string dir_, startLog_;
  bool started_ = false;
};

TEST(CliTest, ASweepOnSlurmJobArraysGivesTheLocalEnginesResults) {
  const std::string sweep = kTmp + "/dse-slurm-sweep.yaml", local = kTmp + "/dse-slurm-local", onSlurm = kTmp + "/dse-slurm";
  // 6 points, one of them refused by the schema; the cluster's MaxArraySize of 5 cuts the 6 tasks into two arrays.
  std::ofstream(sweep) << "base: vta-default\nvary:\n  timing.alu_ii: [1, 2]\n  buffers.acc: [32B, 64KiB, 128KiB]\n";
  const std::string args = "dse " + kSrc + "/models/digits/digits_int8.onnx --sweep " + sweep;
  std::filesystem::remove_all(local);
  Result r = sh(args + " -o " + local);
  ASSERT_EQ(r.rc, 0) << r.out;
  SlurmCluster cluster(kTmp + "/slurm-cluster");
  ASSERT_TRUE(cluster.started()) << cluster.startLog();  // names the step that failed
  std::filesystem::remove_all(onSlurm);
  r = sh(args + " -o " + onSlurm + " --engine slurm");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("6 points: 4 ok, 2 failed; 6 evaluated now"), std::string::npos) << r.out;
  EXPECT_EQ(testing::readFile(onSlurm + "/results.jsonl"), testing::readFile(local + "/results.jsonl"));
  // A rerun submits only the points without a record: two, as one array of two tasks.
  std::filesystem::remove(onSlurm + "/points/2.json");
  std::filesystem::remove(onSlurm + "/points/5.json");
  r = sh(args + " -o " + onSlurm + " --engine slurm");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("6 points, 2 to evaluate"), std::string::npos) << r.out;
  EXPECT_EQ(testing::readFile(onSlurm + "/slurm/tasks.txt"), "2 \n5 \n");
  EXPECT_EQ(testing::readFile(onSlurm + "/results.jsonl"), testing::readFile(local + "/results.jsonl"));
}

// --yosys: the point's core synthesized by Yosys, its cells beside the estimate in the record and the table.
TEST(CliTest, ASweepWithYosysRecordsTheSynthesizedCore) {
  const std::string dir = kTmp + "/dse-yosys", sweep = kTmp + "/dse-yosys.yaml";
  std::filesystem::remove_all(dir);
  std::ofstream(sweep) << "base: tiny\nvary:\n  dram.bytes_per_cycle: [4]\n";
  const Result r = sh("dse " + kSrc + "/models/digits/digits_int8.onnx --sweep " + sweep + " -o " + dir + " --yosys");
  ASSERT_EQ(r.rc, 0) << r.out;
  const std::string results = testing::readFile(dir + "/results.jsonl");
  const size_t at = results.find("\"yosys\":{\"lut\":");
  ASSERT_NE(at, std::string::npos) << results;
  EXPECT_GT(std::atoll(results.c_str() + at + 15), 1000) << "tiny's core takes thousands of LUTs\n" << results;
  EXPECT_NE(testing::readFile(dir + "/points.csv").find(",yosys_lut,yosys_ff,yosys_dsp,yosys_bram\n"), std::string::npos);
}

}  // namespace
}  // namespace accelc
