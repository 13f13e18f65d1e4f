// tests/compiler/coverage_test.cc — models beyond ResNet compiled for
// vta-default: each is bit-exact on fsim against its integer graph on the
// reference engine, and keeps its share of MACs on the accelerator and its
// number of quantize/dequantize boundaries (so coverage cannot silently drop);
// MobileNet-v3-small, SqueezeNet, ShuffleNet-v2 and the encoder also run on the cycle model, bit for bit as on
// fsim.
// Heavy: a few seconds to half a minute per model.
#include "compiler/frontend/compile_model.h"
#include "compiler/graph/graph_text.h"
#include "compiler/report/report.h"
#include "runtime/executor.h"
#include "runtime/sim_devices/make_device.h"
#include "tests/compiler/zoo_util.h"

namespace accelc::compiler {
namespace {

using namespace peer;  // NOLINT: test helpers

/// A model and the coverage it must keep.
struct CoverageCase {
  ZooModel model;
  double minSharePct = 100.0;    ///< MACs on the accelerator, at least
  int64_t maxBoundaries = 2;     ///< quantize/dequantize steps, at most
  bool cycleModel = false;       ///< also run on the cycle model
  int64_t maxHostMoves = -1;     ///< host Reshape, Transpose and Slice steps with pack/unpack, at most (-1: any)
  int64_t maxHostConcats = -1;   ///< host Concat steps, at most (-1: any)
};

void PrintTo(const CoverageCase& c, std::ostream* os) { *os << c.model.name; }

class CoverageTest : public ::testing::TestWithParam<CoverageCase> {};

/// `b` on `engine` for input `x`: its only output.
support::Expected<Tensor> runOn(runtime::Engine engine, const runtime::Bundle& b, const isa::Target& t, const Tensor& x) {
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Device> d, runtime::makeDevice(engine, t));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> e, runtime::Executor::create(b, *d, "model.acx"));
  ACCELC_ASSIGN_OR_RETURN(std::vector<Tensor> y, e->run({x}));
  return y[0];
}

TEST_P(CoverageTest, CompiledForVtaDefaultIsBitExactOnFsimAndKeepsItsCoverage) {
  const CoverageCase& c = GetParam();
  ASSERT_TRUE(exported(c.model)) << testing::readFile(c.model.log());
  const isa::Target t = testing::presetTarget("vta-default");
  CompileOptions o;
  o.calibrate = c.model.input();
  auto b = compileModel(c.model.model(), t, o);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  auto report = bundleReport(*b, t);
  ASSERT_TRUE(report.isOk()) << report.diag().str();
  const Coverage& cov = report->coverage;
  EXPECT_GE(cov.accelMacSharePct, c.minSharePct) << "MACs on the accelerator";
  EXPECT_LE(cov.quantBoundaries, c.maxBoundaries) << "quantize/dequantize boundaries";
  if (c.maxHostMoves >= 0) {
    int64_t moves = 0;
    for (const char* op : {"Reshape", "Transpose", "Slice", "pack/unpack"})
      moves += cov.hostSteps.count(op) ? cov.hostSteps.at(op) : 0;
    EXPECT_LE(moves, c.maxHostMoves) << "host moves";
  }
  if (c.maxHostConcats >= 0) {
    int64_t concats = 0;
    for (const char* op : {"Concat", "QConcat"}) concats += cov.hostSteps.count(op) ? cov.hostSteps.at(op) : 0;
    EXPECT_LE(concats, c.maxHostConcats) << "host concatenations";
  }
  RecordProperty("accelerator_mac_share_pct", std::to_string(cov.accelMacSharePct));
  RecordProperty("boundaries", std::to_string(cov.quantBoundaries));
  const Tensor x = load(c.model.input());
  auto g = parseGraph(b->graphText, "graph");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  auto ref = runReference(*g, {x});
  ASSERT_TRUE(ref.isOk()) << ref.diag().str();
  auto fsim = runOn(runtime::Engine::kFsim, *b, t, x);
  ASSERT_TRUE(fsim.isOk()) << fsim.diag().str();
  EXPECT_EQ(fsim->bytes(), (*ref)[0].bytes()) << "fsim against the reference integer graph";
  if (!c.cycleModel) return;
  auto cycle = runOn(runtime::Engine::kCycle, *b, t, x);
  ASSERT_TRUE(cycle.isOk()) << cycle.diag().str();
  EXPECT_EQ(cycle->bytes(), fsim->bytes()) << "the cycle model against fsim";
}

// The boundaries: the input's quantize and the output's dequantize; the encoder has one pair around each float
// island (its softmax, layer norms and GELU: 8 islands, its output a layer norm's) and every matrix product on
// the accelerator, Q·Kᵀ and attention·V among them. SqueezeNet's in-place concatenations and the encoder's
// products of two activations also run on the cycle model, as do ShuffleNet's channel shuffles (1x1 convolutions
// that permute, one per half that the next unit splits off, and the last folded into conv5's weights) and its
// Concats, all in place (the second stage's halves of 24 channels padded to whole blocks). The
// encoder's head splits and joins, and Kᵀ as Q·Kᵀ's weights, are views read in place: 6 Reshapes,
// 2 Transposes (V's, packed as weights) and 24 packs or unpacks stay on the host, 32 moves where there were 80.
INSTANTIATE_TEST_SUITE_P(Zoo, CoverageTest,
                         ::testing::Values(CoverageCase{{"mobilenet_v3_small", "logits"}, 100.0, 2, true},
                                           CoverageCase{{"mobilenet_v2", "logits"}, 100.0, 2},
                                           CoverageCase{{"mnasnet0_5", "logits"}, 100.0, 2},
                                           CoverageCase{{"squeezenet1_0", "logits"}, 100.0, 2, true},
                                           CoverageCase{{"inception_v3", "logits"}, 100.0, 2},
                                           CoverageCase{{"densenet121", "logits"}, 100.0, 2},
                                           CoverageCase{{"shufflenet_v2_x0_5", "logits"}, 100.0, 2, true, -1, 0},
                                           CoverageCase{{"transformer_encoder", "out"}, 100.0, 16, true, 32}),
                         [](const ::testing::TestParamInfo<CoverageCase>& i) { return i.param.model.name; });

}  // namespace
}  // namespace accelc::compiler
