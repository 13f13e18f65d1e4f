// support/npy.cc — .npy header parsing and writing.
#include "support/npy.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace accelc::support {

static Diagnostic npyError(const std::string& path, const std::string& what) {
  return error(Location::file(path), "malformed .npy file: " + what);
}

static Expected<std::vector<int64_t>> parseNpyShape(const std::string& path, const std::string& tuple) {
  std::vector<int64_t> shape;
  std::stringstream ss(tuple);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t a = item.find_first_not_of(" "), b = item.find_last_not_of(" ");
    if (a == std::string::npos) continue;
    std::string t = item.substr(a, b - a + 1);
    if (t.empty() || t.size() > 12 || t.find_first_not_of("0123456789") != std::string::npos)
      return npyError(path, "bad shape '" + tuple + "'");
    shape.push_back(std::stoll(t));
  }
  return shape;
}

Expected<NpyArray> readNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error(Location::file(path), "cannot open file for reading");
  char magic[8];
  if (!in.read(magic, 8) || std::string(magic, 6) != "\x93NUMPY") return npyError(path, "missing \\x93NUMPY magic");
  uint32_t hlen = 0;
  unsigned char b[4] = {0, 0, 0, 0};
  int lenBytes = magic[6] == 1 ? 2 : 4;
  if (!in.read(reinterpret_cast<char*>(b), lenBytes)) return npyError(path, "truncated header");
  hlen = b[0] | (b[1] << 8) | (lenBytes == 4 ? (b[2] << 16) | (uint32_t(b[3]) << 24) : 0);
  if (hlen > 65536) return npyError(path, "header of " + std::to_string(hlen) + " bytes is too long");
  std::string header(hlen, '\0');
  if (!in.read(header.data(), hlen)) return npyError(path, "truncated header");
  std::smatch m;
  if (!std::regex_search(header, m, std::regex("'descr':\\s*'([^']*)'"))) return npyError(path, "no descr");
  std::string descr = m[1];
  if (std::regex_search(header, m, std::regex("'fortran_order':\\s*True")))
    return npyError(path, "fortran_order arrays are not supported");
  if (!std::regex_search(header, m, std::regex("'shape':\\s*\\(([^)]*)\\)"))) return npyError(path, "no shape");
  ACCELC_ASSIGN_OR_RETURN(std::vector<int64_t> shape, parseNpyShape(path, m[1]));
  NpyArray a;
  bool found = false;
#define ACCELC_NPY_DESCR(e, n, bytes, d) \
  if (descr == d) {                      \
    a.dtype = DType::e;                  \
    found = true;                        \
  }
  ACCELC_DTYPES(ACCELC_NPY_DESCR)
#undef ACCELC_NPY_DESCR
  if (!found) return npyError(path, "unsupported dtype '" + descr + "'; expected one of: " + dtypeNames());
  a.shape = shape;
  std::optional<int64_t> n = checkedShapeElements(shape);
  const std::streampos here = in.tellg();
  in.seekg(0, std::ios::end);
  const int64_t left = static_cast<int64_t>(in.tellg() - here);
  in.seekg(here);
  if (!n || *n * dtypeBytes(a.dtype) > left)
    return npyError(path, "truncated data: expected " + (n ? std::to_string(*n * dtypeBytes(a.dtype)) : std::string("more")) + " bytes");
  a.data.resize(*n * dtypeBytes(a.dtype));
  if (!in.read(reinterpret_cast<char*>(a.data.data()), a.data.size()))
    return npyError(path, "truncated data: expected " + std::to_string(a.data.size()) + " bytes");
  return a;
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
