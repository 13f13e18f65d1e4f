// runtime/internal/broadcast.h — walking numpy-broadcast operands of the elementwise kernels.
#ifndef ACCELC_RUNTIME_INTERNAL_BROADCAST_H_
#define ACCELC_RUNTIME_INTERNAL_BROADCAST_H_

#include <array>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

/// Strides of `in` seen from `out` under numpy broadcasting (0 where broadcast).
inline Shape broadcastStrides(const Shape& in, const Shape& out) {
  Shape s(out.size(), 0), own = stridesOf(in);
  const size_t off = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) s[off + i] = in[i] == 1 ? 0 : own[i];
  return s;
}

/// Calls f(o, a, b) for every output index o with the input indices it reads.
template <typename F>
void forEachBroadcast(const Shape& out, const Shape& sa, const Shape& sb, F f) {
  const size_t r = out.size();
  const int64_t n = support::shapeElements(out);
  if (r == 0) {
    if (n) f(0, 0, 0);
    return;
  }
  const int64_t inner = out[r - 1], ia = sa[r - 1], ib = sb[r - 1];
  Shape idx(r, 0);
  int64_t a = 0, b = 0;
  for (int64_t o = 0; o < n; o += inner) {
    for (int64_t k = 0; k < inner; ++k) f(o + k, a + k * ia, b + k * ib);
    for (int64_t d = static_cast<int64_t>(r) - 2; d >= 0; --d) {  // odometer over the outer dims
      a += sa[d], b += sb[d];
      if (++idx[d] < out[d]) break;
      a -= sa[d] * out[d], b -= sb[d] * out[d];
      idx[d] = 0;
    }
  }
}

/// Calls f(o, idx) for every output index o, idx[k] the index operand k reads;
/// st[k] are the operands' broadcast strides (broadcastStrides).
template <size_t N, typename F>
void forEachBroadcastN(const Shape& out, const std::array<Shape, N>& st, F f) {
  const int64_t n = support::shapeElements(out);
  const size_t r = out.size();
  Shape pos(r, 0);
  std::array<int64_t, N> idx{};
  for (int64_t o = 0; o < n; ++o) {
    f(o, idx);
    for (int64_t d = static_cast<int64_t>(r) - 1; d >= 0; --d) {  // odometer, innermost first
      for (size_t k = 0; k < N; ++k) idx[k] += st[k][d];
      if (++pos[d] < out[d]) break;
      for (size_t k = 0; k < N; ++k) idx[k] -= st[k][d] * out[d];
      pos[d] = 0;
    }
  }
}

}  // namespace accelc::runtime::kernels

#endif  // ACCELC_RUNTIME_INTERNAL_BROADCAST_H_
