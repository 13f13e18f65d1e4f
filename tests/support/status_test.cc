// tests/support/status_test.cc — Status, Expected and diagnostic formatting.
#include "support/status.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace accelc::support {
namespace {

Expected<int> half(int v) {
  if (v % 2) return error(Location::file("x.yaml", 3, 7), "expected an even number, found " + std::to_string(v));
  return v / 2;
}

Expected<int> quarter(int v) {
  ACCELC_ASSIGN_OR_RETURN(int h, half(v));
  return half(h);
}

// A failed internal check hands its message to the program's handler, then aborts; the library prints nothing.
TEST(CheckDeathTest, AFailedCheckHandsItsMessageToTheHandlerAndAborts) {
  auto fails = [] {
    support::setCheckHandler([](const char* m) { std::fprintf(stderr, "handled: %s\n", m); });
    const int rows = 3;
    ACCELC_CHECK(rows == 4) << "rows " << rows;
  };
  EXPECT_DEATH(fails(), "handled: .*status_test.cc:[0-9]+: internal error: check failed: rows == 4: rows 3");
}

TEST(StatusTest, ExpectedCarriesValueOrDiagnostic) {
  EXPECT_EQ(*quarter(8), 2);
  Expected<int> bad = quarter(6);
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.diag().str(), "x.yaml:3:7: error: expected an even number, found 3");
}

TEST(StatusTest, LocationsPrintInTheirThreeForms) {
  EXPECT_EQ(Location::file("hw.yaml", 4, 2).str(), "hw.yaml:4:2");
  EXPECT_EQ(Location::node("model.onnx", "conv1").str(), "model.onnx:conv1");
  EXPECT_EQ(Location::pc("prog.bin", 42).str(), "prog.bin:pc 42");
  EXPECT_EQ(Location::file("f").str(), "f");
}

TEST(StatusTest, NotesFollowTheError) {
  Diagnostic d = error(Location::pc("p.bin", 3), "token deadlock");
  d.note(Location::pc("p.bin", 1), "load unit blocked");
  d.note(Location(), "store unit is idle");
  EXPECT_EQ(d.str(), "p.bin:pc 3: error: token deadlock\np.bin:pc 1: note: load unit blocked\nnote: store unit is idle");
}

TEST(StatusTest, TryPropagatesTheFirstError) {
  auto f = [](bool fail) -> Status {
    ACCELC_TRY(fail ? Status(error(Location(), "first")) : Status::ok());
    return error(Location(), "second");
  };
  EXPECT_EQ(f(true).diag().message, "first");
  EXPECT_EQ(f(false).diag().message, "second");
}

}  // namespace
}  // namespace accelc::support
