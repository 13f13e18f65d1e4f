// tests/support/npy_test.cc — .npy files.
#include <gtest/gtest.h>

#include <fstream>

#include "support/npy.h"
#include "tests/test_util.h"

namespace accelc::support {
namespace {

TEST(NpyTest, WriteThenReadGivesTheSameArray) {
  NpyArray a;
  a.dtype = DType::kInt32;
  a.shape = {2, 3};
  for (int i = 0; i < 6; ++i)
    for (int b = 0; b < 4; ++b) a.data.push_back(static_cast<uint8_t>(i * 7 + b));
  const std::string path = std::string(ACCELC_TEMP_DIR) + "/a.npy";
  ASSERT_TRUE(writeNpy(path, a).isOk());
  auto r = readNpy(path);
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  EXPECT_EQ(r->dtype, DType::kInt32);
  EXPECT_EQ(r->shape, a.shape);
  EXPECT_EQ(r->data, a.data);
}

TEST(NpyTest, TruncatedDataIsAnError) {
  const std::string path = std::string(ACCELC_TEMP_DIR) + "/short.npy";
  NpyArray a{DType::kInt8, {16}, std::vector<uint8_t>(16, 1)};
  ASSERT_TRUE(writeNpy(path, a).isOk());
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(path, std::ios::binary) << text.substr(0, text.size() - 3);
  EXPECT_EQ(readNpy(path).diag().str(), path + ": error: malformed .npy file: truncated data: expected 16 bytes");
}

TEST(NpyTest, HostileHeadersAreErrorsNotCrashes) {
  const std::string path = std::string(ACCELC_TEMP_DIR) + "/hostile.npy";
  std::ofstream(path, std::ios::binary) << std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12);
  EXPECT_EQ(readNpy(path).diag().str(), path + ": error: malformed .npy file: header of 4294967295 bytes is too long");
  NpyArray a{DType::kInt8, {4}, std::vector<uint8_t>(4, 0)};
  ASSERT_TRUE(writeNpy(path, a).isOk());
  std::string text = testing::readFile(path);
  text.replace(text.find("(4,)"), 4, "(99999999999999999999,)");
  std::ofstream(path, std::ios::binary) << text;
  EXPECT_NE(readNpy(path).diag().str().find("bad shape"), std::string::npos);
}

/// `a` written as .npy with its header text's `from` replaced by `to`, and `extra` bytes appended.
std::string rewritten(const std::string& name, const std::string& from, const std::string& to, int extra = 0) {
  const std::string path = std::string(ACCELC_TEMP_DIR) + "/" + name;
  NpyArray a{DType::kInt8, {4}, std::vector<uint8_t>(4, 0)};
  EXPECT_TRUE(writeNpy(path, a).isOk());
  std::string text = testing::readFile(path);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  text += std::string(static_cast<size_t>(extra), '\0');
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(NpyTest, TheHeaderIsParsedStrictly) {
  const std::string e = ": error: malformed .npy file: ";
  std::string p = rewritten("key.npy", "'fortran_order'", "'fortran_ordr'");
  EXPECT_EQ(readNpy(p).diag().str(),
            p + e + "unknown key 'fortran_ordr' (expected descr, fortran_order and shape) (header byte 33)");
  p = rewritten("twice.npy", "'shape': (4,), ", "'shape': (4,), 'shape': (4,)");
  EXPECT_EQ(readNpy(p).diag().str(), p + e + "key 'shape' given twice (header byte 65)");
  p = rewritten("bool.npy", "False", "Flase");
  EXPECT_EQ(readNpy(p).diag().str(), p + e + "expected True or False (header byte 34)");
  p = rewritten("tuple.npy", "(4,)", "(4 4)");
  EXPECT_EQ(readNpy(p).diag().str(), p + e + "bad shape: expected ',' or ')' (header byte 53)");
  p = rewritten("single.npy", "(4,)", "(4) ");
  EXPECT_EQ(readNpy(p).diag().str(), p + e + "bad shape: a one-dimensional shape is written '(N,)' (header byte 52)");
  p = rewritten("extra.npy", "(4,)", "(4,)", 3);
  EXPECT_EQ(readNpy(p).diag().str(), p + e + "3 bytes past the 4 bytes of data the header describes");
  p = rewritten("version.npy", std::string("NUMPY\x01", 6), std::string("NUMPY\x07", 6));
  EXPECT_EQ(readNpy(p).diag().str(), p + e + "format version 7.0 (expected 1.0, 2.0 or 3.0)");
}

TEST(NpyTest, ShapesParseAndPrint) {
  EXPECT_EQ(shapeStr(*parseShape("1x16x16")), "1x16x16");
  EXPECT_FALSE(parseShape("1x0").has_value());
  EXPECT_FALSE(parseShape("4x").has_value());
}

TEST(NpyTest, CheckedShapesBoundEveryStride) {
  EXPECT_EQ(checkedShapeElements({0, 5}), std::optional<int64_t>(0));
  EXPECT_EQ(checkedShapeElements({2, 3}), std::optional<int64_t>(6));
  EXPECT_FALSE(checkedShapeElements({0, 1 << 30, 1 << 30}).has_value());  // empty, but its strides overflow
  EXPECT_FALSE(checkedShapeElements({2, -1}).has_value());
}

}  // namespace
}  // namespace accelc::support
