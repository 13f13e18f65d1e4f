// support/thread_pool.h — a fixed pool of threads that divides a range of
// iterations among them.
//
// parallelFor splits [0, n) into at most threads() contiguous ranges, runs
// them on the pool's workers and the calling thread, and returns once every
// range is done. Workers spin a few microseconds for the next range before
// they sleep, since kernels call parallelFor back to back and a sleeping
// thread takes tens of microseconds to wake. One parallelFor runs at a time per pool; calls from several
// threads are serialized.
#ifndef ACCELC_SUPPORT_THREAD_POOL_H_
#define ACCELC_SUPPORT_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace accelc::support {

class ThreadPool {
 public:
  /// `threads` workers in all, the caller included (at least 1); 0 means one per core.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  /// Runs fn(begin, end) over contiguous ranges that cover [0, n) once.
  void parallelFor(int64_t n, const std::function<void(int64_t, int64_t)>& fn);

 private:
  void work(size_t index);

  std::vector<std::thread> workers_;
  std::mutex callMu_;  ///< one parallelFor at a time
  std::mutex mu_;
  std::condition_variable start_, done_;
  const std::function<void(int64_t, int64_t)>* fn_ = nullptr;
  int64_t n_ = 0;
  std::atomic<uint64_t> generation_{0};  ///< bumped per parallelFor; workers wait for a new one
  std::atomic<int> pending_{0};          ///< workers still running the current generation
  bool stop_ = false;
};

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_THREAD_POOL_H_
