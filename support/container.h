// support/container.h — the sectioned framing of accelc's binary files.
//
// Programs (.bin) and bundles (.acx) are a header and a fixed sequence of
// named sections, each with a CRC-32 of its own, so that a corrupted file is
// refused and the message names the part that is damaged:
//
//   header:  magic[8] (7 letters and a zero), u32 version, u32 section count, u32 CRC-32 of those 16 bytes
//   section: name[8] (ASCII, zero-padded), u64 size, u32 CRC-32 of name, size
//            and payload, then `size` payload bytes
//
// All integers are little-endian. A CRC-32 detects every single-bit error and
// every burst up to 32 bits in what it covers, and every byte of the file is
// covered by one: the magic and version are checked by value, the rest by a
// checksum. A version other than the reader's is refused with both versions
// named. docs/formats.md describes the sections of each file kind.
#ifndef ACCELC_SUPPORT_CONTAINER_H_
#define ACCELC_SUPPORT_CONTAINER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "support/status.h"

namespace accelc::support {

/// What a kind of container is: its magic, current version, and the names
/// of its sections in order (each at most 8 characters).
struct ContainerKind {
  std::string magic;                  ///< 7 letters, e.g. "ACXPROG"
  std::string what;                   ///< "program", "bundle": for messages
  uint32_t version = 0;               ///< the only version this build reads
  std::vector<std::string> sections;  ///< required, in this order
  std::string recompile;              ///< what to do about an old version
};

/// One section's payload, in ContainerKind::sections order.
using SectionData = std::vector<std::vector<uint8_t>>;

/// The file: header, then every section (`data` has one entry per name).
std::vector<uint8_t> writeContainer(const ContainerKind& kind, const SectionData& data);

/// Checks magic, version, section count, names and every checksum, and
/// returns the payloads. `name` (a file name) locates errors, e.g.
/// "m.acx: error: bundle section 'weights' is corrupt (checksum mismatch)".
Expected<SectionData> readContainer(const ContainerKind& kind, const std::vector<uint8_t>& bytes,
                                    const std::string& name);

/// CRC-32 (zlib's polynomial) of `n` bytes.
uint32_t crc32(const uint8_t* data, size_t n);

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_CONTAINER_H_
