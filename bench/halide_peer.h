// bench/halide_peer.h — Halide 14 (Debian's libhalide14-0-dev) as a peer of
// the generated host kernels: the same convolutions and matrix products
// written as Halide pipelines, scheduled by the Adams2019 autoscheduler (the
// one a user would otherwise pick) and compiled by Halide's JIT for this CPU.
// Kept in its own file: only the kernels bench includes Halide.h.
#ifndef ACCELC_BENCH_HALIDE_PEER_H_
#define ACCELC_BENCH_HALIDE_PEER_H_

#include <cstdint>

#include "runtime/tensor.h"

namespace accelc::bench {

/// y = conv(x, w) + b for NCHW x of one image, OIHW w (square kernel, padding k/2, `group` groups):
/// the median ms of 20 runs after a warm-up, or a negative value when Halide fails (its message on stderr).
double halideConv(const runtime::Tensor& x, const runtime::Tensor& w, const runtime::Tensor& b, int64_t stride,
                  int64_t group, int threads, runtime::Tensor& y);
/// y = A · B for A [m, k] and B [k, n], likewise.
double halideMatmul(const runtime::Tensor& a, const runtime::Tensor& b, int threads, runtime::Tensor& y);

}  // namespace accelc::bench

#endif  // ACCELC_BENCH_HALIDE_PEER_H_
