// runtime/tensor.cc — element access by index for any dtype.
#include "runtime/tensor.h"

#include "support/half.h"

namespace accelc::runtime {

double Tensor::at(int64_t i) const {
  switch (dtype_) {
    case DType::kFloat32:
      return reinterpret_cast<const float*>(bytes_.data())[i];
    case DType::kInt8:
      return reinterpret_cast<const int8_t*>(bytes_.data())[i];
    case DType::kUint8:
    case DType::kBool:
      return bytes_[i];
    case DType::kInt32:
      return reinterpret_cast<const int32_t*>(bytes_.data())[i];
    case DType::kInt64:
      return static_cast<double>(reinterpret_cast<const int64_t*>(bytes_.data())[i]);
    case DType::kFloat64:
      return reinterpret_cast<const double*>(bytes_.data())[i];
    case DType::kFloat16:
      return support::halfToFloat(reinterpret_cast<const uint16_t*>(bytes_.data())[i]);
    case DType::kInt16:
      return reinterpret_cast<const int16_t*>(bytes_.data())[i];
    case DType::kUint16:
      return reinterpret_cast<const uint16_t*>(bytes_.data())[i];
  }
  return 0;
}

int64_t Tensor::intAt(int64_t i) const {
  if (dtype_ == DType::kInt64) return reinterpret_cast<const int64_t*>(bytes_.data())[i];
  if (dtype_ == DType::kInt32) return reinterpret_cast<const int32_t*>(bytes_.data())[i];
  return static_cast<int64_t>(at(i));
}

}  // namespace accelc::runtime
