// tests/support/yaml_test.cc — located YAML reading.
#include <gtest/gtest.h>

#include "support/yaml.h"

namespace accelc::support {
namespace {

TEST(YamlTest, MalformedYamlIsLocated) {
  auto r = parseYaml("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.diag().str().substr(0, 9), "bad.yaml:");
  EXPECT_NE(r.diag().str().find("malformed YAML"), std::string::npos);
  EXPECT_EQ(r.diag().loc.line(), 3);
}

TEST(YamlTest, UnknownKeyNamesItsPlaceAndTheKnownKeys) {
  auto doc = parseYaml("gemm:\n  batch: 1\n  blok_in: 16\n", "h.yaml");
  auto root = YamlMap::of(*doc, "h.yaml", "");
  auto gemm = root->map("gemm");
  ASSERT_TRUE(gemm.isOk());
  EXPECT_EQ(*gemm->integer("batch", 1, 8), 1);
  (void)gemm->integerOr("block_in", 16, 1, 64);
  EXPECT_EQ(gemm->finish().str(), "h.yaml:3:3: error: unknown key 'gemm.blok_in'; expected one of: batch, block_in");
}

TEST(YamlTest, WrongTypeAndMissingKey) {
  auto doc = parseYaml("n: twelve\nm: {a: 1}\n", "t.yaml");
  auto root = YamlMap::of(*doc, "t.yaml", "");
  EXPECT_EQ(root->integer("n", 0, 100).diag().str(),
            "t.yaml:1:4: error: key 'n': expected an integer in [0, 100], found 'twelve'");
  EXPECT_EQ(root->map("m")->integer("b", 0, 1).diag().str(),
            "t.yaml:2:4: error: missing key 'm.b' (expected an integer in [0, 1])");
  EXPECT_EQ(root->integer("m", 0, 1).diag().str(), "t.yaml:2:4: error: key 'm': expected an integer in [0, 1], found a mapping");
}

TEST(YamlTest, ByteSizesAcceptUnits) {
  EXPECT_EQ(parseByteSize("32KiB"), 32 * 1024);
  EXPECT_EQ(parseByteSize("1MiB"), 1 << 20);
  EXPECT_EQ(parseByteSize("4096"), 4096);
  EXPECT_EQ(parseByteSize("512B"), 512);
  EXPECT_FALSE(parseByteSize("32KB").has_value());
  EXPECT_FALSE(parseByteSize("KiB").has_value());
}

}  // namespace
}  // namespace accelc::support
