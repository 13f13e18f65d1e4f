// tests/hls/synth_core_test.cc — the whole accelerator for tiny through
// `accelc synth` on iCE40 (Yosys, about a minute and a half): every memory of
// the memory template (buffers, command queues, fetch's text memory) becomes
// block RAM, flip-flops hold only the small
// control FIFOs, and the block RAMs and DSPs are the hwspec's estimate.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <set>
#include <string>

#include "hls/synth_gen.h"
#include "tests/test_util.h"

namespace accelc::hls {
namespace {

TEST(SynthCoreTest, TinyOnIce40PutsEveryBufferQueueAndTheTextInBlockRam) {
  const std::string dir = testing::tempDir() + "/synth-core-tiny";
  const std::string cmd = std::string(ACCELC_BINARY) + " synth --hw tiny --target ice40 --top accelc_core -o " + dir +
                          " > " + dir + ".out 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << testing::readFile(dir + ".out");
  auto r = resourcesOf(testing::readFile(dir + "/stat_ice40.txt"), FpgaFamily::kIce40, dir);
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  const Resources e = estimateIce40(testing::presetTarget("tiny"));
  EXPECT_EQ(r->brams, e.brams);
  EXPECT_EQ(r->dsps, e.dsps);
  EXPECT_GT(r->luts, 0);
  // Yosys's memory passes: each memory goes to block RAM (memory_libmap) or,
  // failing that, to flip-flops (memory_map).
  const std::string log = testing::readFile(dir + "/yosys_ice40.log");
  std::set<std::string> inRam, inFlipFlops;
  const std::regex ram("mapping memory accelc_core\\.(\\S+) via \\$__ICE40_RAM4K_"),
      ffs("Mapping memory \\\\(\\S+) in module");
  for (std::sregex_iterator i(log.begin(), log.end(), ram), end; i != end; ++i) inRam.insert((*i)[1]);
  for (std::sregex_iterator i(log.begin(), log.end(), ffs), end; i != end; ++i) inFlipFlops.insert((*i)[1]);
  const std::set<std::string> buffersAndQueues = {
      "engine.uop_buf.bank[0].ram.mem",
      "engine.inp_buf.bank[0].ram.mem",
      "engine.wgt_buf.bank[0].ram.mem",
      "engine.wgt_buf.bank[1].ram.mem",
      "engine.wgt_buf.bank[2].ram.mem",
      "engine.wgt_buf.bank[3].ram.mem",
      "engine.acc_buf.bank[0].ram.mem",
      "engine.acc_buf.bank[1].ram.mem",
      "engine.acc_buf.bank[2].ram.mem",
      "engine.acc_buf.bank[3].ram.mem",
      "engine.store_path.out_buf.bank[0].ram.mem",
      "engine.cqs[0].queue.bram.ram.mem",
      "engine.cqs[1].queue.bram.ram.mem",
      "engine.cqs[2].queue.bram.ram.mem",
      "engine.fetch.text[0].ram.mem",
      "engine.fetch.text[1].ram.mem",
      "engine.fetch.text[2].ram.mem",
      "engine.fetch.text[3].ram.mem"};  // the text memory: a bank per beat of an instruction (16 / 4 bytes)
  EXPECT_EQ(inRam, buffersAndQueues);
  // In flip-flops: the DRAM port's queues of accepted bursts (outstanding: 2
  // deep) and the STORE's four-entry FIFO (each command queue's pointers are
  // registers of its own module now, not a memory).
  const std::set<std::string> controlFifos = {"port.aq_at",    "port.aq_req", "port.bq_addr", "port.bq_at",
                                              "port.bq_beats", "port.bq_req", "port.bq_wr",   "engine.store_path.sf_data"};
  EXPECT_EQ(inFlipFlops, controlFifos);
}

}  // namespace
}  // namespace accelc::hls
