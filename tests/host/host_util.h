// tests/host/host_util.h — bundles of host steps for the host-code tests,
// their inputs, and one run of them on the executor.
#ifndef ACCELC_TESTS_HOST_HOST_UTIL_H_
#define ACCELC_TESTS_HOST_HOST_UTIL_H_

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "runtime/executor.h"
#include "runtime/fsim_device.h"
#include "tests/test_util.h"

namespace accelc::testing {

/// One slot of a host-only bundle.
struct HostSlot {
  std::string name;
  runtime::Shape shape;
  support::DType type = support::DType::kFloat32;
};

inline runtime::Step hostStep(const std::string& name, runtime::OpKind op, runtime::Attrs attrs, std::vector<int> in,
                              std::vector<int> out) {
  return runtime::Step{runtime::Step::Kind::kHost, name, -1, op, std::move(attrs), std::move(in), std::move(out)};
}

/// A bundle for `t` of host steps only over `slots` (each in a 4 KiB-aligned region of its own).
inline runtime::Bundle hostOnlyBundle(const isa::Target& t, const std::vector<HostSlot>& slots, std::vector<int> inputs,
                                      std::vector<int> outputs, std::vector<runtime::Step> steps) {
  runtime::Bundle b;
  b.hash = t.hash, b.hwspecYaml = t.spec.canonicalYaml(), b.isaYaml = t.isa.yamlText;
  for (const HostSlot& h : slots) {
    runtime::TensorSlot s;
    s.name = h.name, s.shape = h.shape, s.dtype = h.type, s.addr = b.window;
    b.window += (s.bytes() + 4095) / 4096 * 4096;
    b.tensors.push_back(s);
  }
  b.inputs = std::move(inputs), b.outputs = std::move(outputs), b.steps = std::move(steps);
  return b;
}

/// Host steps y = Conv(x, w, bias) (3x3, pads 1), r = Relu(y), o = Add(r, skip), and with `pool` p = MaxPool(o) (2x2, stride 2).
inline runtime::Bundle convBundle(const isa::Target& t, bool pool) {
  using runtime::OpKind;
  std::vector<HostSlot> slots = {{"x", {1, 6, 9, 9}}, {"w", {8, 6, 3, 3}}, {"bias", {8}}, {"skip", {1, 8, 9, 9}},
                                 {"y", {1, 8, 9, 9}}, {"r", {1, 8, 9, 9}}, {"o", {1, 8, 9, 9}}};
  runtime::ConvAttrs conv;
  conv.pads = {1, 1, 1, 1};
  std::vector<runtime::Step> steps = {hostStep("/conv", OpKind::kConv, conv, {0, 1, 2}, {4}),
                                      hostStep("/relu", OpKind::kRelu, runtime::NoAttrs{}, {4}, {5}),
                                      hostStep("/add", OpKind::kAdd, runtime::NoAttrs{}, {5, 3}, {6})};
  if (pool) {
    runtime::PoolAttrs p;
    p.kernelShape = {2, 2}, p.strides = {2, 2};
    slots.push_back({"p", {1, 8, 4, 4}});
    steps.push_back(hostStep("/pool", OpKind::kMaxPool, p, {6}, {7}));
  }
  return hostOnlyBundle(t, slots, {0, 1, 2, 3}, {pool ? 7 : 6}, steps);
}

/// Random float32 values in [lo, hi) for every input of `b`.
inline std::vector<runtime::Tensor> randomInputs(const runtime::Bundle& b, uint32_t seed, float lo, float hi) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<runtime::Tensor> in;
  for (int id : b.inputs) {
    runtime::Tensor x(support::DType::kFloat32, b.tensors[static_cast<size_t>(id)].shape);
    for (int64_t k = 0; k < x.numel(); ++k) x.data<float>()[k] = d(g);
    in.push_back(std::move(x));
  }
  return in;
}

/// One run's outputs and what ran each step.
struct HostRun {
  std::vector<runtime::Tensor> outputs;
  runtime::RunStats stats;
};

/// One run of `b` on an fsim device, host steps on `kernels` (the others on reference kernels).
inline HostRun runOnce(const runtime::Bundle& b, const isa::Target& t, runtime::HostKernels kernels,
                       const std::vector<runtime::Tensor>& in) {
  runtime::FsimDevice d(t);
  auto e = runtime::Executor::create(b, d, "host.acx", std::move(kernels));
  EXPECT_TRUE(e.isOk()) << e.status().str();
  if (!e) return {};
  auto out = (*e)->run(in);
  EXPECT_TRUE(out.isOk()) << out.status().str();
  if (!out) return {};
  return {std::move(*out), (*e)->stats()};
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_HOST_HOST_UTIL_H_
