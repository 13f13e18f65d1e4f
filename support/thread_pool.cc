// support/thread_pool.cc — the pool's workers (see thread_pool.h).
#include "support/thread_pool.h"

#include <algorithm>

namespace accelc::support {

namespace {

/// Range `part` of `parts` over [0, n).
std::pair<int64_t, int64_t> rangeOf(int64_t n, int64_t parts, int64_t part) {
  return {n * part / parts, n * (part + 1) / parts};
}

/// Checks `ready` up to `rounds` times, yielding between checks; true once it holds.
template <typename F>
bool spin(int rounds, F&& ready) {
  for (int i = 0; i < rounds; ++i) {
    if (ready()) return true;
    std::this_thread::yield();
  }
  return ready();
}

constexpr int kSpinRounds = 2000;  ///< a few tens of microseconds of yields

}  // namespace

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(static_cast<size_t>(i)); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::work(size_t index) {
  uint64_t seen = 0;
  for (;;) {
    spin(kSpinRounds, [&] { return generation_.load() != seen; });
    std::unique_lock<std::mutex> l(mu_);
    start_.wait(l, [&] { return stop_ || generation_.load() != seen; });
    if (stop_) return;
    seen = generation_.load();
    const auto* fn = fn_;
    const int64_t n = n_;
    l.unlock();
    const auto [b, e] = rangeOf(n, threads(), static_cast<int64_t>(index));
    if (b < e) (*fn)(b, e);
    l.lock();
    if (--pending_ == 0) done_.notify_one();
  }
}

void ThreadPool::parallelFor(int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  if (workers_.empty() || n == 1) {
    fn(0, n);
    return;
  }
  std::lock_guard<std::mutex> call(callMu_);
  {
    std::lock_guard<std::mutex> l(mu_);
    fn_ = &fn, n_ = n, pending_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  start_.notify_all();
  const auto [b, e] = rangeOf(n, threads(), 0);
  if (b < e) fn(b, e);
  spin(kSpinRounds, [&] { return pending_.load() == 0; });
  std::unique_lock<std::mutex> l(mu_);
  done_.wait(l, [&] { return pending_.load() == 0; });
}

}  // namespace accelc::support
