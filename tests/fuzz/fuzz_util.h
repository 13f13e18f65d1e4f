// tests/fuzz/fuzz_util.h — what the fuzz targets share.
//
// A property a target checks (a round trip that must hold) fails with
// FUZZ_EXPECT, which aborts, so libFuzzer records the input as a crash.
#ifndef ACCELC_TESTS_FUZZ_FUZZ_UTIL_H_
#define ACCELC_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "isa/run_limits.h"
#include "isa/target.h"
#include "support/check.h"
#include "support/container.h"
#include "support/memory.h"

#define FUZZ_EXPECT(cond, what)                                         \
  do {                                                                  \
    if (!(cond)) {                                                      \
      std::fprintf(stderr, "fuzz property failed: %s\n", (what));       \
      std::abort();                                                     \
    }                                                                   \
  } while (0)

namespace accelc::fuzz {

/// A failed internal check's message on stderr, before the abort that libFuzzer reports as a crash.
inline const bool kCheckMessages =
    (support::setCheckHandler([](const char* m) { std::fprintf(stderr, "%s\n", m); }), true);

inline std::string text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }
inline std::vector<uint8_t> bytes(const uint8_t* data, size_t size) { return std::vector<uint8_t>(data, data + size); }

/// The target of a bundled preset (built once; a map keeps references stable).
inline const isa::Target& preset(const std::string& name) {
  static std::map<std::string, isa::Target> made;
  auto it = made.find(name);
  if (it != made.end()) return it->second;
  auto spec = hwspec::loadHwSpec(name);
  FUZZ_EXPECT(spec.isOk(), "a preset loads");
  auto t = isa::loadTarget(*spec);
  FUZZ_EXPECT(t.isOk(), "a preset's target builds");
  return made.emplace(name, *t).first->second;
}

/// Limits small enough that every input runs in milliseconds.
inline isa::RunLimits smallLimits() {
  isa::RunLimits l;
  l.maxInsns = 20000, l.maxUops = 200000, l.maxCycles = 200000;
  return l;
}

/// The file `bytes` re-framed as a container of `kind` with correct
/// checksums: its sections are cut where their headers say (clamped to the
/// file), so that mutations reach the parsers behind the checksums.
inline std::vector<uint8_t> reseal(const support::ContainerKind& kind, const std::vector<uint8_t>& bytes) {
  support::SectionData d(kind.sections.size());
  size_t pos = 20;
  for (auto& payload : d) {
    if (bytes.size() < pos + 20) break;
    uint64_t size = 0;
    for (int b = 0; b < 8; ++b) size |= static_cast<uint64_t>(bytes[pos + 8 + b]) << (8 * b);
    size = std::min<uint64_t>(size, bytes.size() - pos - 20);
    payload.assign(bytes.begin() + static_cast<long>(pos + 20), bytes.begin() + static_cast<long>(pos + 20 + size));
    pos += 20 + size;
  }
  return support::writeContainer(kind, d);
}

}  // namespace accelc::fuzz

/// Every target allocates at most 256 MiB at once for what an input asks
/// (support/memory.h), well inside libFuzzer's -rss_limit_mb.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  accelc::support::setMemoryBudget(uint64_t{256} << 20);
  return 0;
}

#endif  // ACCELC_TESTS_FUZZ_FUZZ_UTIL_H_
