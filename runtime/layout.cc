// runtime/layout.cc — packing to and from the blocked activation layout.
#include "runtime/layout.h"

#include <algorithm>
#include <cstring>

namespace accelc::runtime {

namespace {

/// The leading dimensions' product and the last two of `s` (rank at least 2).
struct Matrices {
  int64_t count = 1, rows = 1, cols = 1;
  explicit Matrices(const Shape& s) : rows(s[s.size() - 2]), cols(s.back()) {
    for (size_t i = 0; i + 2 < s.size(); ++i) count *= s[i];
  }
};

}  // namespace

std::optional<Shape> blockedShape(const Shape& shape, BlockedForm f, int64_t block) {
  switch (f) {
    case BlockedForm::kImage:
      return shape.size() == 4 ? std::optional<Shape>(shape) : std::nullopt;
    case BlockedForm::kRows:
    case BlockedForm::kWeights: {
      if (shape.size() < 2 || block <= 0) return std::nullopt;
      const Matrices m(shape);
      if (f == BlockedForm::kRows) return Shape{m.count, m.cols, 1, m.rows};
      return Shape{m.count, m.rows, (m.cols + block - 1) / block, block};
    }
  }
  return std::nullopt;
}

Tensor toBlockedShape(const Tensor& t, const Shape& shape, BlockedForm f, int64_t block) {
  if (f == BlockedForm::kImage) return t;
  const Matrices m(shape);
  Tensor out(support::DType::kInt8, *blockedShape(shape, f, block));  // zero: kWeights' columns past N
  const int8_t* src = t.data<int8_t>();
  int8_t* dst = out.data<int8_t>();
  const int64_t stride = f == BlockedForm::kRows ? m.rows : out.shape()[2] * block;
  for (int64_t b = 0; b < m.count; ++b) {
    const int8_t* from = src + b * m.rows * m.cols;
    if (f == BlockedForm::kRows) {  // [M, K] -> [K, M]
      for (int64_t r = 0; r < m.rows; ++r)
        for (int64_t c = 0; c < m.cols; ++c) dst[(b * m.cols + c) * stride + r] = from[r * m.cols + c];
    } else {  // [K, N] -> [K, N rounded up to blocks]
      for (int64_t r = 0; r < m.rows && m.cols; ++r)
        std::memcpy(dst + (b * m.rows + r) * stride, from + r * m.cols, m.cols);
    }
  }
  return out;
}

Tensor fromBlockedShape(const Tensor& nchw, BlockedForm f, const Shape& shape) {
  if (f == BlockedForm::kImage) return nchw;
  const Matrices m(shape);
  Tensor out(support::DType::kInt8, shape);
  const int8_t* src = nchw.data<int8_t>();
  int8_t* dst = out.data<int8_t>();
  const int64_t stride = f == BlockedForm::kRows ? m.rows : nchw.shape()[2] * nchw.shape()[3];
  for (int64_t b = 0; b < m.count; ++b) {
    int8_t* to = dst + b * m.rows * m.cols;
    if (f == BlockedForm::kRows) {
      for (int64_t r = 0; r < m.rows; ++r)
        for (int64_t c = 0; c < m.cols; ++c) to[r * m.cols + c] = src[(b * m.cols + c) * stride + r];
    } else {
      for (int64_t r = 0; r < m.rows && m.cols; ++r) std::memcpy(to + r * m.cols, src + (b * m.rows + r) * stride, m.cols);
    }
  }
  return out;
}

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
