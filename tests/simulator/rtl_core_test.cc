// tests/simulator/rtl_core_test.cc — the RTL control core (hls/rtl/accelc_core.sv,
// verilated per preset) against the SystemC cycle model: the same programs
// end in exactly the same cycle with the same DRAM.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "isa/builder.h"
#include "isa/random_program.h"
#include "simulator/cycle/cycle_sim.h"
#include "simulator/rtl/builtin_models.h"
#include "simulator/rtl/rtl_sim.h"
#include "simulator/timing/timing.h"
#include "tests/simulator/cycle_runs.h"
#include "tests/simulator/rtl_util.h"
#include "tests/simulator/sim_util.h"
#include "tests/test_util.h"

namespace accelc::simulator {
namespace {

/// Runs `programs` on the cycle model and on the verilated accelerator;
/// expects the same cycle counts and the same DRAM afterwards.
void expectSameRuns(const isa::Target& t, const std::vector<isa::Program>& programs) {
  const std::vector<testing::RtlRun> runs = testing::cycleModelRuns(t, programs);
  ASSERT_EQ(runs.size(), programs.size());
  testing::expectRtlMatches(t, runs);
}

class RtlCoreTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RtlCoreTest, RandomProgramsEndInTheCycleModelsCycle) {
  isa::Target t = testing::presetTarget(GetParam());
  std::vector<isa::Program> programs;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    auto p = isa::randomProgram(t, seed);
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    programs.push_back(*p);
  }
  expectSameRuns(t, programs);
}

/// Accumulator values whose products (mul) wrap to small numbers, so that the
/// low 32 bits show in the saturated output rows, with other ALU edge values.
constexpr int32_t kAluEdges[][2] = {{65537, 65535},  // 2^32 - 1 wraps to -1
                                    {-65537, 65535},
                                    {65536, 65536},
                                    {3, 0x55555556},  // 2^32 + 2
                                    {0x40000001, 4},
                                    {0x7fffffff, 0x7fffffff},  // 2^62 - 2^32 + 1
                                    {-3, 7},
                                    {11, 11},
                                    {std::numeric_limits<int32_t>::min(), -1},
                                    {0x55555555, 40},
                                    {-100, -1},
                                    {77, 5}};

/// One ALU instruction of `op` over acc rows 0-7 (sources 8-15) loaded from
/// kAluEdges; the output rows go back to DRAM.
isa::Program aluProgram(const isa::Target& t, isa::AluOp op, bool useImm, int64_t imm) {
  const int64_t lanes = t.spec.batch * t.spec.blockOut;
  std::vector<int32_t> init(16 * lanes);
  for (int64_t i = 0; i < 8 * lanes; ++i) {
    init[i] = kAluEdges[i % std::size(kAluEdges)][0];
    init[8 * lanes + i] = kAluEdges[i % std::size(kAluEdges)][1];
  }
  std::vector<uint8_t> bytes(init.size() * 4);
  std::memcpy(bytes.data(), init.data(), bytes.size());
  isa::ProgramBuilder b(t);
  b.symbol({"init", isa::SymbolRole::kConst, 0, support::DType::kInt32, {16, lanes}}, bytes);
  b.symbol({"out", isa::SymbolRole::kOutput, 0x8000, support::DType::kInt8, {8, lanes}});
  b.uops("uops", 0x9000, {{0, 8, 0}, {1, 9, 0}});
  b.text(0xA000);
  using isa::Buffer;
  using isa::Opcode;
  b.add(testing::mem(Opcode::kLoad, Buffer::kUop, 0, 0x9000 / t.uopBytes(), 1, 2, 2));
  b.add(testing::mem(Opcode::kLoad, Buffer::kAcc, 0, 0, 2, 8, 8));
  isa::Instruction ai = isa::makeInstruction(Opcode::kAlu);
  isa::AluInsn& a = ai.alu();
  a.aluOp = static_cast<int64_t>(op), a.useImm = useImm, a.imm = imm;
  a.uopBgn = 0, a.uopEnd = 2, a.iterOut = 2, a.iterIn = 2;
  a.dstFactorOut = 4, a.dstFactorIn = 2, a.srcFactorOut = 4, a.srcFactorIn = 2;
  a.pushNext = 1;
  b.add(ai);
  b.add(testing::mem(Opcode::kStore, Buffer::kOut, 0, 0x8000 / lanes, 1, 8, 8, {true, false, false, false}));
  b.add(isa::makeInstruction(Opcode::kFinish));
  auto p = b.finish("alu.bin");
  EXPECT_TRUE(p.isOk()) << p.diag().str();
  return p.isOk() ? *p : isa::Program();
}

