// hls_task.h — Vitis HLS's hls::task for C-simulation with g++ (accelc's HLS
// engine): a task is a thread that calls its function over and over, from
// its construction until its destruction, as a free-running hardware process.
// Blocking and deadlock detection are hls_stream.h's.
//
// hls_thread_local is empty here: the tasks and streams a top-level function
// declares live for one call of it, so every call starts a fresh machine and
// ends with its threads joined. (Vitis keeps them for the process's life.)
#ifndef ACCELC_CSIM_HLS_TASK_H_
#define ACCELC_CSIM_HLS_TASK_H_

#include <thread>

#include "hls_stream.h"

#define hls_thread_local

namespace hls {

class task {
 public:
  /// Runs f(args...) again and again on a thread of its own; every argument
  /// is passed by reference to the caller's object (streams, pointers, scalars).
  template <typename F, typename... A>
  explicit task(F f, A&... args) {
    csim::context& c = csim::context::get();
    {
      std::lock_guard<std::mutex> g(c.mu);
      if (c.tasks++ == 0) c.participants = 1, c.blocked = 0, c.stop = false;
      ++c.participants;
    }
    thread_ = std::thread([f, &args...] {
      try {
        for (;;) f(args...);
      } catch (const csim::aborted&) {
      }
    });
  }
  /// Stops the simulation and joins the thread; the last task resets it.
  ~task() {
    csim::context& c = csim::context::get();
    {
      std::lock_guard<std::mutex> g(c.mu);
      c.halt();
    }
    thread_.join();
    std::lock_guard<std::mutex> g(c.mu);
    if (--c.tasks == 0) c.participants = 0, c.blocked = 0, c.stop = false;
  }
  task(const task&) = delete;
  task& operator=(const task&) = delete;

 private:
  std::thread thread_;
};

}  // namespace hls

#endif  // ACCELC_CSIM_HLS_TASK_H_
