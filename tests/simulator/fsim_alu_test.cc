// tests/simulator/fsim_alu_test.cc — every ALU op, immediate and vector, edge values.
#include <gtest/gtest.h>

#include <limits>

#include "isa/arith.h"
#include "tests/simulator/sim_util.h"

namespace accelc::simulator {
namespace {

using hwspec::BufferKind;
using isa::AluOp;
using isa::Buffer;
using isa::Opcode;
using testing::mem;

constexpr int32_t kEdges[] = {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), 0, 1, -1,
                              127, -128, 128, -129, 31, 32, 40, -5, 1 << 30, -(1 << 30), 12345678, -7, 3};

class AluTest : public ::testing::TestWithParam<std::string> {
 protected:
  /// Runs one ALU instruction over acc rows 0-7 (destinations) with rows 8-15
  /// as sources, all loaded from `init` (16 rows of `lanes` values).
  testing::Ran runAlu(const isa::Target& t, const std::vector<int32_t>& init, AluOp op, bool useImm, int64_t imm,
                      bool reset) {
    const int64_t lanes = t.spec.batch * t.spec.blockOut;
    std::vector<uint8_t> bytes(init.size() * 4);
    std::memcpy(bytes.data(), init.data(), bytes.size());
    isa::ProgramBuilder b(t);
    b.symbol({"init", isa::SymbolRole::kConst, 0, support::DType::kInt32, {16, lanes}}, bytes);
    b.symbol({"out", isa::SymbolRole::kOutput, 0x8000, support::DType::kInt8, {8, lanes}});
    std::vector<isa::Uop> uops = {{0, 8, 0}, {1, 9, 0}};
    b.uops("uops", 0x9000, uops);
    b.text(0xA000);
    b.add(mem(Opcode::kLoad, Buffer::kUop, 0, 0x9000 / t.uopBytes(), 1, 2, 2));
    b.add(mem(Opcode::kLoad, Buffer::kAcc, 0, 0, 2, 8, 8));  // 2 rows of 8 entries: acc[0..16)
    isa::Instruction ai = isa::makeInstruction(Opcode::kAlu);
    isa::AluInsn& a = ai.alu();
    a.aluOp = static_cast<int64_t>(op), a.useImm = useImm, a.imm = imm, a.reset = reset;
    a.uopBgn = 0, a.uopEnd = 2, a.iterOut = 2, a.iterIn = 2;
    a.dstFactorOut = 4, a.dstFactorIn = 2, a.srcFactorOut = 4, a.srcFactorIn = 2;
    a.pushNext = 1;
    b.add(ai);
    b.add(mem(Opcode::kStore, Buffer::kOut, 0, 0x8000 / lanes, 1, 8, 8, {true, false, false, false}));
    b.add(isa::makeInstruction(Opcode::kFinish));
    return testing::buildAndRun(t, b);
  }

  /// acc rows 0-7 are destinations, 8-15 sources; both start from edge values.
  void check(AluOp op, bool useImm, int64_t imm, bool reset = false) {
    isa::Target t = testing::presetTarget(GetParam());
    const int64_t lanes = t.spec.batch * t.spec.blockOut;
    std::vector<int32_t> init(16 * lanes);
    std::mt19937_64 g(static_cast<uint64_t>(op) * 131 + useImm);
    for (size_t i = 0; i < init.size(); ++i)
      init[i] = i % 3 ? kEdges[(i * 7 + static_cast<size_t>(op)) % std::size(kEdges)] : static_cast<int32_t>(g());
    testing::Ran r = runAlu(t, init, op, useImm, imm, reset);
    ASSERT_TRUE(r.counters.isOk());
    const int32_t operandImm = isa::arith::aluImmediate(op, imm, 16);
    std::vector<uint8_t> out = r.read(0x8000, 8 * lanes);
    for (int64_t row = 0; row < 8; ++row)
      for (int64_t l = 0; l < lanes; ++l) {
        const int32_t x = init[row * lanes + l], y = useImm ? operandImm : init[(8 + row) * lanes + l];
        const int32_t want = reset ? 0 : isa::arith::aluApply(op, x, y);
        ASSERT_EQ(r.sim->srams().acc[row * lanes + l], want)
            << isa::aluOpName(op) << " row " << row << " lane " << l << " x=" << x << " y=" << y;
        ASSERT_EQ(static_cast<int8_t>(out[row * lanes + l]), isa::arith::saturateInt8(want));
        ASSERT_EQ(r.sim->srams().acc[(8 + row) * lanes + l], init[(8 + row) * lanes + l]) << "source changed";
      }
    EXPECT_EQ(r.counters->aluUops, 8u);
  }

  /// One lane's case of mul: a (destination), b (source), the product's low 32 bits.
  struct MulCase {
    int32_t a, b, want;
  };

  /// Runs mul over every destination lane, lane i taking case i mod n, and
  /// checks each against its written-out product (not against isa/arith.h).
  void checkMul(const std::vector<MulCase>& cases, bool useImm, int64_t imm) {
    isa::Target t = testing::presetTarget(GetParam());
    const int64_t lanes = t.spec.batch * t.spec.blockOut, n = 8 * lanes;
    std::vector<int32_t> init(16 * lanes);
    for (int64_t i = 0; i < n; ++i) {
      init[i] = cases[i % cases.size()].a;
      init[n + i] = cases[i % cases.size()].b;
    }
    testing::Ran r = runAlu(t, init, AluOp::kMul, useImm, imm, false);
    ASSERT_TRUE(r.counters.isOk()) << r.counters.diag().str();
    for (int64_t i = 0; i < n; ++i) {
      const MulCase& c = cases[i % cases.size()];
      EXPECT_EQ(r.sim->srams().acc[i], c.want) << "mul of " << c.a << " by " << (useImm ? imm : c.b);
    }
  }
};

constexpr int32_t kMin = std::numeric_limits<int32_t>::min(), kMax = std::numeric_limits<int32_t>::max();

TEST_P(AluTest, MulByARegisterKeepsTheLow32BitsOfTheProduct) {
  checkMul({{-3, 7, -21},
            {65536, 65536, 0},  // 2^32 wraps to 0
            {kMax, 2, -2},
            {kMin, -1, kMin},  // -(-2^31) wraps back to -2^31
            {46341, 46341, -2147479015},
            {123456789, 1000, -1097262584},
            {-65536, -65536, 0},
            {65537, 65537, 131073}},
           false, 0);
}

TEST_P(AluTest, MulByANegativeImmediateSignExtendsIt) {
  // The source rows hold garbage: an immediate operand never reads them.
  checkMul({{5, 99, -15}, {1 << 30, 99, 1 << 30}, {kMin, 99, kMin}, {65537, 99, -196611}, {-1, 99, 3},
            {kMax, 99, -2147483645}},
           true, -3);
  checkMul({{65536, 0, kMin}, {-1, 0, 32768}, {65537, 0, 2147450880}, {1 << 30, 0, 0}}, true, -32768);
}

TEST_P(AluTest, EveryOpWithAVectorOperand) {
  for (int op = 0; op < isa::kNumAluOps; ++op) check(AluOp(op), false, 0);
}

TEST_P(AluTest, EveryOpWithImmediates) {
  for (int op = 0; op < isa::kNumAluOps; ++op)
    for (int64_t imm : {0, 1, -1, 7, 31, 40, -32768, 32767, 16384}) check(AluOp(op), true, imm);
}

TEST_P(AluTest, ResetWritesZeros) { check(AluOp::kAdd, true, 5, true); }

ACCELC_INSTANTIATE_FOR_PRESETS(AluTest);

}  // namespace
}  // namespace accelc::simulator
