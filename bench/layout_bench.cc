// bench/layout_bench.cc — packing tensors into the accelerator's blocked
// layout and unpacking them, as the executor does around every accelerator
// step (runtime/layout.h), on the shapes where it costs most: the Im2col
// outputs of ResNet's and MobileNet-v2's first layers (147 and 27 channels,
// whose last channel block is partial), a network input of 3 channels, and a
// residual stage's 64 channels, in vta-default's blocks. One thread, hot
// caches: bytes per second of the plain tensor.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "hwspec/hwspec.h"
#include "runtime/layout.h"
#include "runtime/tensor.h"

namespace accelc {
namespace {

runtime::Tensor randomInt8(int64_t c, int64_t h, int64_t w) {
  runtime::Tensor t(support::DType::kInt8, {1, c, h, w});
  std::mt19937 g(7);
  for (uint8_t& b : t.bytes()) b = static_cast<uint8_t>(g());
  return t;
}

/// The layout the compiler gives an activation on vta-default: blocks of its GEMM reduction width.
runtime::BlockedLayout layoutOf(int64_t c, int64_t h, int64_t w) {
  static const int64_t block = [] {
    support::Expected<hwspec::HwSpec> spec = hwspec::loadHwSpec("vta-default");
    if (!spec) std::fprintf(stderr, "%s\n", spec.diag().str().c_str()), std::exit(1);
    return spec->blockIn;
  }();
  runtime::BlockedLayout l;
  l.c = c, l.h = h, l.w = w, l.block = block;
  return l;
}

void pack(benchmark::State& state) {
  const int64_t c = state.range(0), h = state.range(1);
  const runtime::Tensor t = randomInt8(c, h, h);
  const runtime::BlockedLayout l = layoutOf(c, h, h);
  std::vector<uint8_t> out(static_cast<size_t>(l.bytes()));
  for (auto _ : state) {
    runtime::packBlockedTo(t, l, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(t.bytes().size()));
}

void unpack(benchmark::State& state) {
  const int64_t c = state.range(0), h = state.range(1);
  const runtime::Tensor t = randomInt8(c, h, h);
  const runtime::BlockedLayout l = layoutOf(c, h, h);
  std::vector<uint8_t> packed(static_cast<size_t>(l.bytes()));
  runtime::packBlockedTo(t, l, packed.data());
  runtime::Tensor back;
  for (auto _ : state) {
    back = runtime::unpackBlocked(packed.data(), l, std::move(back));
    benchmark::DoNotOptimize(back.bytes().data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(t.bytes().size()));
}

void shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"c", "hw"})
      ->Args({147, 112})
      ->Args({27, 112})
      ->Args({3, 224})
      ->Args({64, 56})
      ->Unit(benchmark::kMicrosecond);
}

BENCHMARK(pack)->Apply(shapes);
BENCHMARK(unpack)->Apply(shapes);

}  // namespace
}  // namespace accelc

BENCHMARK_MAIN();