TEST_P(RtlCoreTest, EveryAluOpOfTheHardwareMatchesTheCycleModel) {
  isa::Target t = testing::presetTarget(GetParam());
  std::vector<isa::Program> programs;
  for (int k = 0; k < isa::kNumAluOps; ++k) {
    if (!t.spec.hasAluOp(isa::aluOpName(isa::AluOp(k)))) continue;  // illegal on this hardware
    programs.push_back(aluProgram(t, isa::AluOp(k), false, 0));
    programs.push_back(aluProgram(t, isa::AluOp(k), true, -3));
  }
  EXPECT_EQ(programs.size(), 2 * t.spec.aluOps.size());
  expectSameRuns(t, programs);
}

TEST_P(RtlCoreTest, MulWrapsToTheCycleModelsOutputs) {
  isa::Target t = testing::presetTarget(GetParam());
  if (!t.spec.hasAluOp("mul")) GTEST_SKIP() << "no mul in this hardware's alu.ops";
  const isa::Program p = aluProgram(t, isa::AluOp::kMul, false, 0);
  auto sim = CycleSim::create(t);
  ASSERT_TRUE(sim.isOk()) << sim.diag().str();
  ASSERT_TRUE((*sim)->loadProgram(p).isOk());
  ASSERT_TRUE((*sim)->run(p, "mul.bin").isOk());
  // The products' low 32 bits, saturated to int8: the cycle model computes mul as specified.
  const int8_t want[] = {-1, 1, 0, 2, 4, 1, -21, 121, -128, 127, 100, 127};
  const int64_t lanes = t.spec.batch * t.spec.blockOut;
  std::vector<int8_t> out(8 * lanes);
  ASSERT_TRUE((*sim)->read(0x8000, reinterpret_cast<uint8_t*>(out.data()), out.size()).isOk());
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], want[i % std::size(want)]) << "lane " << i;
  expectSameRuns(t, {p});
}

