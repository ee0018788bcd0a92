// BackgroundCompiles: a queue and one thread, made at the first job; the thread is stopped by an
// atexit handler registered then (after the statics the compiles use were made, so before they
// are destroyed).
#include "module/BackgroundCompiles.h"

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

namespace pyk::detail {

namespace {

class Queue {
public:
  void push(std::function<void()> job) {
    std::lock_guard lock(mutex_);
    if (stopped_)
      return;
    if (!worker_.joinable())
      worker_ = std::thread([this] { run(); });
    jobs_.push_back(std::move(job));
    changed_.notify_all();
  }

  void waitIdle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return (jobs_.empty() && !running_) || stopped_; });
  }

  // The queue dropped, the job running finished, the thread joined.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
      jobs_.clear();
      changed_.notify_all();
    }
    if (worker_.joinable())
      worker_.join();
  }

private:
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return !jobs_.empty() || stopped_; });
      if (stopped_)
        return;
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      running_ = true;
      lock.unlock();
      job();
      job = nullptr; // what it kept alive goes before the queue says it is idle
      lock.lock();
      running_ = false;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  bool running_ = false;
  bool stopped_ = false;
  std::thread worker_;
};

Queue& queue() {
  // Never destroyed: the atexit handler stops its thread, and a launch on another thread during
  // exit finds it stopped rather than gone.
  static Queue* q = [] {
    auto* made = new Queue;
    std::atexit([] { queue().stop(); });
    return made;
  }();
  return *q;
}

} // namespace

void compileInBackground(std::function<void()> job) {
  queue().push(std::move(job));
}

void waitForBackgroundCompiles() {
  queue().waitIdle();
}

} // namespace pyk::detail
