// support/dtype.h — the element types that tensors and DRAM symbols use.
#ifndef ACCELC_SUPPORT_DTYPE_H_
#define ACCELC_SUPPORT_DTYPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accelc::support {

// X(enumerator, name, bytes, npy descriptor). New dtypes go at the end: files
// (programs, bundles) store a dtype as its index here.
#define ACCELC_DTYPES(X)          \
  X(kInt8, "int8", 1, "|i1")      \
  X(kUint8, "uint8", 1, "|u1")    \
  X(kInt32, "int32", 4, "<i4")    \
  X(kInt64, "int64", 8, "<i8")    \
  X(kFloat32, "float32", 4, "<f4") \
  X(kBool, "bool", 1, "|b1")      \
  X(kFloat64, "float64", 8, "<f8") \
  X(kFloat16, "float16", 2, "<f2") \
  X(kInt16, "int16", 2, "<i2")    \
  X(kUint16, "uint16", 2, "<u2")

enum class DType {
#define ACCELC_DTYPE_ENUM(e, n, b, d) e,
  ACCELC_DTYPES(ACCELC_DTYPE_ENUM)
#undef ACCELC_DTYPE_ENUM
};

/// How many dtypes there are (a stored dtype index must be below it).
constexpr int kDTypeCount = 0
#define ACCELC_DTYPE_COUNT(e, n, b, d) +1
    ACCELC_DTYPES(ACCELC_DTYPE_COUNT)
#undef ACCELC_DTYPE_COUNT
    ;
/// Whether `t` is a floating-point dtype.
constexpr bool isFloatDType(DType t) { return t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kFloat16; }

/// "int8", "float32", ...
const char* dtypeName(DType t);
/// Bytes per element.
int dtypeBytes(DType t);
/// The numpy `descr` string ("|i1", "<f4", ...).
const char* dtypeNpyDescr(DType t);
/// Parses a name as dtypeName prints it.
std::optional<DType> parseDType(const std::string& name);
/// Every dtype name, comma separated (for "expected one of" messages).
std::string dtypeNames();

/// Number of elements of a shape (1 for a scalar).
int64_t shapeElements(const std::vector<int64_t>& shape);
/// Number of elements, or nullopt when a dimension is negative or the product
/// of the dimensions, each counted as at least 1, passes 2^40: an empty shape
/// is refused too when its nonzero dimensions are that large, so every
/// stride of a checked shape fits in 64 bits.
std::optional<int64_t> checkedShapeElements(const std::vector<int64_t>& shape);
/// "1x16x16".
std::string shapeStr(const std::vector<int64_t>& shape);
/// Parses "1x16x16"; nullopt when malformed.
std::optional<std::vector<int64_t>> parseShape(const std::string& text);

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_DTYPE_H_
