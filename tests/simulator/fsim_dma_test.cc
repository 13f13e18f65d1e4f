// tests/simulator/fsim_dma_test.cc — strided, padded loads and strided stores.
#include <gtest/gtest.h>

#include "isa/encoding.h"
#include "tests/simulator/sim_util.h"

namespace accelc::simulator {
namespace {

using hwspec::BufferKind;
using isa::Buffer;
using isa::Opcode;
using testing::mem;

class DmaTest : public ::testing::TestWithParam<std::string> {};

/// The entry a padded 2-D load writes at (r, c), as docs/isa.md defines it:
/// nullopt for padding, else the DRAM element index.
std::optional<int64_t> source(const isa::MemInsn& m, int64_t r, int64_t c) {
  int64_t y = r - m.yPad0, x = c - m.xPad0;
  if (y < 0 || y >= m.ySize || x < 0 || x >= m.xSize) return std::nullopt;
  return m.dramBase + y * m.xStride + x;
}

TEST_P(DmaTest, PaddedStridedLoadsFillInputAndWeight) {
  isa::Target t = testing::presetTarget(GetParam());
  for (Buffer buf : {Buffer::kInp, Buffer::kWgt}) {
    const int64_t eb = isa::dramEntryBytes(t.spec, buf);
    std::vector<uint8_t> data = testing::randomBytes(64 * eb, eb);
    isa::ProgramBuilder b(t);
    b.symbol({"d", isa::SymbolRole::kConst, 0, support::DType::kInt8, {static_cast<int64_t>(data.size())}}, data);
    b.text(0x10000);
    isa::Instruction ld = mem(Opcode::kLoad, buf, 5, 3, 3, 4, 7);
    isa::MemInsn& m = ld.mem();
    m.yPad0 = 1, m.yPad1 = 2, m.xPad0 = 2, m.xPad1 = 1;
    b.add(ld);
    b.add(isa::makeInstruction(Opcode::kFinish));
    testing::Ran r = testing::buildAndRun(t, b);
    ASSERT_TRUE(r.counters.isOk());
    const std::vector<int8_t>& sram = buf == Buffer::kInp ? r.sim->srams().inp : r.sim->srams().wgt;
    const int64_t rows = 6, cols = 7;
    for (int64_t rr = 0; rr < rows; ++rr)
      for (int64_t c = 0; c < cols; ++c) {
        auto src = source(m, rr, c);
        for (int64_t k = 0; k < eb; ++k) {
          int8_t want = src ? static_cast<int8_t>(data[*src * eb + k]) : 0;
          ASSERT_EQ(sram[(5 + rr * cols + c) * eb + k], want) << isa::bufferName(buf) << " r" << rr << " c" << c;
        }
      }
    EXPECT_EQ(r.counters->dramReadBytes - r.counters->fetchBytes, uint64_t(3 * 4 * eb));
  }
}

TEST_P(DmaTest, Acc8LoadsSignExtendAndAccLoadsReadInt32) {
  isa::Target t = testing::presetTarget(GetParam());
  const int64_t lanes = t.spec.batch * t.spec.blockOut;
  std::vector<uint8_t> data = testing::randomBytes(16 * lanes * 4, 3);
  isa::ProgramBuilder b(t);
  b.symbol({"d", isa::SymbolRole::kConst, 0, support::DType::kInt8, {static_cast<int64_t>(data.size())}}, data);
  b.text(0x10000);
  b.add(mem(Opcode::kLoad, Buffer::kAcc8, 0, 1, 1, 2, 2));  // int8 rows 1, 2 -> acc 0, 1
  b.add(mem(Opcode::kLoad, Buffer::kAcc, 2, 3, 1, 1, 1));   // int32 row 3 -> acc 2
  b.add(isa::makeInstruction(Opcode::kFinish));
  testing::Ran r = testing::buildAndRun(t, b);
  ASSERT_TRUE(r.counters.isOk());
  const auto& acc = r.sim->srams().acc;
  for (int64_t l = 0; l < 2 * lanes; ++l) EXPECT_EQ(acc[l], static_cast<int8_t>(data[lanes + l]));
  for (int64_t l = 0; l < lanes; ++l) {
    int32_t v;
    std::memcpy(&v, &data[3 * lanes * 4 + 4 * l], 4);
    EXPECT_EQ(acc[2 * lanes + l], v);
  }
}

TEST_P(DmaTest, StridedStoreWritesOnlyItsRows) {
  isa::Target t = testing::presetTarget(GetParam());
  const int64_t lanes = t.spec.batch * t.spec.blockOut;
  std::vector<uint8_t> data = testing::randomBytes(8 * lanes, 4);
  isa::ProgramBuilder b(t);
  b.symbol({"d", isa::SymbolRole::kConst, 0, support::DType::kInt8, {8 * lanes}}, data);
  b.symbol({"o", isa::SymbolRole::kOutput, 0x1000, support::DType::kInt8, {16 * lanes}});
  b.uops("u", 0x2000, {{0, 0, 0}});
  b.text(0x10000);
  b.add(mem(Opcode::kLoad, Buffer::kUop, 0, 0x2000 / t.uopBytes(), 1, 1, 1));
  b.add(mem(Opcode::kLoad, Buffer::kAcc8, 0, 0, 1, 6, 6));
  isa::Instruction add = isa::makeInstruction(Opcode::kAlu);  // out[i] = acc[i] + 0 for rows 0-5
  isa::AluInsn& a = add.alu();
  a.aluOp = static_cast<int64_t>(isa::AluOp::kAdd), a.useImm = 1, a.uopBgn = 0, a.uopEnd = 1;
  a.iterOut = 1, a.iterIn = 6, a.dstFactorIn = 1, a.pushNext = 1;
  b.add(add);
  // 2 rows of 3 entries, rows 5 elements apart, starting at element 1 of o.
  b.add(mem(Opcode::kStore, Buffer::kOut, 0, 0x1000 / lanes + 1, 2, 3, 5, {true, false, false, false}));
  b.add(isa::makeInstruction(Opcode::kFinish));
  testing::Ran r = testing::buildAndRun(t, b);
  ASSERT_TRUE(r.counters.isOk());
  std::vector<uint8_t> o = r.read(0x1000, 16 * lanes);
  for (int64_t e = 0; e < 16; ++e) {
    int64_t rel = e - 1, y = rel / 5, x = rel % 5;
    bool written = rel >= 0 && y < 2 && x < 3;
    for (int64_t l = 0; l < lanes; ++l)
      ASSERT_EQ(o[e * lanes + l], written ? data[(y * 3 + x) * lanes + l] : 0) << "element " << e;
  }
  EXPECT_EQ(r.counters->dramWriteBytes, uint64_t(6 * lanes));
}

TEST_P(DmaTest, MicroOpLoadsDecodeFromDram) {
  isa::Target t = testing::presetTarget(GetParam());
  isa::ProgramBuilder b(t);
  std::vector<isa::Uop> uops = {{1, 2, 3}, {7, 0, 5}, {0, 9, 0}};
  b.uops("u", 0x100, uops);
  b.text(0x1000);
  isa::Instruction ld = mem(Opcode::kLoad, Buffer::kUop, 10, 0x100 / t.uopBytes(), 1, 3, 3);
  ld.mem().xPad0 = 1;
  b.add(ld);
  b.add(isa::makeInstruction(Opcode::kFinish));
  testing::Ran r = testing::buildAndRun(t, b);
  ASSERT_TRUE(r.counters.isOk());
  const auto& u = r.sim->srams().uop;
  EXPECT_EQ(u[10].dst + u[10].src + u[10].wgt, 0u);  // padding: a zero micro-op
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(u[11 + i].dst, uint32_t(uops[i].dst));
    EXPECT_EQ(u[11 + i].src, uint32_t(uops[i].src));
    EXPECT_EQ(u[11 + i].wgt, uint32_t(uops[i].wgt));
  }
}

ACCELC_INSTANTIATE_FOR_PRESETS(DmaTest);

}  // namespace
}  // namespace accelc::simulator
