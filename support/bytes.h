// support/bytes.h — little-endian byte streams for accelc's binary formats.
//
// ByteReader never reads past its end: every read checks the length and
// returns a "truncated" diagnostic naming what it was reading and the offset.
#ifndef ACCELC_SUPPORT_BYTES_H_
#define ACCELC_SUPPORT_BYTES_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/status.h"

namespace accelc::support {

/// Appends little-endian values.
class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(v); }
  void u32(uint32_t v) { le(v, 4); }
  void u64(uint64_t v) { le(v, 8); }
  void i64(int64_t v) { le(static_cast<uint64_t>(v), 8); }
  void f32(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    u32(b);
  }
  void str(const std::string& s) {
    u64(s.size());
    out_.insert(out_.end(), s.begin(), s.end());
  }
  void bytes(const std::vector<uint8_t>& b) {
    u64(b.size());
    out_.insert(out_.end(), b.begin(), b.end());
  }
  std::vector<uint8_t>& data() { return out_; }

 private:
  void le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t> out_;  ///< bytes written so far
};

/// Reads little-endian values with bounds checks.
class ByteReader {
 public:
  ByteReader(const std::vector<uint8_t>& b, std::string name) : b_(b), name_(std::move(name)) {}
  Status need(uint64_t n, const char* what) const {
    if (n <= b_.size() - pos_) return Status::ok();
    return error(Location::file(name_), std::string("truncated file: ") + what + " needs " + std::to_string(n) +
                                            " bytes at offset " + std::to_string(pos_) + ", the file has " +
                                            std::to_string(b_.size()));
  }
  Expected<uint64_t> le(int n, const char* what) {
    ACCELC_TRY(need(static_cast<uint64_t>(n), what));
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(b_[pos_ + i]) << (8 * i);
    pos_ += static_cast<uint64_t>(n);
    return v;
  }
  Expected<float> f32(const char* what) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t b, le(4, what));
    const uint32_t w = static_cast<uint32_t>(b);
    float v;
    std::memcpy(&v, &w, 4);
    return v;
  }
  Expected<std::string> str(const char* what) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t n, le(8, what));
    ACCELC_TRY(need(n, what));
    std::string s(b_.begin() + static_cast<long>(pos_), b_.begin() + static_cast<long>(pos_ + n));
    pos_ += n;
    return s;
  }
  Expected<std::vector<uint8_t>> bytes(const char* what) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t n, le(8, what));
    ACCELC_TRY(need(n, what));
    std::vector<uint8_t> v(b_.begin() + static_cast<long>(pos_), b_.begin() + static_cast<long>(pos_ + n));
    pos_ += n;
    return v;
  }
  /// A u64 entry count, refused when it exceeds the bytes left (every
  /// entry takes at least one), so that no count drives a huge allocation.
  Expected<uint64_t> count(const char* what) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t n, le(8, what));
    if (n > b_.size() - pos_) return bad(std::string(what) + " " + std::to_string(n) + " exceeds the bytes left");
    return n;
  }
  uint64_t pos() const { return pos_; }
  bool done() const { return pos_ == b_.size(); }
  /// "malformed FILE at offset N: what".
  Diagnostic bad(const std::string& what) const {
    return error(Location::file(name_), "malformed file at offset " + std::to_string(pos_) + ": " + what);
  }

 private:
  const std::vector<uint8_t>& b_;  ///< the data
  std::string name_;               ///< for locations
  uint64_t pos_ = 0;               ///< read position
};

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_BYTES_H_
