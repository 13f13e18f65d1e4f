// tests/host/ptx_test.cc — every kind of loop kernel as PTX for nvptx64
// (sm_80), assembled by ptxas when /usr/local/cuda/bin/ptxas exists (else the
// test is skipped, saying so): convolutions (dense, strided, grouped,
// depthwise), products (transposed, batched), pools, normalizations and
// broadcasting chains with exp, tanh and erf (polynomials) and pow
// (libdevice's, linked in; not assembled where libdevice is missing), and the
// integer ops' kernels. This machine has no GPU, so the kernels
// are assembled, not run.
#include "compiler/host/ptx.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "compiler/host/int_kernels.h"
#include "compiler/host/nn_kernels.h"
#include "tests/test_util.h"

namespace accelc::compiler::host {
namespace {

using runtime::OpKind;
using runtime::Shape;

const std::string kPtxas = "/usr/local/cuda/bin/ptxas";

std::vector<std::pair<std::string, KernelPlan>> plans() {
  const CpuShape gpu{4, 16};  // narrow vectors: NVPTX takes them apart into lanes
  std::vector<std::pair<std::string, KernelPlan>> p;
  runtime::ConvAttrs dense;
  dense.pads = {1, 1, 1, 1};
  p.push_back({"conv", *convPlan(dense, {1, 8, 14, 14}, {16, 8, 3, 3}, true, gpu)});
  runtime::ConvAttrs strided = dense;
  strided.strides = {2, 2}, strided.group = 2;
  p.push_back({"conv_s2_grouped", *convPlan(strided, {2, 8, 15, 15}, {6, 4, 3, 3}, false, gpu)});
  runtime::ConvAttrs dw = dense;
  dw.group = 8;
  p.push_back({"depthwise", *convPlan(dw, {1, 8, 12, 12}, {8, 1, 3, 3}, true, gpu)});
  runtime::GemmAttrs g;
  g.transB = 1;
  const Shape c = {1000};
  p.push_back({"gemm", *gemmPlan(g, {1, 512}, {1000, 512}, &c, {1, 1000}, gpu)});
  p.push_back({"matmul", *matmulPlan({2, 4, 10, 16}, {2, 4, 16, 10}, {2, 4, 10, 10}, gpu)});
  runtime::PoolAttrs pool;
  pool.kernelShape = {3, 3}, pool.strides = {2, 2}, pool.pads = {1, 1, 1, 1};
  p.push_back({"maxpool", *poolPlan(OpKind::kMaxPool, pool, {1, 8, 28, 28}, gpu)});
  p.push_back({"avgpool", *poolPlan(OpKind::kAveragePool, pool, {1, 8, 28, 28}, gpu)});
  p.push_back({"gap", *poolPlan(OpKind::kGlobalAveragePool, runtime::PoolAttrs{}, {1, 64, 7, 7}, gpu)});
  p.push_back({"softmax", *softmaxPlan(runtime::SoftmaxAttrs{}, {4, 32, 32}, gpu)});
  runtime::NormAttrs ln;
  p.push_back({"layernorm", *layerNormPlan(ln, {2, 32, 128}, true, gpu)});
  runtime::ReduceAttrs mean;
  mean.axes = {2, 3};
  p.push_back({"reducemean", *reduceMeanPlan(mean, {1, 16, 7, 7}, gpu)});
  EwKernel chain;  // tanh(a) · erf(b) + exp(a), b broadcast per channel
  chain.numInputs = 2;
  const int a = chain.input(0), b = chain.input(1);
  chain.binary(EwOp::kAdd, chain.binary(EwOp::kMul, chain.unary(EwOp::kTanh, a), chain.unary(EwOp::kErf, b)),
               chain.unary(EwOp::kExp, a));
  p.push_back({"chain", *broadcastPlan(chain, {{1, 8, 5, 5}, {1, 8, 1, 1}}, {1, 8, 5, 5}, gpu)});
  EwKernel pow;  // libdevice's
  pow.numInputs = 2;
  pow.binary(EwOp::kPow, pow.input(0), pow.input(1));
  p.push_back({"pow", *broadcastPlan(pow, {{1, 8, 5, 5}, {1, 8, 1, 1}}, {1, 8, 5, 5}, gpu)});
  // The integer ops: int8 and int32 buffers, Mulq and Shrr, the int32 products (VNNI is x86's).
  runtime::QConvAttrs q;
  q.pads = {1, 1, 1, 1}, q.padValue = -2;
  p.push_back({"qconv", *qconvPlan(OpKind::kQConv, q, {1, 8, 9, 9}, {16, 8, 3, 3}, gpu, true)});
  p.push_back({"qgemm", *qconvPlan(OpKind::kQGemm, q, {2, 64}, {10, 64}, gpu)});
  runtime::QAddAttrs qa;
  qa.multA = qa.multB = 1 << 30, qa.shift = 9;
  p.push_back({"qadd", *qaddPlan(qa, {1, 8, 5, 5}, gpu)});
  runtime::AxisAttrs axis;
  axis.axis = 1;
  p.push_back({"quantize", *quantizePlan(axis, {1, 8, 5, 5}, {8}, support::DType::kInt8, gpu)});
  p.push_back({"dequantize", *dequantizePlan(axis, {1, 8, 5, 5}, support::DType::kUint8, {8}, true, gpu)});
  p.push_back({"transpose", *transposePlan(runtime::PermAttrs{{0, 2, 3, 1}}, {1, 8, 5, 5}, support::DType::kInt8, gpu)});
  return p;
}

TEST(PtxTest, EveryKindOfLoopKernelAssemblesWithPtxas) {
  struct stat st;
  if (::stat(kPtxas.c_str(), &st) != 0) GTEST_SKIP() << kPtxas << " is not on this machine: PTX is not assembled";
  const bool libdevice = !libdevicePath().empty();
  const std::string dir = testing::tempDir() + "/ptx";
  ::mkdir(dir.c_str(), 0755);
  for (const auto& [name, plan] : plans()) {
    if (name == "pow" && !libdevice) {
      std::printf("no libdevice.10.bc: pow is not assembled\n");
      continue;
    }
    auto ptx = loopKernelPtx(plan.kernel, plan.schedule, "k_" + name, "sm_80", name);
    ASSERT_TRUE(ptx.isOk()) << ptx.status().str();
    EXPECT_NE(ptx->find(".entry k_" + name + "_s0_gpu("), std::string::npos) << name;
    EXPECT_EQ(ptx->find(".extern .func"), std::string::npos) << name << ": a function is left to resolve";
    const std::string file = dir + "/" + name + ".ptx";
    std::ofstream(file) << *ptx;
    const std::string log = dir + "/" + name + ".log";
    const int rc = std::system((kPtxas + " -arch=sm_80 '" + file + "' -o '" + dir + "/" + name + ".cubin' > '" + log +
                                "' 2>&1").c_str());
    EXPECT_EQ(rc, 0) << name << ": " << testing::readFile(log);
  }
}

}  // namespace
}  // namespace accelc::compiler::host
