// CpuWorkerPoolTest: the pool's hand-out of a job's indices: each once, whatever the count,
// chunk and worker count; each worker's own contiguous share first (the caller's from index 0);
// the share of a worker the system holds up taken by the others.
#include "cpu/WorkerPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace pyk::cpu::testing {
namespace {

TEST(CpuWorkerPool, EveryIndexOnceWhateverTheShape) {
  for (unsigned workers : {1u, 2u, 3u, 4u}) {
    WorkerPool pool(workers);
    for (uint64_t count : {0ull, 1ull, 3ull, 7ull, 100ull, 1000ull})
      for (uint64_t chunk : {1ull, 3ull, 64ull, 5000ull}) {
        std::vector<std::atomic<int>> seen(count);
        pool.parallelFor(count, chunk, [&](unsigned worker, uint64_t begin, uint64_t end) {
          EXPECT_LT(worker, workers);
          EXPECT_LE(end - begin, chunk);
          for (uint64_t i = begin; i < end; ++i)
            seen[i].fetch_add(1);
        });
        for (uint64_t i = 0; i < count; ++i)
          ASSERT_EQ(seen[i].load(), 1) << "index " << i << " of " << count << ", chunk " << chunk
                                       << ", " << workers << " workers";
      }
  }
}

TEST(CpuWorkerPool, TheCallerStartsAtTheFrontOfItsShare) {
  WorkerPool pool(4);
  std::atomic<uint64_t> callerFirst{~0ull};
  std::atomic<bool> callerStarted{false};
  pool.parallelFor(400, 10, [&](unsigned worker, uint64_t begin, uint64_t) {
    if (worker == 0 && !callerStarted.exchange(true))
      callerFirst = begin;
  });
  // On a loaded machine the helpers may have taken the caller's whole share (from its back)
  // before the caller ran at all; then its first chunk is another's. Within its own share
  // (0..99) it starts at the front; with one counter for all it would start anywhere.
  if (callerFirst.load() < 100) {
    EXPECT_EQ(callerFirst.load(), 0u);
  }
}

TEST(CpuWorkerPool, EachWorkerRunsItsOwnShareInOrder) {
  // The caller takes its share (0..49) from the front, one index after another; the helper takes
  // what is left of it from the back. With one counter for all, the caller's indices would
  // interleave with the helper's.
  WorkerPool pool(2);
  std::vector<uint64_t> byCaller;
  pool.parallelFor(100, 1, [&](unsigned worker, uint64_t begin, uint64_t) {
    if (worker == 0)
      byCaller.push_back(begin);
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  });
  uint64_t expected = 0;
  for (uint64_t i : byCaller) {
    if (i < 50) {
      EXPECT_EQ(i, expected) << "the caller's own share, in order";
      ++expected;
    }
  }
  EXPECT_GT(expected, 0u);
}

TEST(CpuWorkerPool, AWorkerHeldUpHasItsShareTakenByTheOthers) {
  WorkerPool pool(2);
  std::atomic<int> byCaller{0};
  std::atomic<bool> heldUp{false};
  pool.parallelFor(100, 1, [&](unsigned worker, uint64_t, uint64_t) {
    if (worker == 0)
      ++byCaller;
    else if (!heldUp.exchange(true))
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::this_thread::sleep_for(std::chrono::microseconds(100)); // the helper has time to start
  });
  // The helper holds at most the one index it took before sleeping; the caller ran the rest of
  // both shares.
  EXPECT_GE(byCaller.load(), 99);
}

} // namespace
} // namespace pyk::cpu::testing
