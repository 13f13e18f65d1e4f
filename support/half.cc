// support/half.cc — float16 conversions through Imath.
#include "support/half.h"

#include <Imath/half.h>

namespace accelc::support {

float halfToFloat(uint16_t bits) { return imath_half_to_float(bits); }

uint16_t floatToHalf(float f) { return imath_float_to_half(f); }

}  // namespace accelc::support
