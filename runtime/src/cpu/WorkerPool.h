// WorkerPool: the threads that run a launch's blocks, the launching thread among them. Each
// worker takes chunks from the front of a share of its own (the count's w-th contiguous part), so
// that it reads memory in one stream, as an OpenMP static schedule does; then it takes chunks
// from the back of the others' shares, so that a worker the system holds up (another program on
// its core) delays nobody and the two streams stay apart. Handing every worker the next chunk of
// one counter instead made the two workers of the 16M-float block reduction read memory 1.4x
// slower together (1.9 ms against 1.3 ms on the AMD VM: two streams a chunk apart).
#pragma once

#include "cpu/WorkerPlacement.h"
#include "cpu/pyk_cpu_support.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pyk::cpu {

class WorkerPool {
public:
  // body(worker, begin, end) runs indices [begin, end) on worker `worker` (0 is the caller).
  using ChunkBody = std::function<void(unsigned worker, uint64_t begin, uint64_t end)>;

  // `workerCount` threads in all: the caller of parallelFor and workerCount - 1 started here,
  // those bound to `cpus` when given (a CPU device's; the caller is bound when it selects one).
  // `spread`: each of those bound to a CPU of its own among `cpus` (empty: the calling thread's
  // affinity mask), never the one the caller of parallelFor runs on (WorkerPlacement), when there
  // are more CPUs than helpers.
  explicit WorkerPool(unsigned workerCount, const std::vector<int>& cpus = {}, bool spread = false);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned workerCount() const { return workerCount_; }
  // The CPU helper `worker` (1 to workerCount - 1) is bound to alone, or -1 (not spread).
  int cpuOfHelper(unsigned worker) const;
  // Whether the calling thread is running a body of some pool's parallelFor.
  static bool callerIsRunningJob();

  // Runs every index of [0, count) once, `chunk` consecutive indices at a time (each worker's own
  // share first, in order, then what is left of the others', from their ends). The first
  // exception a body throws stops the handing out of chunks; it is rethrown here once every worker
  // has finished its chunk. One call runs at a time; a call from inside a body is a pyk::Error.
  void parallelFor(uint64_t count, uint64_t chunk, const ChunkBody& body);

  // parallelFor over the blocks of `grid` in linear order (x fastest):
  // body(worker, blockIdx).
  template <typename Body>
  void parallelForBlocks(Dim3 grid, uint64_t chunk, Body&& body) {
    parallelFor(volumeOf(grid), chunk, [&](unsigned worker, uint64_t begin, uint64_t end) {
      forEachBlockIn(grid, begin, end, [&](Dim3 blockIdx) { body(worker, blockIdx); });
    });
  }

  // Calls body(blockIdx) for the blocks of `grid` whose linear indices are [begin, end), in
  // order: one division for the first, then counters.
  template <typename Body>
  static void forEachBlockIn(Dim3 grid, uint64_t begin, uint64_t end, Body&& body) {
    if (begin >= end)
      return;
    const uint64_t plane = static_cast<uint64_t>(grid.x) * grid.y;
    const uint64_t inPlane = begin % plane;
    Dim3 b{static_cast<uint32>(inPlane % grid.x), static_cast<uint32>(inPlane / grid.x),
           static_cast<uint32>(begin / plane)};
    for (uint64_t linear = begin; linear < end; ++linear) {
      body(b);
      if (++b.x == grid.x) {
        b.x = 0;
        if (++b.y == grid.y) {
          b.y = 0;
          ++b.z;
        }
      }
    }
  }

private:
  // A worker's share of a job, [start, end), in chunks: the owner takes them from the front, the
  // others from the back (so that each reads its own stretch of memory in order), both through
  // `bounds`: the first chunk not taken (high 32 bits) and one past the last (low 32 bits).
  struct alignas(64) Share {
    std::atomic<uint64_t> bounds{0};
    uint64_t start = 0;
    uint64_t end = 0;

    // The chunk taken from the front (or, `back`, the back), or false when none is left.
    bool take(bool back, uint64_t& chunk);
  };
  struct Job {
    uint64_t count;
    uint64_t chunk;
    const ChunkBody* body;
    Share* shares; // one a worker
    unsigned shareCount;
    std::atomic<bool> failed{false};
    std::mutex failureMutex;
    std::exception_ptr failure;
  };

  void workerLoop(unsigned worker);
  static void work(Job& job, unsigned worker);

  unsigned workerCount_;
  std::vector<std::thread> threads_;
  std::mutex callMutex_; // one parallelFor at a time
  std::mutex mutex_;     // guards the fields below (the atomics are also read without it, to spin)
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::atomic<uint64_t> generation_{0};
  Job* job_ = nullptr;
  std::atomic<unsigned> running_{0};
  bool stopping_ = false;
  std::vector<Share> shares_; // the job's, one a worker (a job at a time)
  WorkerPlacement placement_; // changed by parallelFor, under callMutex_
};

} // namespace pyk::cpu
