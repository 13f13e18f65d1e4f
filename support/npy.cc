// support/npy.cc — .npy header parsing and writing.
#include "support/npy.h"

#include <cctype>
#include <climits>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <utility>

namespace accelc::support {

static Diagnostic npyError(const std::string& path, const std::string& what) {
  return error(Location::file(path), "malformed .npy file: " + what);
}

namespace {

/// The header's dictionary, as numpy writes it: {'descr': '<f4',
/// 'fortran_order': False, 'shape': (2, 3), } then spaces and a newline.
/// Each key exactly once, no other key, Python literal syntax.
struct NpyHeader {
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
};

class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path) : s_(text), path_(path) {}

  Expected<NpyHeader> parse() {
    NpyHeader h;
    bool have[3] = {false, false, false};
    ACCELC_TRY(expect('{'));
    while (skip(), peek() != '}') {
      ACCELC_ASSIGN_OR_RETURN(std::string key, quoted());
      skip();
      ACCELC_TRY(expect(':'));
      skip();
      const int k = key == "descr" ? 0 : key == "fortran_order" ? 1 : key == "shape" ? 2 : -1;
      if (k < 0) return fail("unknown key '" + key + "' (expected descr, fortran_order and shape)");
      if (have[k]) return fail("key '" + key + "' given twice");
      have[k] = true;
      if (k == 0) {
        ACCELC_ASSIGN_OR_RETURN(h.descr, quoted());
      } else if (k == 1) {
        ACCELC_ASSIGN_OR_RETURN(h.fortran, boolean());
      } else {
        ACCELC_ASSIGN_OR_RETURN(h.shape, tuple());
      }
      skip();
      if (peek() == ',')
        ++at_;
      else if (peek() != '}')
        return fail("expected ',' or '}' after key '" + key + "'");
    }
    ++at_;
    while (at_ < s_.size() && s_[at_] == ' ') ++at_;
    if (at_ + 1 != s_.size() || s_[at_] != '\n')
      return fail("the header must end with its dictionary, spaces and a newline");
    if (!have[0] || !have[1] || !have[2]) return fail("the header lacks one of descr, fortran_order and shape");
    return h;
  }

 private:
  char peek() const { return at_ < s_.size() ? s_[at_] : '\0'; }
  void skip() {
    while (peek() == ' ') ++at_;
  }
  Diagnostic fail(const std::string& what) const {
    return npyError(path_, what + " (header byte " + std::to_string(at_) + ")");
  }
  Status expect(char c) {
    if (peek() != c) return fail(std::string("expected '") + c + "'");
    ++at_;
    return Status::ok();
  }
  Expected<std::string> quoted() {
    if (peek() != '\'') return fail("expected a quoted string");
    const size_t end = s_.find('\'', at_ + 1);
    if (end == std::string::npos) return fail("unterminated string");
    std::string v = s_.substr(at_ + 1, end - at_ - 1);
    at_ = end + 1;
    return v;
  }
  Expected<bool> boolean() {
    for (const auto& [word, v] : {std::pair<const char*, bool>{"True", true}, {"False", false}})
      if (s_.compare(at_, std::strlen(word), word) == 0) return at_ += std::strlen(word), v;
    return fail("expected True or False");
  }
  Expected<std::vector<int64_t>> tuple() {
    std::vector<int64_t> shape;
    ACCELC_TRY(expect('('));
    bool comma = true;  // a dimension may follow
    while (skip(), peek() != ')') {
      if (!comma) return fail("bad shape: expected ',' or ')'");
      size_t digits = 0;
      while (std::isdigit(static_cast<unsigned char>(peek())) && digits < 13) ++at_, ++digits;
      if (digits == 0 || digits > 12) return fail("bad shape: expected dimensions of at most 12 digits");
      shape.push_back(std::stoll(s_.substr(at_ - digits, digits)));
      skip();
      comma = peek() == ',';
      if (comma) ++at_;
    }
    if (shape.size() == 1 && !comma) return fail("bad shape: a one-dimensional shape is written '(N,)'");
    ++at_;
    return shape;
  }

