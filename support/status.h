// support/status.h — Status and Expected<T>: how bad user input travels.
//
// A library never prints or exits on user input: it returns a Status (or an
// Expected<T>) that carries one located Diagnostic. Internal bugs use
// ACCELC_CHECK (support/check.h) instead; the two channels never mix.
#ifndef ACCELC_SUPPORT_STATUS_H_
#define ACCELC_SUPPORT_STATUS_H_

#include <optional>
#include <utility>
#include <variant>

#include "support/check.h"
#include "support/diagnostic.h"

namespace accelc::support {

/// Success, or one Diagnostic describing why an operation failed.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Diagnostic diag) : diag_(std::move(diag)) {}  // NOLINT: implicit by design

  static Status ok() { return Status(); }
  bool isOk() const { return !diag_.has_value(); }
  explicit operator bool() const { return isOk(); }
  /// The diagnostic; only valid when !isOk().
  const Diagnostic& diag() const {
    ACCELC_CHECK(diag_.has_value()) << "diag() on an ok Status";
    return *diag_;
  }
  /// "LOCATION: error: message" plus notes.
  std::string str() const { return diag_ ? diag_->str() : "ok"; }

 private:
  std::optional<Diagnostic> diag_;  ///< empty when ok
};

/// A T, or the Diagnostic that explains why there is none.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}                // NOLINT
  Expected(Diagnostic diag) : v_(std::move(diag)) {}         // NOLINT
  Expected(Status status) : v_(status.diag()) {}             // NOLINT: must be an error

  bool isOk() const { return v_.index() == 0; }
  explicit operator bool() const { return isOk(); }
  T& value() & {
    ACCELC_CHECK(isOk()) << "value() on an error: " << diag().str();
    return std::get<0>(v_);
  }
  const T& value() const& {
    ACCELC_CHECK(isOk()) << "value() on an error: " << diag().str();
    return std::get<0>(v_);
  }
  T&& value() && {
    ACCELC_CHECK(isOk()) << "value() on an error: " << diag().str();
    return std::get<0>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  /// The error; only valid when !isOk().
  const Diagnostic& diag() const {
    ACCELC_CHECK(!isOk()) << "diag() on an Expected that holds a value";
    return std::get<1>(v_);
  }
  Status status() const { return isOk() ? Status() : Status(diag()); }

 private:
  std::variant<T, Diagnostic> v_;  ///< the value or the error
};

}  // namespace accelc::support

/// Returns the Status of `expr` from the enclosing function when it failed.
#define ACCELC_TRY(expr)                                   \
  do {                                                     \
    ::accelc::support::Status accelc_try_s_ = (expr);      \
    if (!accelc_try_s_.isOk()) return accelc_try_s_.diag(); \
  } while (0)

#define ACCELC_CONCAT_INNER_(a, b) a##b
#define ACCELC_CONCAT_(a, b) ACCELC_CONCAT_INNER_(a, b)
#define ACCELC_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.isOk()) return tmp.diag();                 \
  lhs = std::move(tmp).value()

/// `ACCELC_ASSIGN_OR_RETURN(auto x, f());` unwraps an Expected or returns its error.
#define ACCELC_ASSIGN_OR_RETURN(lhs, expr) \
  ACCELC_ASSIGN_OR_RETURN_IMPL_(ACCELC_CONCAT_(accelc_aor_, __LINE__), lhs, expr)

#endif  // ACCELC_SUPPORT_STATUS_H_
