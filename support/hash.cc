// support/hash.cc — hex formatting for hashes.
#include "support/hash.h"

#include <cstdio>

namespace accelc::support {

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace accelc::support