TEST_P(RtlCoreTest, AFullTokenQueueTakesRoomFromAPopInTheSameCycle) {
  // LOAD and ALU instructions alternate; each ALU pops the token of the LOAD
  // before it. The first ALU runs long, so the LOADs fill the load->compute
  // token queue and the next one waits for room; it starts in the cycle the
  // second ALU pops. From there the LOADs (four rows each) are the critical
  // path, so a cycle lost in that start shows in the count.
  isa::Target t = testing::presetTarget(GetParam());
  const int64_t hazard = t.spec.timing.accHazard, n = t.spec.tokenDepth + t.spec.tokenDepth / 2 + 10;
  // The ALUs waiting in their queue leave fetch free to go on: with a shorter
  // command queue (ice40) fetch stops behind an ALU before the token queue fills.
  if (t.spec.commandDepth < t.spec.tokenDepth) GTEST_SKIP() << "command queues shorter than token queues";
  isa::ProgramBuilder b(t);
  std::vector<isa::Uop> uops;
  for (int64_t i = 0; i < hazard; ++i) uops.push_back({static_cast<uint32_t>(i), 0, 0});
  b.uops("uops", 1 << 16, uops);
  b.text(0);
  isa::Instruction uopLoad = isa::makeInstruction(isa::Opcode::kLoad);
  uopLoad.mem().buffer = static_cast<int64_t>(isa::Buffer::kUop);
  uopLoad.mem().ySize = 1, uopLoad.mem().xSize = hazard, uopLoad.mem().xStride = hazard;
  uopLoad.mem().dramBase = (1 << 16) / t.uopBytes();
  b.add(uopLoad);
  isa::Instruction load = isa::makeInstruction(isa::Opcode::kLoad);
  load.mem().buffer = static_cast<int64_t>(isa::Buffer::kInp);
  load.mem().ySize = 4, load.mem().xSize = 1, load.mem().xStride = 1;
  isa::setDeps(load, {false, false, false, true});  // push to compute
  isa::Instruction alu = isa::makeInstruction(isa::Opcode::kAlu);
  alu.alu().uopEnd = hazard, alu.alu().useImm = 1, alu.alu().imm = 1;
  alu.alu().aluOp = static_cast<int64_t>(isa::AluOp::kAdd);
  isa::setDeps(alu, {true, false, false, false});  // pop from load
  const int64_t loadCycles = instructionCycles(load, t.spec);
  // Longer than filling the queue with fetch sharing the port: four times the loads' cycles alone.
  const int64_t iters = 4 * (t.spec.tokenDepth + 2) * loadCycles / (hazard * t.spec.timing.aluIi) + 1;
  alu.alu().iterIn = iters / 8000 + 1, alu.alu().iterOut = iters / alu.alu().iterIn + 1;
  b.add(load), b.add(alu);
  alu.alu().iterIn = 1, alu.alu().iterOut = 1;
  ASSERT_LT(instructionCycles(alu, t.spec), loadCycles);
  for (int64_t i = 1; i < n; ++i) b.add(load), b.add(alu);
  b.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p = b.finish("full.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  expectSameRuns(t, {*p});
}

/// Sets bits [lo, lo + bits) of the instruction at `pc` of `p`'s text to `v`.
void setBits(isa::Program& p, const isa::Target& t, uint64_t pc, int lo, int bits, int64_t v) {
  uint8_t* w = nullptr;
  for (isa::Segment& s : p.segments)
    if (s.role == isa::SegmentRole::kText) w = s.bytes.data() + pc * t.insnBytes();
  ASSERT_NE(w, nullptr);
  for (int i = 0; i < bits; ++i) {
    const int bit = lo + i;
    w[bit / 8] = static_cast<uint8_t>((w[bit / 8] & ~(1 << (bit % 8))) | (((v >> i) & 1) << (bit % 8)));
  }
}

/// A code below 2^bits that `used` does not hold, or -1.
int64_t unusedCode(const std::vector<int64_t>& used, int bits) {
  for (int64_t c = 0; c < (int64_t{1} << bits); ++c)
    if (std::find(used.begin(), used.end(), c) == used.end()) return c;
  return -1;
}

TEST_P(RtlCoreTest, AnUnknownOpcodeOrBufferStopsFetchWithAnError) {
  // Not dispatched as some other kind: fetch stops at it and raises `error`
  // with its pc, as fsim's decoder refuses it.
  isa::Target t = testing::presetTarget(GetParam());
  const isa::IsaLayout& l = t.isa;
  const int64_t badOp = unusedCode(std::vector<int64_t>(l.opcodeCode.begin(), l.opcodeCode.end()), l.opcodeBits);
  const isa::FieldLayout* buffer = nullptr;
  for (const isa::FieldLayout& f : l.format(isa::Format::kMem).fields)
    if (f.name == "buffer") buffer = &f;
  ASSERT_NE(buffer, nullptr);
  const int64_t badBuffer = unusedCode(l.enumCodes[static_cast<int>(isa::EnumKind::kBuffer)], buffer->bits);
  for (int which = 0; which < 2; ++which) {
    if ((which == 0 ? badOp : badBuffer) < 0) continue;  // every code is taken
    isa::ProgramBuilder b(t);
    b.text(0);
    isa::Instruction load = isa::makeInstruction(isa::Opcode::kLoad);
    load.mem().buffer = static_cast<int64_t>(isa::Buffer::kInp);
    b.add(isa::makeInstruction(isa::Opcode::kGemm)), b.add(load), b.add(isa::makeInstruction(isa::Opcode::kFinish));
    auto p = b.finish("bad.bin");
    ASSERT_TRUE(p.isOk()) << p.diag().str();
    if (which == 0)
      setBits(*p, t, 1, 0, l.opcodeBits, badOp);
    else
      setBits(*p, t, 1, buffer->lo, buffer->bits, badBuffer);
    auto model = builtinRtlModel(t);
    ASSERT_TRUE(model.isOk()) << model.diag().str();
    std::vector<uint8_t> dram(p->window, 0);
    for (const isa::Segment& s : p->segments)
      std::copy(s.bytes.begin(), s.bytes.end(), dram.begin() + static_cast<long>(s.addr));
    auto r = runOnRtl(**model, t, *p, dram, RtlRunOptions{100000, ""}, "bad.bin");
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.diag().str(),
              "bad.bin:pc 1: error: illegal instruction: the RTL's fetch stopped at an opcode or buffer the ISA does "
              "not have");
  }
}

ACCELC_INSTANTIATE_FOR_RTL_PRESETS(RtlCoreTest);

TEST_P(RtlCoreTest, TheLinkedModelIsThePresetsOwn) {
  isa::Target t = testing::presetTarget(GetParam());
  auto model = builtinRtlModel(t);
  ASSERT_TRUE(model.isOk()) << model.diag().str();
  EXPECT_EQ((*model)->beatBytes(), static_cast<uint64_t>(t.spec.dramBytesPerCycle));
  // A preset with a wider DRAM window has other address widths: the model
  // verilated from the preset would run its programs wrong.
  hwspec::HwSpec wider = t.spec;
  wider.dramWindowBytes *= 2, wider.dramAddrBits += 1;
  auto changed = isa::loadTarget(wider);
  ASSERT_TRUE(changed.isOk()) << changed.diag().str();
  auto refused = builtinRtlModel(*changed);
  ASSERT_FALSE(refused.isOk());
  EXPECT_EQ(refused.diag().str(), GetParam() + ": error: the target differs from preset '" + GetParam() +
                                      "', whose verilated model is linked in");
  wider.name = "custom";
  auto other = isa::loadTarget(wider);
  ASSERT_TRUE(other.isOk()) << other.diag().str();
  auto none = builtinRtlModel(*other);
  ASSERT_FALSE(none.isOk());
  EXPECT_EQ(none.diag().str(),
            "custom: error: no verilated model of this hwspec is linked in (presets tiny, vta-default, wide, ice40)");
}

}  // namespace
}  // namespace accelc::simulator
