// tests/simulator/fsim_gemm_test.cc — GEMM on fsim against plain C++ loops.
#include <gtest/gtest.h>

#include "isa/arith.h"
#include "simulator/functional/gemm_kernel.h"
#include "tests/simulator/sim_util.h"

namespace accelc::simulator {
namespace {

using hwspec::BufferKind;
using isa::Buffer;
using isa::Opcode;
using testing::mem;

struct GemmCase {
  int64_t iterOut = 3, iterIn = 5, uops = 7;
  int64_t dstOut = 35, dstIn = 7, srcOut = 2, srcIn = 1, wgtOut = 1, wgtIn = 3;
};

class GemmTest : public ::testing::TestWithParam<std::string> {
 protected:
  /// Runs GEMM reset then GEMM accumulate twice over the case's loops, stores
  /// every touched output row, and checks acc and DRAM against plain loops.
  void check(const GemmCase& c, uint64_t seed, bool extremes) {
    isa::Target t = testing::presetTarget(GetParam());
    const hwspec::HwSpec& s = t.spec;
    const int64_t inpN = 32, wgtN = 32, inpB = s.entryBytes(BufferKind::kInput), wgtB = s.entryBytes(BufferKind::kWeight);
    const int64_t accRow = s.batch * s.blockOut;
    std::vector<uint8_t> inp = testing::randomBytes(inpN * inpB, seed), wgt = testing::randomBytes(wgtN * wgtB, seed + 1);
    if (extremes) {
      for (size_t i = 0; i < inp.size(); ++i) inp[i] = i % 3 ? 0x80 : 0x7f;  // -128 / 127
      for (size_t i = 0; i < wgt.size(); ++i) wgt[i] = 0x80;
    }
    std::mt19937_64 g(seed + 2);
    std::vector<isa::Uop> uops;
    const int64_t srcMax = inpN - 1 - (c.iterOut - 1) * c.srcOut - (c.iterIn - 1) * c.srcIn;
    const int64_t wgtMax = wgtN - 1 - (c.iterOut - 1) * c.wgtOut - (c.iterIn - 1) * c.wgtIn;
    for (int64_t u = 0; u < c.uops; ++u)
      uops.push_back({u, static_cast<int64_t>(g() % (srcMax + 1)), static_cast<int64_t>(g() % (wgtMax + 1))});
    const int64_t rows = c.uops + (c.iterOut - 1) * c.dstOut + (c.iterIn - 1) * c.dstIn;

    isa::ProgramBuilder b(t);
    using isa::Symbol;
    using isa::SymbolRole;
    b.symbol({"inp", SymbolRole::kConst, 0, support::DType::kInt8, {static_cast<int64_t>(inp.size())}}, inp);
    b.symbol({"wgt", SymbolRole::kConst, 0x10000, support::DType::kInt8, {static_cast<int64_t>(wgt.size())}}, wgt);
    b.symbol({"out", SymbolRole::kOutput, 0x90000, support::DType::kInt8, {rows * accRow}});
    b.uops("uops", 0x80000, uops);
    b.text(0xA0000);
    b.add(mem(Opcode::kLoad, Buffer::kUop, 0, 0x80000 / t.uopBytes(), 1, c.uops, c.uops));
    b.add(mem(Opcode::kLoad, Buffer::kInp, 0, 0, 1, inpN, inpN));
    b.add(mem(Opcode::kLoad, Buffer::kWgt, 0, 0x10000 / wgtB, 1, wgtN, wgtN, {false, false, false, true}));
    for (int k = 0; k < 3; ++k) {
      isa::Instruction gi = isa::makeInstruction(Opcode::kGemm);
      isa::GemmInsn& gm = gi.gemm();
      gm.reset = k == 0;
      gm.uopBgn = 0, gm.uopEnd = c.uops, gm.iterOut = c.iterOut, gm.iterIn = c.iterIn;
      gm.dstFactorOut = c.dstOut, gm.dstFactorIn = c.dstIn, gm.srcFactorOut = c.srcOut, gm.srcFactorIn = c.srcIn;
      gm.wgtFactorOut = c.wgtOut, gm.wgtFactorIn = c.wgtIn;
      isa::setDeps(gi, {k == 0, false, false, k == 2});
      b.add(gi);
    }
    b.add(mem(Opcode::kStore, Buffer::kOut, 0, 0x90000 / accRow, 1, rows, rows, {true, false, false, false}));
    b.add(isa::makeInstruction(Opcode::kFinish));
    testing::Ran r = testing::buildAndRun(t, b);
    ASSERT_TRUE(r.counters.isOk());

    // The reference: the ISA's GEMM loop written plainly.
    std::vector<int32_t> acc(rows * accRow, 0);
    for (int k = 1; k < 3; ++k)
      for (int64_t i0 = 0; i0 < c.iterOut; ++i0)
        for (int64_t i1 = 0; i1 < c.iterIn; ++i1)
          for (const isa::Uop& u : uops) {
            int64_t d = u.dst + i0 * c.dstOut + i1 * c.dstIn, x = u.src + i0 * c.srcOut + i1 * c.srcIn,
                    w = u.wgt + i0 * c.wgtOut + i1 * c.wgtIn;
            for (int64_t bb = 0; bb < s.batch; ++bb)
              for (int64_t o = 0; o < s.blockOut; ++o) {
                int64_t sum = 0;
                for (int64_t i = 0; i < s.blockIn; ++i)
                  sum += int64_t{static_cast<int8_t>(inp[x * inpB + bb * s.blockIn + i])} *
                         static_cast<int8_t>(wgt[w * wgtB + o * s.blockIn + i]);
                int32_t& a = acc[d * accRow + bb * s.blockOut + o];
                a = isa::arith::gemmAccumulate(a, static_cast<int32_t>(sum));
              }
          }
    std::vector<uint8_t> out = r.read(0x90000, rows * accRow);
    for (int64_t i = 0; i < rows * accRow; ++i) {
      ASSERT_EQ(r.sim->srams().acc[i], acc[i]) << "acc element " << i;
      ASSERT_EQ(static_cast<int8_t>(out[i]), isa::arith::saturateInt8(acc[i])) << "out element " << i;
    }
    EXPECT_EQ(r.counters->macs, uint64_t(2 * c.iterOut * c.iterIn * c.uops * s.batch * s.blockIn * s.blockOut));
  }
};

TEST_P(GemmTest, DistinctRowsMatchPlainLoops) { check(GemmCase{}, 11, false); }

TEST_P(GemmTest, ReductionIntoTheSameRowsMatchesPlainLoops) {
  GemmCase c;
  c.dstIn = 0;
  c.dstOut = 7;
  check(c, 12, false);
}

TEST_P(GemmTest, OddSizesAndSingleIterations) {
  GemmCase c;
  c.iterOut = 1, c.iterIn = 1, c.uops = 1, c.dstOut = c.dstIn = 0;
  check(c, 13, false);
  c.iterOut = 5, c.iterIn = 3, c.uops = 3, c.dstOut = 9, c.dstIn = 3, c.srcOut = 0, c.srcIn = 0, c.wgtOut = 3, c.wgtIn = 0;
  check(c, 14, false);
}

TEST_P(GemmTest, ExtremeValuesSaturateTheOutput) { check(GemmCase{}, 15, true); }

ACCELC_INSTANTIATE_FOR_PRESETS(GemmTest);

TEST(GemmKernelTest, VectorKernelEqualsPortableKernel) {
  for (int64_t blockOut : {16, 32}) {
    const int64_t blockIn = blockOut, batch = 2, depth = 16;
    std::vector<uint8_t> raw = testing::randomBytes(depth * blockOut * blockIn * 2, static_cast<uint64_t>(blockOut));
    hwspec::HwSpec spec = *hwspec::loadHwSpec(blockOut == 16 ? "vta-default" : "wide");
    spec.batch = batch;
    Srams s(spec);
    std::memcpy(s.inp.data(), raw.data(), depth * batch * blockIn);
    std::memcpy(s.wgt.data(), raw.data() + depth * batch * blockIn, depth * blockOut * blockIn);
    for (int64_t i = 0; i < depth; ++i) s.packInput(i), s.packWeight(i);
    std::vector<uint32_t> uops = {0, 1, 2, 1, 3, 4, 2, 5, 6, 3, 7, 8};
    GemmArgs a;
    a.uops = uops.data(), a.uopBgn = 0, a.uopEnd = 4, a.iterOut = 2, a.iterIn = 2;
    a.dstOut = 8, a.dstIn = 4, a.srcOut = 1, a.srcIn = 2, a.wgtOut = 3, a.wgtIn = 1;
    a.inp = s.inp.data(), a.wgt = s.wgt.data(), a.inpPairs = s.inpPairs.data(), a.wgtPairs = s.wgtPairs.data();
    a.batch = batch, a.blockIn = blockIn, a.blockOut = blockOut;
    std::vector<int32_t> acc1(depth * batch * blockOut, 5), acc2 = acc1;
    std::vector<int8_t> out1(acc1.size()), out2(acc1.size());
    a.acc = acc1.data(), a.out = out1.data();
    gemmPortable(a);
    if (!gemmVnniUsable(a)) GTEST_SKIP() << "this CPU has no AVX-512 VNNI";
    a.acc = acc2.data(), a.out = out2.data();
    gemmVnni(a);
    EXPECT_EQ(acc1, acc2);
    EXPECT_EQ(out1, out2);
  }
}

}  // namespace
}  // namespace accelc::simulator
