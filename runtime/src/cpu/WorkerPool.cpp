// WorkerPool: the worker threads' loop and the chunked hand-out of a job's indices.
#include "cpu/WorkerPool.h"

#include "cpu/CpuTopology.h"
#include "pyk/error.hpp"

#include <algorithm>
#include <chrono>

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

WorkerPool::WorkerPool(unsigned workerCount, const std::vector<int>& cpus)
    : workerCount_(std::max(1u, workerCount)) {
  threads_.reserve(workerCount_ - 1);
  for (unsigned worker = 1; worker < workerCount_; ++worker)
    threads_.emplace_back([this, worker, cpus] {
      if (!cpus.empty())
        bindCallingThread(cpus);
      workerLoop(worker);
    });
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

void WorkerPool::work(Job& job, unsigned worker) {
  insideJob = true;
  while (!job.failed.load(std::memory_order_relaxed)) {
    const uint64_t begin = job.next.fetch_add(job.chunk, std::memory_order_relaxed);
    if (begin >= job.count)
      break;
    const uint64_t end = std::min(job.count, begin + job.chunk);
    try {
      (*job.body)(worker, begin, end);
    } catch (...) {
      std::lock_guard lock(job.failureMutex);
      if (!job.failure)
        job.failure = std::current_exception();
      job.failed.store(true, std::memory_order_relaxed);
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
  job.chunk = std::max<uint64_t>(1, chunk);
  job.body = &body;
  const bool helpers = workerCount_ > 1 && job.chunk < count;
  if (helpers) {
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
