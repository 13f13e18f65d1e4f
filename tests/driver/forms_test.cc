// tests/driver/forms_test.cc — the accelerator forms beyond ResNet in one small
// model (models/forms: depthwise and grouped convolutions, ReLU6 clamps, a
// channel Concat written in place by its producers, a batch norm after it,
// hard-swish, a squeeze-and-excitation gate, a padded max pool of an
// unclamped input),
// compiled for each preset and run on fsim, the cycle model and the verilated
// RTL: bit-exact with the integer graph on the reference engine, the RTL in
// the cycle model's cycles. Beside it, one self-attention block
// (models/forms/make_attention.py): its matrix products of two activations,
// Q·Kᵀ and attention·V, its projections on 3-D activations and its residual
// add run on the accelerator, bit-exact on every level; and channel Split and
// Slice (models/forms/make_slices.py) as views of their input, read in place;
// channel shuffles (models/forms/make_shuffle.py) as permuting 1×1
// convolutions, or folded into the convolution that reads them; and channel
// Concats of inputs that do not fill whole blocks
// (models/forms/make_narrow_concat.py), padded to whole blocks and placed in
// DRAM.
// One preset per process (one SystemC elaboration).
#include <gtest/gtest.h>

#include <map>

#include "compiler/frontend/compile_model.h"
#include "compiler/graph/graph_text.h"
#include "compiler/host/host_cost.h"
#include "compiler/engine/reference.h"
#include "runtime/executor.h"
#include "runtime/sim_devices/make_device.h"
#include "runtime/sim_devices/rtl_device.h"
#include "simulator/rtl/builtin_models.h"
#include "support/npy.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

using runtime::OpKind;
using runtime::Tensor;

const std::string kForms = testing::sourceDir() + "/models/forms/";

Tensor load(const std::string& path) {
  auto a = support::readNpy(path);
  EXPECT_TRUE(a.isOk());
  Tensor t(a->dtype, a->shape);
  t.bytes() = a->data;
  return t;
}

/// `b` run on `d` for the batch `x`: its only output.
support::Expected<Tensor> runOn(const runtime::Bundle& b, runtime::Device& d, const Tensor& x) {
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> e, runtime::Executor::create(b, d, "forms.acx"));
  ACCELC_ASSIGN_OR_RETURN(std::vector<Tensor> y, e->runBatched({x}));
  return y[0];
}

/// Why the layers whose names contain `part` run where they do ("accelerator: ..." or "host: ...").
std::vector<std::string> placesOf(const runtime::Bundle& b, const std::string& part) {
  std::vector<std::string> out;
  for (const runtime::LayerInfo& l : b.layers)
    if (l.name.find(part) != std::string::npos) out.push_back(l.why);
  return out;
}

/// Runs `b` on fsim and on the verilated RTL (after the cycle model) for the batch in `calib`: bit-exact with
/// the reference engine on its integer graph.
void expectBitExactOnEveryLevel(const runtime::Bundle& b, const isa::Target& t, const std::string& calib) {
  const Tensor x = load(calib);
  auto g = parseGraph(b.graphText, "graph");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  auto want = runReferenceBatched(*g, {x});
  ASSERT_TRUE(want.isOk()) << want.diag().str();
  auto fsim = runtime::makeDevice(runtime::Engine::kFsim, t);
  auto model = simulator::builtinRtlModel(t);
  ASSERT_TRUE(fsim.isOk() && model.isOk()) << (model ? "" : model.diag().str());
  auto rtl = runtime::RtlDevice::create(t, std::move(*model));  // runs the cycle model first, then the RTL
  ASSERT_TRUE(rtl.isOk()) << rtl.diag().str();
  auto onFsim = runOn(b, **fsim, x);
  ASSERT_TRUE(onFsim.isOk()) << onFsim.diag().str();
  EXPECT_EQ(onFsim->bytes(), (*want)[0].bytes()) << "fsim against the reference integer graph";
  auto onRtl = runOn(b, **rtl, x);
  ASSERT_TRUE(onRtl.isOk()) << onRtl.diag().str();
  EXPECT_EQ(onRtl->bytes(), onFsim->bytes()) << "the RTL against fsim";
}

/// models/forms/`model` compiled for `t`, calibrated on models/forms/`calib`.
support::Expected<runtime::Bundle> compileForm(const std::string& model, const std::string& calib,
                                               const isa::Target& t) {
  CompileOptions o;
  o.calibrate = kForms + calib;
  return compileModel(kForms + model, t, o);
}

class FormsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FormsTest, EveryFormIsBitExactOnFsimTheCycleModelAndTheRtl) {
  const isa::Target t = testing::presetTarget(GetParam());
  auto b = compileForm("forms.onnx", "calib.npy", t);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  int accelerated = 0;  // every layer but the boundaries, the flatten and (on wide) the Concat
  for (const runtime::LayerInfo& l : b->layers) {
    const bool host = l.name.find("quantize") != std::string::npos || l.name.find("Flatten") != std::string::npos ||
                      l.name.find("im2col") != std::string::npos || l.name.find("Concat") != std::string::npos;
    if (host) continue;
    EXPECT_EQ(l.where, "accelerator") << l.name << ": " << l.why;
    ++accelerated;
  }
  // 13 convolutions (the batch norm among them), 2 hard-sigmoids, the gate's multiply, 3 pools, the classifier.
  EXPECT_EQ(accelerated, 20);
  // The Concat's first input has 16 channels: whole blocks of 4 and 16 (in place), not of 32 (a host copy).
  const std::vector<std::string> concat = placesOf(*b, "Concat");
  ASSERT_EQ(concat.size(), 1u);
  EXPECT_EQ(concat[0].rfind(t.spec.blockIn == 32 ? "host: input" : "accelerator: in place", 0), 0u) << concat[0];
  expectBitExactOnEveryLevel(*b, t, kForms + "calib.npy");
}

TEST_P(FormsTest, AttentionsMatrixProductsAndResidualAddRunOnTheAcceleratorBitExact) {
  const isa::Target t = testing::presetTarget(GetParam());
  auto b = compileForm("attention.onnx", "attention_calib.npy", t);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  int products = 0, accelerated = 0;
  for (const runtime::LayerInfo& l : b->layers) {
    if (l.name.find("MatMul") == std::string::npos || l.name.find(':') != std::string::npos) continue;  // no reshapes
    EXPECT_EQ(l.where, "accelerator") << l.name << ": " << l.why;
    products += l.why.find("two activations") != std::string::npos;
    accelerated += l.where == "accelerator";
  }
  EXPECT_EQ(products, 2) << "Q·Kᵀ and attention·V";
  EXPECT_EQ(accelerated, 6) << "4 projections and 2 products of activations";
  // The residual add of [1, 20, 40]: one row of 20 pixels, more than tiny's micro-op buffer holds per tile.
  const std::vector<std::string> add = placesOf(*b, "/Add");
  ASSERT_EQ(add.size(), 1u);
  EXPECT_EQ(add[0].rfind(GetParam() == "tiny" ? "host: no legal tiling" : "accelerator: ", 0), 0u) << add[0];
  expectBitExactOnEveryLevel(*b, t, kForms + "attention_calib.npy");
}

// At d_model 64 and a sequence of 32 the heads' 32 channels and the 32 rows are whole blocks on every preset:
// Q's and V's split into heads ([1, S, D] to [H, S, d]), the heads' join and the reshapes around the
// projections' rows are views of the rows their producers wrote, and Kᵀ is a view as the weights of Q·Kᵀ
// (their blocks are K's rows); no step computes them. Only V is unpacked from its view to be packed as the
// weights of attention·V (their blocks hold V's rows transposed).
TEST_P(FormsTest, AttentionsHeadSplitAndJoinAreViewsOfTheProjectionsRowsBitExact) {
  const isa::Target t = testing::presetTarget(GetParam());
  auto b = compileForm("attention_heads.onnx", "attention_heads_calib.npy", t);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  std::map<OpKind, int> hostMoves;
  for (const runtime::Step& st : b->steps)
    if (st.kind == runtime::Step::Kind::kHost) ++hostMoves[st.op];
  EXPECT_EQ(hostMoves[OpKind::kTranspose], 0);
  EXPECT_EQ(hostMoves[OpKind::kReshape], 1) << "the input's rows alone";
  int views = 0, weights = 0, folded = 0;
  for (const std::string& why : placesOf(*b, "Transpose")) {
    views += why.rfind("accelerator: in place: a view of", 0) == 0;
    weights += why.find("holds the weight blocks") != std::string::npos;
    folded += why.rfind("accelerator: in place: folded", 0) == 0;
  }
  EXPECT_EQ(views, 3) << "Q's and V's heads, and Kᵀ";
  EXPECT_EQ(weights, 1) << "Kᵀ";
  EXPECT_EQ(folded, 1) << "the heads' join, which the view of its reshape reads";
  expectBitExactOnEveryLevel(*b, t, kForms + "attention_heads_calib.npy");
}

