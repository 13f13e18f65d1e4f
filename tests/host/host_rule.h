// tests/host/host_rule.h — the rule a float output of generated host code is
// held to against its reference: |a - b| <= 1e-5 · Σ|terms| + 4 ULP · |b|,
// where Σ|terms| is the sum of the absolute products or terms that make the
// output (a relative error is undefined near zero).
#ifndef ACCELC_TESTS_HOST_HOST_RULE_H_
#define ACCELC_TESTS_HOST_HOST_RULE_H_

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "runtime/tensor.h"

namespace accelc::testing {

/// Whether `a` is within the rule of the reference `b`, given Σ|terms|.
inline bool withinHostRule(float a, float b, double terms) {
  const float ulp = std::nextafter(std::fabs(b), std::numeric_limits<float>::infinity()) - std::fabs(b);
  if (std::isnan(b)) return std::isnan(a);
  if (std::isinf(b)) return a == b;
  return std::fabs(static_cast<double>(a) - b) <= 1e-5 * terms + 4.0 * ulp;
}

/// Counts the outputs outside the rule, Σ|terms| element by element from
/// `terms`; the first few are reported.
inline void expectClose(const runtime::Tensor& got, const runtime::Tensor& want, const runtime::Tensor& terms,
                        const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_EQ(terms.numel(), want.numel()) << what;
  int bad = 0;
  for (int64_t i = 0; i < want.numel(); ++i) {
    const float a = got.data<float>()[i], b = want.data<float>()[i];
    if (!withinHostRule(a, b, terms.data<float>()[i]) && bad++ < 3)
      ADD_FAILURE() << what << ": element " << i << " is " << a << ", the reference " << b << " (Σ|terms| "
                    << terms.data<float>()[i] << ")";
  }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << want.numel() << " outside the rule";
}

}  // namespace accelc::testing

#endif  // ACCELC_TESTS_HOST_HOST_RULE_H_
