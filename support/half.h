// support/half.h — IEEE 754 binary16 (float16) values, stored as their bits.
//
// float16 tensors keep their 16-bit patterns; arithmetic on them happens in
// float32 (runtime/ops.cc converts around every kernel), so only these two
// conversions exist. Both come from Imath (OpenEXR's half): float to half
// rounds to nearest even, overflow gives infinity, NaN stays NaN.
#ifndef ACCELC_SUPPORT_HALF_H_
#define ACCELC_SUPPORT_HALF_H_

#include <cstdint>

namespace accelc::support {

/// The float value of float16 bits (exact).
float halfToFloat(uint16_t bits);
/// The float16 bits nearest to `f` (ties to even).
uint16_t floatToHalf(float f);

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_HALF_H_
