// hls_stream.h — Vitis HLS's hls::stream for C-simulation with g++ (accelc's
// HLS engine), modelled the way vendor C-simulation runs hls::task designs:
// every task is a thread, a read of an empty stream and a write to a full one
// block. hls::stream<T, DEPTH> holds at most DEPTH values (0: unbounded).
//
// Deadlock: the simulation counts the threads that take part (each task, and
// the thread that made the tasks) and those blocked in a stream operation.
// When every one is blocked, nothing can ever move: the simulation stops,
// every blocked operation throws hls::csim::aborted, and
// hls::csim::deadlocked() says so until hls::csim::clear(). No wall-clock
// timeout is involved. One simulation runs at a time in a process.
#ifndef ACCELC_CSIM_HLS_STREAM_H_
#define ACCELC_CSIM_HLS_STREAM_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <set>
#include <string>

namespace hls {
namespace csim {

/// Thrown from a blocked stream operation when the simulation stops.
struct aborted {};

/// The state every stream and task of the running simulation shares.
class context {
 public:
  static context& get() {
    static context c;
    return c;
  }
  std::mutex mu;            ///< guards everything here and in every stream
  int tasks = 0;            ///< live tasks
  int participants = 0;     ///< threads that take part: the tasks and their owner
  int blocked = 0;          ///< of them, blocked in a stream operation
  bool stop = false;        ///< deadlock or shutdown: blocked operations throw
  bool deadlock = false;    ///< sticky: the last simulation ended in a deadlock
  std::set<std::condition_variable*> waits;  ///< every stream's

  /// Blocks the calling thread on `cv` until `ready()`; `waiters` and `gen`
  /// are the stream's. Called with `lk` held.
  template <typename Ready>
  void block(std::unique_lock<std::mutex>& lk, std::condition_variable& cv, int& waiters, uint64_t& gen,
             Ready ready) {
    while (!ready()) {
      if (stop) throw aborted();
      ++blocked, ++waiters;
      if (participants > 0 && blocked >= participants) {
        deadlock = true;
        halt();
        throw aborted();
      }
      const uint64_t g = gen;
      cv.wait(lk, [&] { return gen != g || stop; });
    }
  }
  /// The stream changed: its waiters run again (they no longer count as blocked).
  void wake(std::condition_variable& cv, int& waiters, uint64_t& gen) {
    ++gen;
    if (waiters) blocked -= waiters, waiters = 0, cv.notify_all();
  }
  /// Stops the simulation: every blocked operation throws.
  void halt() {
    stop = true;
    for (std::condition_variable* cv : waits) cv->notify_all();
  }
};

/// Whether the last simulation ended with every thread blocked.
inline bool deadlocked() {
  std::lock_guard<std::mutex> g(context::get().mu);
  return context::get().deadlock;
}
/// Forgets a deadlock, before the next simulation.
inline void clear() {
  std::lock_guard<std::mutex> g(context::get().mu);
  context::get().deadlock = false;
}

}  // namespace csim

template <typename T, int DEPTH = 0>
class stream {
 public:
  stream() { reg(); }
  explicit stream(const char*) { reg(); }
  ~stream() {
    std::lock_guard<std::mutex> g(ctx().mu);
    ctx().waits.erase(&cv_);
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  T read() {
    std::unique_lock<std::mutex> lk(ctx().mu);
    ctx().block(lk, cv_, waiters_, gen_, [&] { return !q_.empty(); });
    T v = q_.front();
    q_.pop_front();
    ctx().wake(cv_, waiters_, gen_);
    return v;
  }
  void read(T& v) { v = read(); }
  void write(const T& v) {
    std::unique_lock<std::mutex> lk(ctx().mu);
    ctx().block(lk, cv_, waiters_, gen_, [&] { return DEPTH == 0 || q_.size() < static_cast<size_t>(DEPTH); });
    q_.push_back(v);
    ctx().wake(cv_, waiters_, gen_);
  }
  bool read_nb(T& v) {
    std::lock_guard<std::mutex> g(ctx().mu);
    if (q_.empty()) return false;
    v = q_.front();
    q_.pop_front();
    ctx().wake(cv_, waiters_, gen_);
    return true;
  }
  bool write_nb(const T& v) {
    std::lock_guard<std::mutex> g(ctx().mu);
    if (DEPTH != 0 && q_.size() >= static_cast<size_t>(DEPTH)) return false;
    q_.push_back(v);
    ctx().wake(cv_, waiters_, gen_);
    return true;
  }
  bool empty() const {
    std::lock_guard<std::mutex> g(ctx().mu);
    return q_.empty();
  }
  bool full() const {
    std::lock_guard<std::mutex> g(ctx().mu);
    return DEPTH != 0 && q_.size() >= static_cast<size_t>(DEPTH);
  }
  size_t size() const {
    std::lock_guard<std::mutex> g(ctx().mu);
    return q_.size();
  }

 private:
  static csim::context& ctx() { return csim::context::get(); }
  void reg() {
    std::lock_guard<std::mutex> g(ctx().mu);
    ctx().waits.insert(&cv_);
  }
  std::deque<T> q_;
  std::condition_variable cv_;
  int waiters_ = 0;
  uint64_t gen_ = 0;
};

}  // namespace hls

#endif  // ACCELC_CSIM_HLS_STREAM_H_
