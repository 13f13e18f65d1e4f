// support/hash.h — a stable 64-bit content hash (FNV-1a) for canonical texts.
#ifndef ACCELC_SUPPORT_HASH_H_
#define ACCELC_SUPPORT_HASH_H_

#include <cstdint>
#include <string>

namespace accelc::support {

/// FNV-1a over the bytes of `text`, from the offset basis or from the hash
/// `h` of what came before; identical on every platform.
inline uint64_t fnv1a64(const std::string& text, uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

/// 16 lower-case hex digits.
std::string hex64(uint64_t v);

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_HASH_H_
