// support/npy.h — reading and writing NumPy .npy files (format 1.0/2.0, C order).
#ifndef ACCELC_SUPPORT_NPY_H_
#define ACCELC_SUPPORT_NPY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "support/dtype.h"
#include "support/status.h"

namespace accelc::support {

/// A tensor as stored in a .npy file: raw little-endian bytes in C order.
struct NpyArray {
  DType dtype = DType::kInt8;   ///< element type
  std::vector<int64_t> shape;   ///< dimensions, outermost first
  std::vector<uint8_t> data;    ///< shapeElements(shape) * dtypeBytes(dtype) bytes
};

/// Reads `path`; errors name the file and what was malformed.
Expected<NpyArray> readNpy(const std::string& path);
/// Parses the bytes of a whole .npy file named `path`: the header by its
/// grammar (known keys only), the data by its exact length.
Expected<NpyArray> parseNpy(const std::vector<uint8_t>& file, const std::string& path);
/// Writes `a` as a version 1.0 .npy file.
Status writeNpy(const std::string& path, const NpyArray& a);
/// The file a tensor named `name` is written to: NAME.npy, every character
/// but letters, digits, '_', '-' and '.' replaced by '_' (names such as
/// "/fc/Gemm:0" make no path).
std::string npyFileName(const std::string& name);

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_NPY_H_
