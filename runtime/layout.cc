// runtime/layout.cc — packing to and from the blocked activation layout.
#include "runtime/layout.h"

#include <algorithm>

namespace accelc::runtime {

std::vector<uint8_t> packBlocked(const Tensor& t, const BlockedLayout& l) {
  std::vector<uint8_t> out(static_cast<size_t>(l.bytes()), static_cast<uint8_t>(l.fill));
  const int8_t* src = t.data<int8_t>();
  for (int64_t n = 0; n < l.n; ++n)
    for (int64_t c = 0; c < l.c; ++c)
      for (int64_t h = 0; h < l.h; ++h) {  // one image row: consecutive entries, one lane each
        uint8_t* row = out.data() + l.entry(n, l.top + h, c / l.block, l.left) * l.block + c % l.block;
        const int8_t* from = src + ((n * l.c + c) * l.h + h) * l.w;
        for (int64_t w = 0; w < l.w; ++w) row[w * l.block] = static_cast<uint8_t>(from[w]);
      }
  return out;
}

Tensor unpackBlocked(const uint8_t* data, const BlockedLayout& l) {
  Tensor t(support::DType::kInt8, {l.n, l.c, l.h, l.w});
  int8_t* dst = t.data<int8_t>();
  for (int64_t n = 0; n < l.n; ++n)
    for (int64_t c = 0; c < l.c; ++c)
      for (int64_t h = 0; h < l.h; ++h) {
        const uint8_t* row = data + l.entry(n, l.top + h, c / l.block, l.left) * l.block + c % l.block;
        int8_t* to = dst + ((n * l.c + c) * l.h + h) * l.w;
        for (int64_t w = 0; w < l.w; ++w) to[w] = static_cast<int8_t>(row[w * l.block]);
      }
  return t;
}

}  // namespace accelc::runtime
