// bench/timing.h — how the benchmarks time a piece of work: one warm-up run,
// then the median of `runs` runs, in milliseconds (the issues' method, the
// same as the peers are timed with).
#ifndef ACCELC_BENCH_TIMING_H_
#define ACCELC_BENCH_TIMING_H_

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace accelc::bench {

inline double medianMs(const std::function<void()>& f, int runs = 20) {
  f();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// The `--threads N` option of a bench's command line (at least 1; 1 when absent).
inline int threadsOption(int argc, char** argv) {
  int threads = 1;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--threads") == 0) threads = std::max(1, std::atoi(argv[i + 1]));
  return threads;
}

}  // namespace accelc::bench

#endif  // ACCELC_BENCH_TIMING_H_