TEST_P(FormsTest, ChannelSplitsAndSlicesAreViewsReadInPlaceBitExact) {
  const isa::Target t = testing::presetTarget(GetParam());
  auto b = compileForm("slices.onnx", "slices_calib.npy", t);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  // The Split's first part is 16 channels: whole blocks of 8 and 16 (views), not of 32 (a host copy). The Slice
  // starts at channel 32 and ends at the last: a view on every preset.
  const std::vector<std::string> split = placesOf(*b, "/Split"), slice = placesOf(*b, "/Slice");
  ASSERT_EQ(split.size(), 1u);
  ASSERT_EQ(slice.size(), 1u);
  EXPECT_EQ(split[0].rfind(t.spec.blockIn == 32 ? "host: part" : "accelerator: in place", 0), 0u) << split[0];
  EXPECT_EQ(slice[0].rfind("accelerator: in place", 0), 0u) << slice[0];
  for (const runtime::LayerInfo& l : b->layers) {
    if (l.name.find("Conv") == std::string::npos || l.name.find(":im2col") != std::string::npos) continue;
    EXPECT_EQ(l.where, "accelerator") << l.name << ": " << l.why;
  }
  expectBitExactOnEveryLevel(*b, t, kForms + "slices_calib.npy");
}

TEST_P(FormsTest, ChannelShufflesRunAsPermutingConvolutionsOrFoldIntoTheirReadersBitExact) {
  const isa::Target t = testing::presetTarget(GetParam());
  auto b = compileForm("shuffle.onnx", "shuffle_calib.npy", t);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  for (const runtime::LayerInfo& l : b->layers) {
    const bool host = l.name.find("quantize") != std::string::npos || l.name.find("im2col") != std::string::npos ||
                      l.name == "/Flatten";
    if (host) continue;
    EXPECT_EQ(l.where, "accelerator") << l.name << ": " << l.why;
  }
  auto g = parseGraph(b->graphText, "graph");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  // The first shuffle becomes one QConv per half its split reads, the third one QConv (a residual add reads it);
  // the second folds into the strided convolution, which reads the Concat itself.
  std::vector<std::string> permuting;
  for (const Node& n : g->nodes) {
    EXPECT_NE(n.kind, OpKind::kTranspose) << n.name;
    if (n.kind == OpKind::kQConv && n.name.find("Conv") == std::string::npos) permuting.push_back(n.name);
    if (n.name == "/down/down.0/Conv") {
      EXPECT_EQ(g->values[n.inputs[0]].name, "/Concat_1_output_0:q");
    }
  }
  EXPECT_EQ(permuting, (std::vector<std::string>{"/Slice", "/Slice_1", "/Reshape_5"}));
  expectBitExactOnEveryLevel(*b, t, kForms + "shuffle_calib.npy");
}

TEST_P(FormsTest, ConcatsOfInputsThatDoNotFillBlocksArePaddedAndPlacedInDramBitExact) {
  const isa::Target t = testing::presetTarget(GetParam());
  auto b = compileForm("narrow_concat.onnx", "narrow_concat_calib.npy", t);
  ASSERT_TRUE(b.isOk()) << b.diag().str();
  const std::vector<std::string> concats = placesOf(*b, "Concat");
  ASSERT_EQ(concats.size(), 3u);
  for (const std::string& why : concats) EXPECT_EQ(why.rfind("accelerator: in place", 0), 0u) << why;
  // The last Concat joins 6, 24 and 12 channels: its first two inputs rounded up to whole blocks, and the
  // convolution reading it zero weights for the channels between.
  const int64_t block = t.spec.blockIn,
                padded = (6 + block - 1) / block * block + (24 + block - 1) / block * block + 12;
  auto g = parseGraph(b->graphText, "graph");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  const int joined = g->findValue("/Concat_2_output_0:q");
  ASSERT_GE(joined, 0);
  EXPECT_EQ(g->values[static_cast<size_t>(joined)].shape, (runtime::Shape{1, padded, 6, 6}));
  // (That the padding changes no value the model computes: PassesTest.ConcatPaddingKeepsEveryValue.)
  expectBitExactOnEveryLevel(*b, t, kForms + "narrow_concat_calib.npy");
}

/// The attention block compiled for `t` with `--placement cost` against `host`.
support::Expected<runtime::Bundle> compileByCost(const isa::Target& t, HostCost host) {
  CompileOptions o;
  o.calibrate = kForms + "attention_calib.npy";
  o.hostCost = std::move(host);
  return compileModel(kForms + "attention.onnx", t, o);
}

