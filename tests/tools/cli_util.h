// tests/tools/cli_util.h — running the accelc binary from a test.
#ifndef ACCELC_TESTS_TOOLS_CLI_UTIL_H_
#define ACCELC_TESTS_TOOLS_CLI_UTIL_H_

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include "tests/test_util.h"

namespace accelc {

struct Result {
  int rc = 0;
  std::string out;  ///< stdout and stderr
};

inline Result sh(const std::string& args) {
  std::string cmd = std::string(ACCELC_BINARY) + " " + args + " 2>&1";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline const std::string kSrc = testing::sourceDir(), kTmp = testing::tempDir();

}  // namespace accelc

#endif  // ACCELC_TESTS_TOOLS_CLI_UTIL_H_
