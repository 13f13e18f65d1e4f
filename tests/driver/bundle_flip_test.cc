// tests/driver/bundle_flip_test.cc — every single-bit flip of a compiled
// bundle is refused, and the message names the damaged part.
#include <gtest/gtest.h>

#include "compiler/frontend/compile_model.h"
#include "runtime/bundle.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

/// [begin, end) of each section of a container file, its 20-byte header included.
std::vector<std::pair<size_t, size_t>> sectionRanges(const std::vector<uint8_t>& bytes, size_t n) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t pos = 20;
  for (size_t i = 0; i < n; ++i) {
    uint64_t size = 0;
    for (int b = 0; b < 8; ++b) size |= static_cast<uint64_t>(bytes[pos + 8 + b]) << (8 * b);
    out.emplace_back(pos, pos + 20 + size);
    pos += 20 + size;
  }
  return out;
}

TEST(BundleFlipTest, EverySingleBitFlipOfTheDigitsBundleIsRefused) {
  const std::string digits = testing::sourceDir() + "/models/digits/digits_int8.onnx";
  auto b = compileModel(digits, testing::presetTarget("vta-default"), {});
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  std::vector<uint8_t> bytes = runtime::writeBundle(*b);
  const auto& kind = runtime::bundleContainerKind();
  const auto ranges = sectionRanges(bytes, kind.sections.size());
  ASSERT_EQ(ranges.back().second, bytes.size());
  size_t flips = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string want = "bundle";  // the header: bad magic, version or checksum
    for (size_t k = 0; k < ranges.size(); ++k)
      if (i >= ranges[k].first && i < ranges[k].second) want = "bundle section '" + kind.sections[k] + "'";
    for (int bit = 0; bit < 8; ++bit) {
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
      auto r = runtime::readBundle(bytes, "d.acx");
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
      ++flips;
      ASSERT_FALSE(r.isOk()) << "byte " << i << " bit " << bit << " accepted";
      ASSERT_NE(r.diag().str().find(want), std::string::npos) << "byte " << i << ": " << r.diag().str();
    }
  }
  EXPECT_EQ(flips, bytes.size() * 8);
  EXPECT_TRUE(runtime::readBundle(bytes, "d.acx").isOk());  // restored, it loads
}

}  // namespace
}  // namespace accelc::compiler