  const std::string& s_;
  const std::string& path_;
  size_t at_ = 0;
};

}  // namespace

Expected<NpyArray> parseNpy(const std::vector<uint8_t>& file, const std::string& path) {
  const size_t size = file.size();
  if (size < 8 || std::memcmp(file.data(), "\x93NUMPY", 6) != 0) return npyError(path, "missing \\x93NUMPY magic");
  const int major = file[6], minor = file[7];
  if (major < 1 || major > 3 || minor != 0)
    return npyError(path, "format version " + std::to_string(major) + "." + std::to_string(minor) +
                              " (expected 1.0, 2.0 or 3.0)");
  const size_t lenBytes = major == 1 ? 2 : 4;
  if (size < 8 + lenBytes) return npyError(path, "truncated header");
  uint32_t hlen = 0;
  for (size_t i = 0; i < lenBytes; ++i) hlen |= static_cast<uint32_t>(file[8 + i]) << (8 * i);
  if (hlen > 65536) return npyError(path, "header of " + std::to_string(hlen) + " bytes is too long");
  const size_t dataAt = 8 + lenBytes + hlen;
  if (size < dataAt) return npyError(path, "truncated header");
  const std::string header(file.begin() + static_cast<long>(8 + lenBytes), file.begin() + static_cast<long>(dataAt));
  ACCELC_ASSIGN_OR_RETURN(NpyHeader h, HeaderParser(header, path).parse());
  if (h.fortran) return npyError(path, "fortran_order arrays are not supported");
  NpyArray a;
  bool found = false;
#define ACCELC_NPY_DESCR(e, n, bytes, d) \
  if (h.descr == d) {                    \
    a.dtype = DType::e;                  \
    found = true;                        \
  }
  ACCELC_DTYPES(ACCELC_NPY_DESCR)
#undef ACCELC_NPY_DESCR
  if (!found) return npyError(path, "unsupported dtype '" + h.descr + "'; expected one of: " + dtypeNames());
  a.shape = h.shape;
  std::optional<int64_t> n = checkedShapeElements(h.shape);
  const int64_t left = static_cast<int64_t>(size - dataAt);
  const std::optional<int64_t> bytes =
      n && *n <= INT64_MAX / dtypeBytes(a.dtype) ? std::optional<int64_t>(*n * dtypeBytes(a.dtype)) : std::nullopt;
  if (!bytes || *bytes > left)
    return npyError(path,
                    "truncated data: expected " + (bytes ? std::to_string(*bytes) : std::string("more")) + " bytes");
  if (*bytes < left)
    return npyError(path, std::to_string(left - *bytes) + " bytes past the " + std::to_string(*bytes) +
                              " bytes of data the header describes");
  a.data.assign(file.begin() + static_cast<long>(dataAt), file.end());
  return a;
}

Expected<NpyArray> readNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error(Location::file(path), "cannot open file for reading");
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parseNpy(file, path);
}

std::string npyFileName(const std::string& name) {
  std::string safe = name;
  for (char& c : safe)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
  return safe + ".npy";
}

Status writeNpy(const std::string& path, const NpyArray& a) {
  std::string shape = "(";
  for (int64_t d : a.shape) shape += std::to_string(d) + (a.shape.size() == 1 ? "," : ", ");
  if (a.shape.size() > 1) shape.resize(shape.size() - 2);
  shape += ")";
  std::string header = std::string("{'descr': '") + dtypeNpyDescr(a.dtype) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) return error(Location::file(path), "cannot open file for writing");
  out.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  out.write(len, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(a.data.data()), a.data.size());
  if (!out) return error(Location::file(path), "write failed");
  return Status::ok();
}

}  // namespace accelc::support