/// Runs `b` on fsim: bit-exact with the reference engine on its integer graph.
void expectBitExactOnFsim(const runtime::Bundle& b, const isa::Target& t) {
  const Tensor x = load(kForms + "attention_calib.npy");
  auto g = parseGraph(b.graphText, "graph");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  auto want = runReferenceBatched(*g, {x});
  ASSERT_TRUE(want.isOk()) << want.diag().str();
  auto fsim = runtime::makeDevice(runtime::Engine::kFsim, t);
  ASSERT_TRUE(fsim.isOk());
  auto got = runOn(b, **fsim, x);
  ASSERT_TRUE(got.isOk()) << got.diag().str();
  EXPECT_EQ(got->bytes(), (*want)[0].bytes()) << "fsim against the reference integer graph";
}

// --placement cost weighs each region of accelerator layers against the host: a host too slow for anything
// keeps the capability placement, one that costs nothing takes every layer, and against the boards' Cortex-A9
// each layer runs where its region's estimate is lower, the matrix products on the accelerator. Every weighed
// layer gives both estimates; each bundle keeps the integer graph's bits.
TEST_P(FormsTest, PlacementByCostMovesARegionToTheHostOnlyWhenTheHostIsFaster) {
  const isa::Target t = testing::presetTarget(GetParam());
  auto capability = compileForm("attention.onnx", "attention_calib.npy", t);
  ASSERT_TRUE(capability.isOk()) << capability.diag().str();
  auto slow = compileByCost(t, {"slow", [](OpKind, int64_t, int64_t) { return 1.0; }, 1e12});
  ASSERT_TRUE(slow.isOk()) << slow.diag().str();
  ASSERT_EQ(slow->layers.size(), capability->layers.size());
  for (size_t i = 0; i < slow->layers.size(); ++i) {
    const runtime::LayerInfo &l = slow->layers[i], &c = capability->layers[i];
    EXPECT_EQ(l.where, c.where) << l.name << ": " << l.why;
    const bool move = c.why.rfind("accelerator: in place: a view of", 0) == 0 ||
                      c.why.rfind("accelerator: in place: folded", 0) == 0;
    if (move) {
      EXPECT_EQ(l.why, c.why) << "a move in place is no region's: nothing weighs it";
    } else if (l.where == "accelerator") {
      EXPECT_EQ(l.why.rfind(c.why + "; by cost: its region of ", 0), 0u) << l.why;
      EXPECT_NE(l.why.find("on the slow host against"), std::string::npos) << l.why;
    }
  }
  auto free = compileByCost(t, {"free", [](OpKind, int64_t, int64_t) { return 0.0; }, 1e9});
  ASSERT_TRUE(free.isOk()) << free.diag().str();
  for (const runtime::LayerInfo& l : free->layers) {
    EXPECT_EQ(l.where, "host") << l.name << ": " << l.why;
    if (l.name.find("MatMul") != std::string::npos && l.name.find(':') == std::string::npos) {
      EXPECT_EQ(l.why.rfind("host: by cost: its region of ", 0), 0u) << l.why;
    }
  }
  expectBitExactOnFsim(*free, t);
  auto speed = host::hostSpeed("armv7");
  ASSERT_TRUE(speed.isOk());
  auto a9 = compileByCost(t, {speed->name,
                              [s = *speed](OpKind k, int64_t macs, int64_t bytes) {
                                return host::hostSeconds(s, k, macs, bytes, true);
                              },
                              speed->packBytes});
  ASSERT_TRUE(a9.isOk()) << a9.diag().str();
  int weighed = 0;
  for (const runtime::LayerInfo& l : a9->layers) {  // each weighed layer runs where its estimate is lower
    const size_t about = l.why.find("takes about "), against = l.why.find(" host against ");
    if (about == std::string::npos) continue;
    ASSERT_NE(against, std::string::npos) << l.why;
    const double host = std::stod(l.why.substr(about + 12)), accel = std::stod(l.why.substr(against + 14));
    EXPECT_EQ(l.where, host < accel ? "host" : "accelerator") << l.name << ": " << l.why;
    ++weighed;
  }
  EXPECT_GE(weighed, 6);
  int products = 0;
  for (const runtime::LayerInfo& l : a9->layers) {
    if (l.name.find("MatMul") == std::string::npos || l.name.find(':') != std::string::npos) continue;
    EXPECT_EQ(l.where, "accelerator") << l.name << ": " << l.why;
    products += l.why.find("on the ARMv7 Cortex-A9 host against") != std::string::npos;
  }
  EXPECT_EQ(products, 6);
  expectBitExactOnFsim(*a9, t);
}

ACCELC_INSTANTIATE_FOR_PRESETS(FormsTest);

}  // namespace
}  // namespace accelc::compiler
