// support/check.h — ACCELC_CHECK / ACCELC_UNREACHABLE for internal invariants.
//
// These abort: they are for bugs in accelc, never for bad user input (use
// Status for that). The message streams like an ostream. Before aborting, a
// failed check hands its message to the program's handler (setCheckHandler):
// the library itself prints nothing, the tools' mains print it.
#ifndef ACCELC_SUPPORT_CHECK_H_
#define ACCELC_SUPPORT_CHECK_H_

#include <sstream>
#include <string>

namespace accelc::support {

/// Receives a failed check's message ("file:line: internal error: check failed: cond: ...") just before
/// the process aborts.
using CheckHandler = void (*)(const char* message);
/// Installs the handler of every later failed check (null: none, the abort alone).
void setCheckHandler(CheckHandler handler);

/// Collects a failure message and, when destroyed, hands it to the check handler and aborts.
class CheckFailure {
 public:
  CheckFailure(const char* file, int line, const char* cond);
  [[noreturn]] ~CheckFailure();
  template <typename T>
  CheckFailure& operator<<(const T& v) {
    msg_ << v;
    return *this;
  }

 private:
  std::ostringstream msg_;  ///< "file:line: check failed: cond: ..." text
};

/// Lets `cond ? (void)0 : Voidify() & CheckFailure(...) << ...` type-check.
struct Voidify {
  void operator&(const CheckFailure&) {}
};

}  // namespace accelc::support

#define ACCELC_CHECK(cond)               \
  (cond) ? (void)0                       \
         : ::accelc::support::Voidify() & \
               ::accelc::support::CheckFailure(__FILE__, __LINE__, #cond)

#define ACCELC_UNREACHABLE() \
  ::accelc::support::Voidify() & ::accelc::support::CheckFailure(__FILE__, __LINE__, "unreachable")

#endif  // ACCELC_SUPPORT_CHECK_H_
