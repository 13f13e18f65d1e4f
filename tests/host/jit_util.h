// tests/host/jit_util.h — the JITs the host-kernel tests run every kernel on.
#ifndef ACCELC_TESTS_HOST_JIT_UTIL_H_
#define ACCELC_TESTS_HOST_JIT_UTIL_H_

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "compiler/host/jit.h"

namespace accelc::testing {

/// AVX-512 off; on where the CPU has it, without AMX; and with AMX tiles
/// where the CPU has them too. Made once per test program.
inline std::vector<std::unique_ptr<compiler::host::HostJit>>& hostJits() {
  using compiler::host::HostJit;
  static std::vector<std::unique_ptr<HostJit>> all = [] {
    std::vector<std::unique_ptr<HostJit>> v;
    for (HostJit::Options o :
         {HostJit::Options{false, false}, HostJit::Options{true, false}, HostJit::Options{true, true}}) {
      auto jit = HostJit::create(o);
      EXPECT_TRUE(jit.isOk()) << jit.status().str();
      if (jit && (!o.avx512 || (*jit)->usesAvx512()) && (!o.amx || (*jit)->usesAmx())) v.push_back(std::move(*jit));
    }
    return v;
  }();
  return all;
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_HOST_JIT_UTIL_H_
