// tests/check_handler.cc — linked into every test binary: a failed internal
// check (support/check.h) prints its message before the abort, as the tools do.
#include <cstdio>

#include "support/check.h"

namespace {

[[maybe_unused]] const bool kInstalled =
    (accelc::support::setCheckHandler([](const char* m) { std::fprintf(stderr, "%s\n", m); }), true);

}  // namespace
