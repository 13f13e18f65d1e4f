// support/check.cc — the abort path of ACCELC_CHECK.
#include "support/check.h"

#include <cstdio>
#include <cstdlib>

namespace accelc::support {

CheckFailure::CheckFailure(const char* file, int line, const char* cond) {
  msg_ << file << ":" << line << ": internal error: check failed: " << cond << ": ";
}

CheckFailure::~CheckFailure() {
  std::fprintf(stderr, "%s\n", msg_.str().c_str());
  std::abort();
}

}  // namespace accelc::support
