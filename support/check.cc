// support/check.cc — the abort path of ACCELC_CHECK.
#include "support/check.h"

#include <atomic>
#include <cstdlib>

namespace accelc::support {

namespace {
std::atomic<CheckHandler> handler{nullptr};  // any thread's check may fail
}  // namespace

void setCheckHandler(CheckHandler h) { handler.store(h); }

CheckFailure::CheckFailure(const char* file, int line, const char* cond) {
  msg_ << file << ":" << line << ": internal error: check failed: " << cond << ": ";
}

CheckFailure::~CheckFailure() {
  if (const CheckHandler h = handler.load()) h(msg_.str().c_str());
  std::abort();
}

}  // namespace accelc::support
