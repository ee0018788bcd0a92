// WorkerPool: the worker threads' loop and the chunked hand-out of a job's indices.
#include "cpu/WorkerPool.h"

#include "cpu/CpuTopology.h"
#include "pyk/error.hpp"

#include <algorithm>
#include <chrono>

#include <sched.h>

namespace pyk::cpu {

namespace {
// Set while this thread runs a job's body: a nested parallelFor would wait for itself.
thread_local bool insideJob = false;

// Before sleeping on a condition variable, a worker waiting for the next job and the launcher
// waiting for its helpers first poll for this long: kernels launched back to back (a time-step
// loop) then start on every worker at once, and the launch returns without a futex wake-up on
// either side (measured: 17 us a small launch without it on this VM, some of the time).
constexpr auto kSpinBeforeSleeping = std::chrono::microseconds(50);

template <typename Done>
bool spinUntil(Done&& done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinBeforeSleeping;
  for (unsigned polls = 0;; ++polls) {
    if (done())
      return true;
    if ((polls & 63) == 63 && std::chrono::steady_clock::now() >= deadline)
      return false;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}
} // namespace

WorkerPool::WorkerPool(unsigned workerCount, const std::vector<int>& cpus, bool spread)
    : workerCount_(std::max(1u, workerCount)), shares_(workerCount_),
      placement_(spread ? (cpus.empty() ? affinityCpus() : cpus) : std::vector<int>{},
                 workerCount_ - 1, ::sched_getcpu()) {
  threads_.reserve(workerCount_ - 1);
  const bool bindToSet = !cpus.empty() && !placement_.active();
  for (unsigned worker = 1; worker < workerCount_; ++worker) {
    threads_.emplace_back([this, worker, cpus, bindToSet] {
      if (bindToSet)
        bindCallingThread(cpus);
      workerLoop(worker);
    });
    // Bound from here, as parallelFor moves them later: one thread at a time binds helpers.
    if (placement_.active())
      bindThread(threads_.back(), {placement_.cpuOf(worker - 1)});
  }
}

int WorkerPool::cpuOfHelper(unsigned worker) const {
  return worker == 0 ? -1 : placement_.cpuOf(worker - 1);
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_)
    thread.join();
}

bool WorkerPool::callerIsRunningJob() {
  return insideJob;
}

void WorkerPool::workerLoop(unsigned worker) {
  uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!stopping_ && generation_.load(std::memory_order_relaxed) == seen) {
      lock.unlock();
      spinUntil([&] { return generation_.load(std::memory_order_acquire) != seen; });
      lock.lock();
    }
    wake_.wait(lock, [&] { return stopping_ || generation_.load() != seen; });
    if (stopping_)
      return;
    seen = generation_;
    Job* job = job_;
    if (job == nullptr) // woke after the job was over
      continue;
    ++running_;
    lock.unlock();
    work(*job, worker);
    lock.lock();
    if (--running_ == 0)
      idle_.notify_all();
  }
}

bool WorkerPool::Share::take(bool back, uint64_t& chunk) {
  uint64_t b = bounds.load(std::memory_order_relaxed);
  for (;;) {
    const uint64_t front = b >> 32, last = b & 0xFFFFFFFFu;
    if (front >= last)
      return false;
    const uint64_t next = back ? (front << 32) | (last - 1) : ((front + 1) << 32) | last;
    if (bounds.compare_exchange_weak(b, next, std::memory_order_relaxed)) {
      chunk = back ? last - 1 : front;
      return true;
    }
  }
}

void WorkerPool::work(Job& job, unsigned worker) {
  insideJob = true;
  for (unsigned k = 0; k < job.shareCount; ++k) {
    Share& share = job.shares[(worker + k) % job.shareCount]; // its own first, from the front
    uint64_t chunk = 0;
    while (!job.failed.load(std::memory_order_relaxed) && share.take(k != 0, chunk)) {
      const uint64_t begin = share.start + chunk * job.chunk;
      const uint64_t end = std::min(share.end, begin + job.chunk);
      try {
        (*job.body)(worker, begin, end);
      } catch (...) {
        std::lock_guard lock(job.failureMutex);
        if (!job.failure)
          job.failure = std::current_exception();
        job.failed.store(true, std::memory_order_relaxed);
      }
    }
  }
  insideJob = false;
}

void WorkerPool::parallelFor(uint64_t count, uint64_t chunk, const ChunkBody& body) {
  if (insideJob)
    throw Error(ErrorKind::InvalidLaunch, "a kernel cannot launch work from inside a running "
                                          "kernel on the CPU backend");
  if (count == 0)
    return;
  std::lock_guard call(callMutex_);
  Job job;
  job.count = count;
  // (A share's chunks are counted in 32 bits.)
  job.chunk = std::max<uint64_t>({1, chunk, count / workerCount_ / 0xFFFFFFFFu + 1});
  job.body = &body;
  job.shares = shares_.data();
  job.shareCount = workerCount_;
  auto shareStart = [&](unsigned w) { // count * w / workerCount_, without overflow
    return count / workerCount_ * w + std::min<uint64_t>(w, count % workerCount_);
  };
  for (unsigned w = 0; w < workerCount_; ++w) {
    Share& share = shares_[w];
    share.start = shareStart(w);
    share.end = shareStart(w + 1);
    share.bounds.store((share.end - share.start + job.chunk - 1) / job.chunk,
                       std::memory_order_relaxed);
  }
  const bool helpers = workerCount_ > 1 && job.chunk < count;
  if (helpers) {
    if (placement_.active())
      if (const auto move = placement_.makeRoomFor(::sched_getcpu()))
        bindThread(threads_[move->helper], {move->cpu});
    {
      std::lock_guard lock(mutex_);
      job_ = &job;
      ++generation_;
    }
    wake_.notify_all();
  }
  work(job, 0);
  if (helpers) {
    std::unique_lock lock(mutex_);
    job_ = nullptr; // a helper waking from now on finds no job
    if (running_.load() != 0) {
      lock.unlock();
      spinUntil([&] { return running_.load(std::memory_order_acquire) == 0; });
      lock.lock();
    }
    idle_.wait(lock, [&] { return running_.load() == 0; });
  }
  if (job.failure)
    std::rethrow_exception(job.failure);
}

} // namespace pyk::cpu
