// tests/compiler/qops_peer_test.cc — the quantizer's integer ops (QClip, QHardSigmoid,
// QHardSwish, QMul, QMatMul, QGemm via reshapes, QConcat) against onnxruntime on one
// small QDQ model per op (tests/golden/qops/make_qdq_models.py writes them).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <ostream>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/quant/quantize.h"
#include "tests/compiler/peer_util.h"

namespace accelc::compiler {
namespace {

using namespace peer;  // NOLINT: test helpers

struct Case {
  const char* name;  ///< the model's name in make_qdq_models.py
  int inputs;        ///< a, or a and b
  OpKind op;         ///< the integer op the quantizer must emit
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

/// The models, written once per process into a folder of its own: ctest runs the cases in parallel, and one
/// process must not read a file another is still writing.
const std::string& modelDir() {
  static const std::string dir = [] {
    const std::string d = kTmp + "/qops-" + std::to_string(::getpid());
    EXPECT_EQ(sh("/usr/bin/python3 " + kSrc + "/tests/golden/qops/make_qdq_models.py " + d), 0)
        << testing::readFile(kTmp + "/peer.log");
    return d;
  }();
  return dir;
}

class QOpsPeerTest : public ::testing::TestWithParam<Case> {};

TEST_P(QOpsPeerTest, IntegerOpIsWithinOneStepOfOnnxruntime) {
  const Case& c = GetParam();
  const std::string base = modelDir() + "/" + c.name, model = base + ".onnx";
  std::string feeds;
  std::vector<Tensor> inputs;
  for (int i = 0; i < c.inputs; ++i) {
    const std::string in = std::string(1, static_cast<char>('a' + i)), npy = base + "." + in + ".npy";
    feeds += " " + in + "=" + npy;
    inputs.push_back(load(npy));
  }
  const std::string outDir = base + ".ort";
  ASSERT_EQ(sh("node " + kSrc + "/tools/ort/run_ort.js --as-written " + model + " " + outDir + feeds), 0)
      << testing::readFile(kTmp + "/peer.log");
  const Tensor theirs = load(outDir + "/y.npy");

  auto g = importOnnx(model);
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  const int yq = g->findValue("y_q");
  ASSERT_GE(yq, 0);
  ASSERT_EQ(g->values[yq].quant.scale.size(), 1u);
  const double step = g->values[yq].quant.scale[0];  // the output DequantizeLinear's scale
  ASSERT_TRUE(stripQdq(*g).isOk());
  std::vector<std::string> notes;
  auto q = quantizeGraph(*g, &notes);
  ASSERT_TRUE(q.isOk()) << q.diag().str();
  const bool emitted = std::any_of(q->nodes.begin(), q->nodes.end(), [&](const Node& n) { return n.kind == c.op; });
  ASSERT_TRUE(emitted) << "the quantizer left " << c.name << " float: " << (notes.empty() ? "" : notes[0]);
  auto out = runReference(*q, inputs);
  ASSERT_TRUE(out.isOk()) << out.diag().str();
  const Tensor& ours = (*out)[0];
  ASSERT_EQ(ours.shape(), theirs.shape());
  double worstLsb = 0;
  for (int64_t i = 0; i < ours.numel(); ++i) worstLsb = std::max(worstLsb, std::abs(ours.at(i) - theirs.at(i)) / step);
  std::printf("[ qops     ] %s: worst difference %.3f LSB over %lld values\n", c.name, worstLsb,
              static_cast<long long>(ours.numel()));
  RecordProperty("worst_lsb", std::to_string(worstLsb));
  EXPECT_LE(worstLsb, 1.0001);
}

INSTANTIATE_TEST_SUITE_P(Ops, QOpsPeerTest,
                         ::testing::Values(Case{"clip", 1, OpKind::kQClip}, Case{"relu", 1, OpKind::kQClip},
                                           Case{"hardsigmoid", 1, OpKind::kQHardSigmoid},
                                           Case{"hardswish", 1, OpKind::kQHardSwish},
                                           Case{"x_hardsigmoid", 1, OpKind::kQHardSwish},
                                           Case{"mul_const", 1, OpKind::kQMul}, Case{"mul_se", 2, OpKind::kQMul},
                                           Case{"matmul", 2, OpKind::kQMatMul},
                                           Case{"matmul_const", 1, OpKind::kQGemm},
                                           Case{"concat", 2, OpKind::kQConcat}),
                         [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace accelc::compiler
