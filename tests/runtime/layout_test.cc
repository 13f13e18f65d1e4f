// tests/runtime/layout_test.cc — the blocked forms (runtime/layout.h): rows of
// any rank and a matrix product's right operand packed as weight blocks
// round-trip, and the weights form lays each matrix's transpose out in the
// GEMM core's [n][k] blocks; packing places every value at its entry's lane.
#include <gtest/gtest.h>

#include <random>

#include "runtime/layout.h"

namespace accelc::runtime {
namespace {

Tensor randomInt8(const Shape& s, uint64_t seed) {
  Tensor t(support::DType::kInt8, s);
  std::mt19937_64 g(seed);
  for (uint8_t& b : t.bytes()) b = static_cast<uint8_t>(g());
  return t;
}

BlockedLayout layoutOf(const Shape& d, int64_t block) { return {d[0], d[1], d[2], d[3], block, 0, 0, 0, 0, 0}; }

TEST(BlockedFormTest, RowsAndWeightsRoundTripThroughTheirLayouts) {
  for (BlockedForm f : {BlockedForm::kRows, BlockedForm::kWeights})
    for (const Shape& s : {Shape{5, 7}, Shape{2, 3, 17, 9}, Shape{4, 20, 33}}) {
      const Tensor t = randomInt8(s, static_cast<uint64_t>(s.back()));
      const auto d = blockedShape(s, f, 16);
      ASSERT_TRUE(d.has_value());
      const BlockedLayout l = layoutOf(*d, 16);
      const std::vector<uint8_t> bytes = packBlocked(toBlockedShape(t, s, f, 16), l);
      EXPECT_EQ(fromBlockedShape(unpackBlocked(bytes.data(), l), f, s).bytes(), t.bytes())
          << support::shapeStr(s) << " form " << static_cast<int>(f);
    }
}

TEST(BlockedFormTest, WeightsHoldEachMatrixTransposedInBlocks) {
  const int64_t bl = 4, k = 6, n = 5;  // 2 blocks of k, 2 of n (the last part padding)
  const Tensor b = randomInt8({3, k, n}, 7);
  const BlockedLayout l = layoutOf(*blockedShape(b.shape(), BlockedForm::kWeights, bl), bl);
  const std::vector<uint8_t> w = packBlocked(toBlockedShape(b, b.shape(), BlockedForm::kWeights, bl), l);
  const int64_t kb = 2, nb = 2;
  ASSERT_EQ(static_cast<int64_t>(w.size()), 3 * nb * kb * bl * bl);
  for (int64_t m = 0; m < 3; ++m)
    for (int64_t i = 0; i < nb * bl; ++i)
      for (int64_t j = 0; j < kb * bl; ++j) {  // block (j / bl, i / bl) of image m holds [n][k] = b[m][k][n]
        const int64_t at = (((m * kb + j / bl) * nb + i / bl) * bl + i % bl) * bl + j % bl;
        const int8_t want = i < n && j < k ? b.data<int8_t>()[(m * k + j) * n + i] : 0;
        EXPECT_EQ(static_cast<int8_t>(w[static_cast<size_t>(at)]), want) << m << " n" << i << " k" << j;
      }
}

TEST(BlockedFormTest, FormsRefuseRanksTheyCannotStore) {
  EXPECT_FALSE(blockedShape({4}, BlockedForm::kRows, 16).has_value());
  EXPECT_FALSE(blockedShape({1, 2, 3}, BlockedForm::kImage, 16).has_value());
  EXPECT_EQ(*blockedShape({2, 3, 5, 7}, BlockedForm::kRows, 16), (Shape{6, 7, 1, 5}));
  EXPECT_EQ(*blockedShape({2, 3, 5, 40}, BlockedForm::kWeights, 16), (Shape{6, 5, 1, 48}));
}

TEST(BlockedLayoutTest, PackingPutsEachValueAtItsEntryLaneAndUnpackingInvertsIt) {
  // Blocks narrower and wider than the 16 x 16 tiles of the packer, partial channel blocks and columns, borders,
  // and a view's row pitch of more blocks than its own; without borders, the tiles write the padding lanes too.
  struct Case {
    Shape shape;
    int64_t block, top, left, bottom, right, pitch;
  };
  const std::vector<Case> cases = {
      {{1, 16, 4, 16}, 16, 0, 0, 0, 0, 0},
      {{2, 40, 3, 33}, 16, 1, 2, 1, 1, 0},
      {{1, 5, 2, 17}, 4, 0, 1, 2, 0, 0},
      {{1, 100, 2, 15}, 32, 1, 1, 1, 1, 0},
      {{1, 70, 1, 20}, 64, 0, 0, 0, 3, 0},
      {{1, 20, 3, 18}, 16, 1, 1, 1, 1, 3},
      {{1, 1, 1, 1}, 8, 0, 0, 0, 0, 0},
      {{1, 147, 3, 19}, 16, 0, 0, 0, 0, 0},
      {{2, 40, 2, 5}, 16, 0, 0, 0, 0, 0},
      {{1, 64, 2, 18}, 32, 0, 0, 0, 0, 0},
      {{1, 40, 2, 18}, 32, 0, 0, 0, 0, 0},
      // rows of two tiles and more (AVX2 moves two at once): a partial block's, a tail after them
      {{1, 147, 2, 40}, 16, 0, 0, 0, 0, 0},
      {{2, 35, 3, 64}, 16, 0, 0, 0, 0, 0}};
  for (const Case& c : cases) {
    BlockedLayout l = layoutOf(c.shape, c.block);
    l.top = c.top, l.left = c.left, l.bottom = c.bottom, l.right = c.right, l.pitch = c.pitch, l.fill = -7;
    const Tensor t = randomInt8(c.shape, static_cast<uint64_t>(c.shape[1] * 131 + c.block));
    const std::vector<uint8_t> packed = packBlocked(t, l);
    ASSERT_EQ(static_cast<int64_t>(packed.size()), l.bytes());
    std::vector<bool> holds(packed.size(), false);
    for (int64_t n = 0; n < l.n; ++n)
      for (int64_t ch = 0; ch < l.c; ++ch)
        for (int64_t h = 0; h < l.h; ++h)
          for (int64_t w = 0; w < l.w; ++w) {
            const int64_t at = l.entry(n, l.top + h, ch / l.block, l.left + w) * l.block + ch % l.block;
            ASSERT_EQ(packed[at], t.bytes()[((n * l.c + ch) * l.h + h) * l.w + w]) << "block " << l.block;
            holds[at] = true;
          }
    for (size_t i = 0; i < packed.size(); ++i) {
      if (holds[i]) continue;
      ASSERT_EQ(packed[i], static_cast<uint8_t>(l.fill)) << "a border or padding byte, block " << l.block;
    }
    EXPECT_EQ(unpackBlocked(packed.data(), l).bytes(), t.bytes()) << "block " << l.block;
  }
}

}  // namespace
}  // namespace accelc::runtime
