// tests/host/host_library_test.cc — host code compiled ahead of time into the
// shared library a bundle carries, and loaded by the runtime without LLVM:
// the same outputs as the in-process JIT's, through a bundle file's round
// trip; refused before dlopen when the library was built for another
// architecture, does not hash to what the bundle records, or needs a CPU
// feature this CPU lacks; a kernel description past the bundle's steps is a
// located error when the bundle is read.
#include <gtest/gtest.h>

#include <random>

#include "compiler/host/library.h"
#include "compiler/host/step_kernels.h"
#include "runtime/executor.h"
#include "runtime/fsim_device.h"
#include "runtime/host_library.h"
#include "tests/test_util.h"

namespace accelc::compiler::host {
namespace {

using runtime::OpKind;
using runtime::Step;
using runtime::Tensor;

/// Host steps: y = Conv(x, w, bias), r = Relu(y), o = Add(r, skip), p = MaxPool(o).
runtime::Bundle hostBundle(const isa::Target& t) {
  runtime::Bundle b;
  b.hash = t.hash, b.hwspecYaml = t.spec.canonicalYaml(), b.isaYaml = t.isa.yamlText;
  const char* names[] = {"x", "w", "bias", "skip", "y", "r", "o", "p"};
  const runtime::Shape shapes[] = {{1, 6, 9, 9},  {8, 6, 3, 3},  {8}, {1, 8, 9, 9},
                                   {1, 8, 9, 9},  {1, 8, 9, 9},  {1, 8, 9, 9}, {1, 8, 4, 4}};
  for (int i = 0; i < 8; ++i) {
    runtime::TensorSlot s;
    s.name = names[i], s.shape = shapes[i], s.addr = static_cast<uint64_t>(i) * 8192;
    b.tensors.push_back(s);
  }
  b.window = 8 * 8192;
  b.inputs = {0, 1, 2, 3};
  b.outputs = {7};
  runtime::ConvAttrs conv;
  conv.pads = {1, 1, 1, 1};
  runtime::PoolAttrs pool;
  pool.kernelShape = {2, 2}, pool.strides = {2, 2};
  b.steps.push_back(Step{Step::Kind::kHost, "/conv", -1, OpKind::kConv, conv, {0, 1, 2}, {4}});
  b.steps.push_back(Step{Step::Kind::kHost, "/relu", -1, OpKind::kRelu, runtime::NoAttrs{}, {4}, {5}});
  b.steps.push_back(Step{Step::Kind::kHost, "/add", -1, OpKind::kAdd, runtime::NoAttrs{}, {5, 3}, {6}});
  b.steps.push_back(Step{Step::Kind::kHost, "/pool", -1, OpKind::kMaxPool, pool, {6}, {7}});
  return b;
}

std::vector<Tensor> inputs(const runtime::Bundle& b) {
  std::vector<Tensor> in;
  std::mt19937 g(7);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (int i = 0; i < 4; ++i) {
    Tensor x(support::DType::kFloat32, b.tensors[static_cast<size_t>(i)].shape);
    for (int64_t k = 0; k < x.numel(); ++k) x.data<float>()[k] = d(g);
    in.push_back(x);
  }
  return in;
}

Tensor runWith(const runtime::Bundle& b, const isa::Target& t, runtime::HostKernels k) {
  runtime::FsimDevice d(t);
  auto e = runtime::Executor::create(b, d, "host.acx", std::move(k));
  EXPECT_TRUE(e.isOk()) << e.status().str();
  auto out = (*e)->run(inputs(b));
  EXPECT_TRUE(out.isOk()) << out.status().str();
  return (*out)[0];
}

TEST(HostLibraryTest, ABundlesLibraryRunsAsTheJitsCode) {
  const isa::Target t = testing::presetTarget("tiny");
  runtime::Bundle b = hostBundle(t);
  auto target = x86Target("native");
  ASSERT_TRUE(target.isOk()) << target.status().str();
  auto code = compileHostCode(b, *target, "host.acx");
  ASSERT_TRUE(code.isOk()) << code.status().str();
  ASSERT_EQ(code->kernels.size(), 2u);  // the convolution with the ReLU and the add fused; the pool
  EXPECT_EQ(code->kernels[0].fuses, 2u);
  EXPECT_FALSE(code->library.empty());
  b.host = *code;
  // Through a file's round trip: the library is a section of the bundle.
  auto read = runtime::readCheckedBundle(runtime::writeBundle(b), "host.acx");
  ASSERT_TRUE(read.isOk()) << read.status().str();
  auto loaded = runtime::loadHostLibrary(read->bundle, nullptr, "host.acx");
  ASSERT_TRUE(loaded.isOk()) << loaded.status().str();
  EXPECT_EQ(loaded->at(0).kind.rfind("bundle x86_64", 0), 0u) << loaded->at(0).kind;
  auto jit = HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.status().str();
  auto jitted = generatedHostKernels(b, **jit, "host.acx");
  ASSERT_TRUE(jitted.isOk()) << jitted.status().str();
  const Tensor fromLibrary = runWith(read->bundle, t, std::move(*loaded)), fromJit = runWith(b, t, std::move(*jitted));
  EXPECT_EQ(fromLibrary.bytes(), fromJit.bytes());
  const Tensor reference = runWith(b, t, {});
  double worst = 0;
  for (int64_t i = 0; i < reference.numel(); ++i)
    worst = std::max(worst, std::fabs(double{fromLibrary.data<float>()[i]} - reference.data<float>()[i]));
  EXPECT_LT(worst, 1e-4);
}

TEST(HostLibraryTest, CodeThatCannotRunHereIsRefusedBeforeItLoads) {
  const isa::Target t = testing::presetTarget("tiny");
  runtime::Bundle b = hostBundle(t);
  auto target = x86Target("x86-64-v2");  // no AVX: runs on every x86-64 machine this test meets
  ASSERT_TRUE(target.isOk()) << target.status().str();
  EXPECT_EQ(std::count(target->features.begin(), target->features.end(), "avx2"), 0);
  auto code = compileHostCode(b, *target, "host.acx");
  ASSERT_TRUE(code.isOk()) << code.status().str();
  b.host = *code;
  EXPECT_TRUE(runtime::loadHostLibrary(b, nullptr, "host.acx").isOk());
  runtime::Bundle arm = b;
  arm.host.triple = "aarch64-unknown-linux-gnu";
  auto e = runtime::loadHostLibrary(arm, nullptr, "host.acx");
  ASSERT_FALSE(e.isOk());
  EXPECT_NE(e.status().str().find("built for aarch64-unknown-linux-gnu; this runtime runs x86_64 code"), std::string::npos)
      << e.status().str();
  runtime::Bundle flipped = b;
  flipped.host.library[flipped.host.library.size() / 2] ^= 1;
  e = runtime::loadHostLibrary(flipped, nullptr, "host.acx");
  ASSERT_FALSE(e.isOk());
  EXPECT_NE(e.status().str().find("does not hash to what the bundle records"), std::string::npos) << e.status().str();
  EXPECT_EQ(runtime::hostLibraryProblem(b.host, {"sse4_2"}).find("needs CPU features this CPU lacks"), std::string::npos);
  runtime::HostCode wants = b.host;
  wants.features.push_back("avx512_fp16x");
  EXPECT_NE(runtime::hostLibraryProblem(wants, runtime::cpuFeatures()).find("this CPU lacks: avx512_fp16x"),
            std::string::npos);
  runtime::Bundle past = b;
  past.host.kernels[0].step = 3;  // with two steps fused it would run past the last step
  auto bad = runtime::readCheckedBundle(runtime::writeBundle(past), "host.acx");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().str(), "host.acx[host]: error: host kernel of step 3: past the bundle's 4 steps");
}

}  // namespace
}  // namespace accelc::compiler::host
