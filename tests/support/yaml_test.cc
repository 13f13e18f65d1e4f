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

TEST(YamlTest, ADuplicatedKeyIsAnErrorAtItsSecondPlace) {
  EXPECT_EQ(parseYaml("a: 1\nb: 2\na: 3\n", "d.yaml").diag().str(),
            "d.yaml:3:1: error: duplicated key 'a' (first at line 1, column 1)");
  EXPECT_EQ(parseYaml("gemm:\n  batch: 1\n  block_in: 16\n  batch: 2\n", "d.yaml").diag().str(),
            "d.yaml:4:3: error: duplicated key 'batch' (first at line 2, column 3)");
  EXPECT_EQ(parseYaml("m: {x: 1, x: 2}\n", "d.yaml").diag().str(),
            "d.yaml:1:11: error: duplicated key 'x' (first at line 1, column 5)");
  EXPECT_TRUE(parseYaml("a: {x: 1}\nb: {x: 1}\n", "d.yaml").isOk());  // one key in two mappings
}

TEST(YamlTest, ASecondDocumentAndExplicitTagsAreErrors) {
  EXPECT_EQ(parseYaml("a: 1\n---\nb: 2\n", "m.yaml").diag().str(),
            "m.yaml:2:1: error: a second YAML document: the file must hold one");
  EXPECT_EQ(parseYaml("n: !!str 12\n", "t.yaml").diag().str(),
            "t.yaml:1:4: error: YAML tag '!!str' is not accepted: write the plain value");
  EXPECT_EQ(parseYaml("l: [1, !custom 2]\n", "t.yaml").diag().str(),
            "t.yaml:1:8: error: YAML tag '!custom' is not accepted: write the plain value");
  EXPECT_TRUE(parseYaml("q: \"12\"\n", "q.yaml").isOk());  // a quoted scalar carries no explicit tag
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += "[";
  for (int i = 0; i < 70; ++i) deep += "]";
  EXPECT_EQ(parseYaml(deep + "\n", "n.yaml").diag().str().rfind("n.yaml:1:", 0), 0u);
  EXPECT_NE(parseYaml(deep + "\n", "n.yaml").diag().str().find("YAML nested deeper than 64 levels"), std::string::npos);
}

// Found by fuzzing: yaml-cpp's LoadAll never returns on this text (its
// parser yields one empty document after another, allocating); parseYaml
// reads at most two documents.
TEST(YamlTest, MalformedFlowTextThatNeverEndsInLoadAllIsAnError) {
  const std::string text = "# A 1x32x32 core with buffers twice v?ta-default's, a 16-byte DRAM bus,\n, acc: 256KiB, output: 64KiB}\ndram: {bytes_per_cycle: 16, latency_cycles: 64, addr_bits: 32\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\",\"\"\"\"\"\"\"\"\"\"\" wi\"nd\"\"o";
  EXPECT_EQ(parseYaml(text, "f.yaml").diag().str(), "f.yaml:2:1: error: a second YAML document: the file must hold one");
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
