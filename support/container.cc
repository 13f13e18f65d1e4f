// support/container.cc — header and section framing with CRC-32 (zlib).
#include "support/container.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "support/bytes.h"

namespace accelc::support {

namespace {

/// Continues CRC `c` over `n` bytes; zlib takes a uInt length, so large
/// buffers go in pieces.
uint32_t crcUpdate(uLong c, const uint8_t* data, uint64_t n) {
  while (n > 0) {
    const uInt piece = static_cast<uInt>(std::min<uint64_t>(n, uint64_t{1} << 30));
    c = ::crc32(c, data, piece);
    data += piece;
    n -= piece;
  }
  return static_cast<uint32_t>(c);
}

}  // namespace

uint32_t crc32(const uint8_t* data, size_t n) { return crcUpdate(::crc32(0L, Z_NULL, 0), data, n); }

namespace {

constexpr size_t kHeaderBytes = 20, kSectionHeaderBytes = 20;

void putLe(std::vector<uint8_t>& out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t getLe(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

/// The 8-byte, zero-padded name field.
std::string nameField(const std::string& s) {
  ACCELC_CHECK(s.size() <= 8) << "section name '" << s << "' is longer than 8 bytes";
  return s + std::string(8 - s.size(), '\0');
}

/// CRC of a section: its name field, size and payload.
uint32_t sectionCrc(const uint8_t* head16, const uint8_t* payload, uint64_t size) {
  return crcUpdate(crc32(head16, 16), payload, size);
}

}  // namespace

std::vector<uint8_t> writeContainer(const ContainerKind& kind, const SectionData& data) {
  ACCELC_CHECK(kind.magic.size() == 7 && data.size() == kind.sections.size()) << "container kind misuse";
  std::vector<uint8_t> out(kind.magic.begin(), kind.magic.end());
  out.push_back(0);
  putLe(out, kind.version, 4);
  putLe(out, kind.sections.size(), 4);
  putLe(out, crc32(out.data(), 16), 4);
  for (size_t i = 0; i < data.size(); ++i) {
    const size_t head = out.size();
    const std::string field = nameField(kind.sections[i]);
    out.insert(out.end(), field.begin(), field.end());
    putLe(out, data[i].size(), 8);
    putLe(out, sectionCrc(out.data() + head, data[i].data(), data[i].size()), 4);
    out.insert(out.end(), data[i].begin(), data[i].end());
  }
  return out;
}

Expected<SectionData> readContainer(const ContainerKind& kind, const std::vector<uint8_t>& bytes,
                                    const std::string& name) {
  const Location loc = Location::file(name);
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kind.magic.data(), 7) != 0 || bytes[7] != 0)
    return error(loc, "not an accelc " + kind.what + ": bad magic (expected " + kind.magic + ")");
  if (bytes.size() < kHeaderBytes)
    return error(loc, "truncated " + kind.what + ": the header needs " + std::to_string(kHeaderBytes) +
                          " bytes, the file has " + std::to_string(bytes.size()));
  const uint64_t version = getLe(bytes.data() + 8, 4);
  const bool headerOk = getLe(bytes.data() + 16, 4) == crc32(bytes.data(), 16);
  if (version != kind.version && (headerOk || version < kind.version))
    return error(loc, kind.what + " format version " + std::to_string(version) + " is not this accelc's version " +
                          std::to_string(kind.version) + ": " + kind.recompile);
  if (!headerOk) return error(loc, kind.what + " header is corrupt (checksum mismatch)");
  if (getLe(bytes.data() + 12, 4) != kind.sections.size())
    return error(loc, kind.what + " has " + std::to_string(getLe(bytes.data() + 12, 4)) + " sections, expected " +
                          std::to_string(kind.sections.size()));
  SectionData out;
  size_t pos = kHeaderBytes;
  for (const std::string& want : kind.sections) {
    const std::string what = kind.what + " section '" + want + "'";
    if (bytes.size() - pos < kSectionHeaderBytes)
      return error(loc, "truncated " + kind.what + ": " + what + " is missing");
    const uint8_t* head = bytes.data() + pos;
    const uint64_t size = getLe(head + 8, 8);
    if (size > bytes.size() - pos - kSectionHeaderBytes)
      return error(loc, "truncated " + kind.what + ": " + what + " declares " + std::to_string(size) +
                            " bytes, the file has " + std::to_string(bytes.size() - pos - kSectionHeaderBytes) +
                            " after its header");
    const uint8_t* payload = head + kSectionHeaderBytes;
    if (getLe(head + 16, 4) != sectionCrc(head, payload, size))
      return error(loc, what + " is corrupt (checksum mismatch)");
    if (std::memcmp(head, nameField(want).data(), 8) != 0)
      return error(loc, kind.what + " section " + std::to_string(out.size()) + " is '" +
                            std::string(reinterpret_cast<const char*>(head), strnlen(reinterpret_cast<const char*>(head), 8)) +
                            "', expected '" + want + "'");
    out.emplace_back(payload, payload + size);
    pos += kSectionHeaderBytes + size;
  }
  if (pos != bytes.size())
    return error(loc, kind.what + " has " + std::to_string(bytes.size() - pos) + " bytes after its last section");
  return out;
}

}  // namespace accelc::support
