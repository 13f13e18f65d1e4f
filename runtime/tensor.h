// runtime/tensor.h — a dense host tensor: dtype, shape, bytes, quantization.
//
// Tensors are values (copyable, movable); elements are stored row-major
// (C order), little-endian, with no padding. Kernels read them through
// data<T>() with T matching the dtype (checked).
#ifndef ACCELC_RUNTIME_TENSOR_H_
#define ACCELC_RUNTIME_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/check.h"
#include "support/dtype.h"

namespace accelc::runtime {

using support::DType;
using Shape = std::vector<int64_t>;

/// The C++ element type of each dtype (bool is stored as one byte 0/1,
/// float16 as its bits in a uint16_t: see support/half.h).
template <typename T>
constexpr DType dtypeOf();
template <> constexpr DType dtypeOf<float>() { return DType::kFloat32; }
template <> constexpr DType dtypeOf<int8_t>() { return DType::kInt8; }
template <> constexpr DType dtypeOf<uint8_t>() { return DType::kUint8; }
template <> constexpr DType dtypeOf<int32_t>() { return DType::kInt32; }
template <> constexpr DType dtypeOf<int64_t>() { return DType::kInt64; }
template <> constexpr DType dtypeOf<double>() { return DType::kFloat64; }
template <> constexpr DType dtypeOf<int16_t>() { return DType::kInt16; }
template <> constexpr DType dtypeOf<uint16_t>() { return DType::kUint16; }

/// Quantization parameters: per tensor (one scale) or per axis.
struct QuantParams {
  std::vector<float> scale;        ///< one per tensor, or one per slice of `axis`
  std::vector<int32_t> zeroPoint;  ///< same length as scale
  int64_t axis = -1;               ///< -1 when per tensor
  DType dtype = DType::kInt8;      ///< the integer type the parameters are for
  bool empty() const { return scale.empty(); }
  bool operator==(const QuantParams& o) const {
    return scale == o.scale && zeroPoint == o.zeroPoint && axis == o.axis && dtype == o.dtype;
  }
  bool operator!=(const QuantParams& o) const { return !(*this == o); }
};

/// A dense tensor.
class Tensor {
 public:
  Tensor() = default;
  Tensor(DType t, Shape shape) : dtype_(t), shape_(std::move(shape)), bytes_(byteSize(t, shape_), 0) {}

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[i < 0 ? i + rank() : i]; }
  int64_t numel() const { return support::shapeElements(shape_); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t>& bytes() { return bytes_; }
  /// Changes the shape, keeping the bytes (element counts must agree).
  void reshape(Shape s) {
    ACCELC_CHECK(support::shapeElements(s) == numel()) << "reshape changes the element count";
    shape_ = std::move(s);
  }

  /// Typed elements; T must be the dtype's C++ type (uint8_t for bool,
  /// uint16_t for float16's bits).
  template <typename T>
  T* data() {
    checkType<T>();
    return reinterpret_cast<T*>(bytes_.data());
  }
  template <typename T>
  const T* data() const {
    checkType<T>();
    return reinterpret_cast<const T*>(bytes_.data());
  }
  /// Element i converted to double (any dtype).
  double at(int64_t i) const;
  /// Element i of an integer tensor as int64.
  int64_t intAt(int64_t i) const;

  /// A tensor filled from a list of values.
  template <typename T>
  static Tensor of(Shape shape, const std::vector<T>& values) {
    Tensor t(dtypeOf<T>(), std::move(shape));
    ACCELC_CHECK(static_cast<int64_t>(values.size()) == t.numel()) << "value count";
    if (!values.empty()) std::memcpy(t.bytes_.data(), values.data(), t.bytes_.size());
    return t;
  }

  QuantParams quant;  ///< quantization parameters, when the tensor is quantized

  bool operator==(const Tensor& o) const {
    return dtype_ == o.dtype_ && shape_ == o.shape_ && bytes_ == o.bytes_ && quant == o.quant;
  }

 private:
  template <typename T>
  void checkType() const {
    ACCELC_CHECK(dtypeOf<T>() == dtype_ || (dtype_ == DType::kBool && dtypeOf<T>() == DType::kUint8) ||
                 (dtype_ == DType::kFloat16 && dtypeOf<T>() == DType::kUint16))
        << "tensor is " << support::dtypeName(dtype_);
  }
  static size_t byteSize(DType t, const Shape& s) {
    return static_cast<size_t>(support::shapeElements(s) * support::dtypeBytes(t));
  }
  DType dtype_ = DType::kFloat32;  ///< element type
  Shape shape_{0};                 ///< dimensions, outermost first (default: empty)
  std::vector<uint8_t> bytes_;     ///< numel * element size bytes
};

/// Calls fn(T{}) with T the C++ type of `t` (bool as uint8_t, float16 as
/// uint16_t bits: kernels that compute never see float16, which runOp
/// converts to float32 around them; those that move bytes move its bits).
template <typename Fn>
auto visitDType(DType t, Fn&& fn) {
  switch (t) {
    case DType::kFloat32:
      return fn(float{});
    case DType::kInt8:
      return fn(int8_t{});
    case DType::kUint8:
    case DType::kBool:
      return fn(uint8_t{});
    case DType::kInt32:
      return fn(int32_t{});
    case DType::kInt64:
      return fn(int64_t{});
    case DType::kFloat64:
      return fn(double{});
    case DType::kInt16:
      return fn(int16_t{});
    case DType::kUint16:
    case DType::kFloat16:
      return fn(uint16_t{});
  }
  return fn(float{});
}

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_TENSOR_H_
