// tests/simulator/rtl_axi_test.cc — the Zynq IP (hls/rtl/accelc_axi.sv,
// verilated for tiny and vta-default) driven through its control registers,
// with DRAM behind its AXI4 master (simulator/rtl/axi_memory.h): against the
// SystemC cycle model, the same DRAM and, with a memory that keeps the
// contract, the same cycles; its faults and ABORT.
#include <gtest/gtest.h>

#include <algorithm>

#include "isa/builder.h"
#include "isa/random_program.h"
#include "simulator/rtl/axi_run.h"
#include "simulator/rtl/builtin_models.h"
#include "isa/control_regs.h"
#include "simulator/rtl/rtl_sim.h"
#include "tests/simulator/cycle_runs.h"
#include "tests/simulator/rtl_util.h"
#include "tests/simulator/sim_util.h"
#include "tests/test_util.h"

namespace accelc::simulator {
namespace {

namespace regs = isa::regs;

class RtlAxiTest : public ::testing::TestWithParam<std::string> {};

std::vector<isa::Program> randomPrograms(const isa::Target& t, uint64_t count) {
  std::vector<isa::Program> programs;
  for (uint64_t seed = 1; seed <= count; ++seed) {
    auto p = isa::randomProgram(t, seed);
    EXPECT_TRUE(p.isOk()) << p.diag().str();
    if (p) programs.push_back(*p);
  }
  return programs;
}

AxiRunOptions contract(const isa::Target& t) {
  AxiRunOptions o;
  o.memory.latency = static_cast<uint64_t>(t.spec.dramLatency);
  return o;
}

std::unique_ptr<RtlModel> axiModel(const isa::Target& t, const AxiRunOptions& o) {
  auto ip = builtinAxiModel(t);
  EXPECT_TRUE(ip.isOk()) << ip.diag().str();
  return ip ? axiRtlModel(std::move(*ip), o) : nullptr;
}

TEST_P(RtlAxiTest, RandomProgramsEndInTheCycleModelsCycle) {
  const isa::Target t = testing::presetTarget(GetParam());
  const std::vector<isa::Program> programs = randomPrograms(t, 200);
  const std::vector<testing::RtlRun> runs = testing::cycleModelRuns(t, programs);
  ASSERT_EQ(runs.size(), programs.size());
  auto model = axiModel(t, contract(t));
  ASSERT_NE(model, nullptr);
  testing::expectRtlMatches(*model, t, runs);
}

TEST_P(RtlAxiTest, AMemoryThatStallsChangesTheCyclesButNotTheData) {
  const isa::Target t = testing::presetTarget(GetParam());
  const std::vector<isa::Program> programs = randomPrograms(t, 40);
  const std::vector<testing::RtlRun> runs = testing::cycleModelRuns(t, programs);
  ASSERT_EQ(runs.size(), programs.size());
  AxiRunOptions o = contract(t);
  o.memory.stallPercent = 30, o.memory.seed = 7;
  auto model = axiModel(t, o);
  ASSERT_NE(model, nullptr);
  testing::expectRtlMatches(*model, t, runs, false);
}

TEST_P(RtlAxiTest, AnErrorResponseStopsTheRunWithItsStatus) {
  const isa::Target t = testing::presetTarget(GetParam());
  auto p = isa::randomProgram(t, 3);
  ASSERT_TRUE(p.isOk());
  AxiRunOptions o = contract(t);
  o.memory.errorLo = o.base + p->text().addr, o.memory.errorHi = o.memory.errorLo + 1;  // the first text burst
  auto model = axiModel(t, o);
  std::vector<uint8_t> dram = testing::programImage(*p);
  auto r = runOnRtl(*model, t, *p, dram, RtlRunOptions{1000000, ""}, "p.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str(),
            "p.bin: error: an AXI response on the DRAM port was SLVERR or DECERR (STATUS bit 3), fetch at pc 0");
}

TEST_P(RtlAxiTest, ABurstPastTheWindowStopsTheRun) {
  const isa::Target t = testing::presetTarget(GetParam());
  // A LOAD of the input entry just past the window (as built first).
  auto build = [&](int64_t entry) {
    isa::ProgramBuilder b(t);
    b.text(0);
    b.add(testing::mem(isa::Opcode::kLoad, isa::Buffer::kInp, 0, entry, 1, 1, 1));
    b.add(isa::makeInstruction(isa::Opcode::kFinish));
    return b.finish("p.bin");
  };
  auto first = build(0);
  ASSERT_TRUE(first.isOk()) << first.diag().str();
  auto p = build(static_cast<int64_t>(first->window) / t.spec.entryBytes(hwspec::BufferKind::kInput));
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  ASSERT_EQ(p->window, first->window);
  auto model = axiModel(t, contract(t));
  std::vector<uint8_t> dram = testing::programImage(*p);
  auto r = runOnRtl(*model, t, *p, dram, RtlRunOptions{1000000, ""}, "p.bin");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str(), "p.bin: error: a DMA burst past the DRAM window (STATUS bit 1), fetch at pc 2");
}

/// A register of the IP; a read it never answers fails the test.
uint32_t rd(AxiModel& ip, uint32_t offset) {
  const std::optional<uint32_t> v = ip.read(offset);
  EXPECT_TRUE(v.has_value()) << "register " << offset;
  return v.value_or(0);
}
void wr(AxiModel& ip, uint32_t offset, uint32_t value) { EXPECT_TRUE(ip.write(offset, value)) << "register " << offset; }

/// Writes a 64-bit register pair.
void write64(AxiModel& ip, uint32_t lo, uint64_t v) {
  wr(ip, lo, static_cast<uint32_t>(v));
  wr(ip, lo + 4, static_cast<uint32_t>(v >> 32));
}

TEST_P(RtlAxiTest, AbortReturnsAHungRunToIdleAndTheNextRunWorks) {
  const isa::Target t = testing::presetTarget(GetParam());
  // A run that never ends.
  const isa::Program hung = testing::hungProgram(t);
  auto good = isa::randomProgram(t, 5);
  ASSERT_TRUE(good.isOk());
  const std::vector<testing::RtlRun> ref = testing::cycleModelRuns(t, {*good});
  ASSERT_EQ(ref.size(), 1u);

  auto made = builtinAxiModel(t);
  ASSERT_TRUE(made.isOk()) << made.diag().str();
  AxiModel& ip = **made;
  const uint64_t base = 0x40000000;
  // The hung program's text goes past the good one's window.
  std::vector<uint8_t> dram = testing::programImage(*good);
  const uint64_t hungAt = (dram.size() + 4095) / 4096 * 4096;
  const std::vector<uint8_t>& text = hung.text().bytes;
  dram.resize(hungAt + text.size());
  std::copy(text.begin(), text.end(), dram.begin() + static_cast<long>(hungAt));
  ip.powerOn(dram.data(), base, dram.size(), contract(t).memory, {});
  EXPECT_EQ(rd(ip, regs::kHashLo) | uint64_t{rd(ip, regs::kHashHi)} << 32, t.hash);
  write64(ip, regs::kDramBaseLo, base), write64(ip, regs::kWindowLo, dram.size());
  EXPECT_EQ(rd(ip, regs::kApCtrl) & regs::kApIdle, regs::kApIdle);
  wr(ip, regs::kInsnAddr, static_cast<uint32_t>(hungAt)), wr(ip, regs::kInsnCount, 2);
  wr(ip, regs::kIer, 1), wr(ip, regs::kGie, 1), wr(ip, regs::kApCtrl, regs::kApStart);
  EXPECT_EQ(ip.run(20000, true), 20000u);  // no interrupt
  EXPECT_EQ(rd(ip, regs::kApCtrl) & (regs::kApIdle | regs::kApDone), 0u);
  wr(ip, regs::kAbort, 1);
  ip.run(200, false);
  EXPECT_EQ(rd(ip, regs::kApCtrl) & (regs::kApIdle | regs::kApDone), regs::kApIdle);

  // The next run on the same IP gives the cycle model's cycles and DRAM.
  wr(ip, regs::kInsnAddr, static_cast<uint32_t>(good->text().addr));
  wr(ip, regs::kInsnCount, static_cast<uint32_t>(good->insnCount(t)));
  wr(ip, regs::kApCtrl, regs::kApStart);
  ASSERT_LT(ip.run(4 * ref[0].cycles + 1000, true), 4 * ref[0].cycles + 1000);
  EXPECT_EQ(rd(ip, regs::kStatus), 0u);
  EXPECT_EQ(rd(ip, regs::kCyclesLo) | uint64_t{rd(ip, regs::kCyclesHi)} << 32, ref[0].cycles);
  EXPECT_EQ(rd(ip, regs::kApCtrl) & regs::kApDone, regs::kApDone);  // and reading cleared it
  EXPECT_EQ(rd(ip, regs::kApCtrl) & regs::kApDone, 0u);
  EXPECT_EQ(rd(ip, regs::kIsr), 1u);  // done, enabled
  wr(ip, regs::kIsr, 1);
  EXPECT_EQ(rd(ip, regs::kIsr), 0u);
  for (size_t i = 0; i < ref[0].after.size(); ++i) ASSERT_EQ(dram[i], ref[0].after[i]) << "byte " << i;
}

INSTANTIATE_TEST_SUITE_P(Presets, RtlAxiTest, ::testing::Values("tiny", "vta-default"));

}  // namespace
}  // namespace accelc::simulator
