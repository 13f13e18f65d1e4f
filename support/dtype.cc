// support/dtype.cc — dtype names, sizes and shapes.
#include "support/dtype.h"

namespace accelc::support {

const char* dtypeName(DType t) {
  switch (t) {
#define ACCELC_DTYPE_NAME(e, n, b, d) \
  case DType::e:                      \
    return n;
    ACCELC_DTYPES(ACCELC_DTYPE_NAME)
#undef ACCELC_DTYPE_NAME
  }
  return "?";
}

int dtypeBytes(DType t) {
  switch (t) {
#define ACCELC_DTYPE_BYTES(e, n, b, d) \
  case DType::e:                       \
    return b;
    ACCELC_DTYPES(ACCELC_DTYPE_BYTES)
#undef ACCELC_DTYPE_BYTES
  }
  return 0;
}

const char* dtypeNpyDescr(DType t) {
  switch (t) {
#define ACCELC_DTYPE_DESCR(e, n, b, d) \
  case DType::e:                       \
    return d;
    ACCELC_DTYPES(ACCELC_DTYPE_DESCR)
#undef ACCELC_DTYPE_DESCR
  }
  return "?";
}

std::optional<DType> parseDType(const std::string& name) {
#define ACCELC_DTYPE_PARSE(e, n, b, d) \
  if (name == n) return DType::e;
  ACCELC_DTYPES(ACCELC_DTYPE_PARSE)
#undef ACCELC_DTYPE_PARSE
  return std::nullopt;
}

std::string dtypeNames() {
  std::string s;
#define ACCELC_DTYPE_LIST(e, n, b, d) s += std::string(s.empty() ? "" : ", ") + n;
  ACCELC_DTYPES(ACCELC_DTYPE_LIST)
#undef ACCELC_DTYPE_LIST
  return s;
}

int64_t shapeElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::optional<int64_t> checkedShapeElements(const std::vector<int64_t>& shape) {
  int64_t strides = 1;  // the product of max(d, 1): the largest stride and more
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0 || (d > 0 && strides > (int64_t{1} << 40) / d)) return std::nullopt;
    if (d == 0) empty = true;
    else strides *= d;
  }
  return empty ? 0 : strides;
}

std::string shapeStr(const std::vector<int64_t>& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s.empty() ? "scalar" : s;
}

std::optional<std::vector<int64_t>> parseShape(const std::string& text) {
  if (text == "scalar") return std::vector<int64_t>{};
  std::vector<int64_t> shape;
  size_t i = 0;
  while (i <= text.size()) {
    size_t j = text.find('x', i);
    if (j == std::string::npos) j = text.size();
    std::string part = text.substr(i, j - i);
    if (part.empty() || part.size() > 12 || part.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;  // at most 12 digits: no dimension overflows
    int64_t d = std::stoll(part);
    if (d <= 0) return std::nullopt;
    shape.push_back(d);
    i = j + 1;
  }
  if (!checkedShapeElements(shape)) return std::nullopt;
  return shape;
}

}  // namespace accelc::support
