// CpuWorkerPlacementTest: where a spread pool's helpers run (WorkerPlacement): each on a CPU of
// its own, never the launching thread's, the one on the CPU the launcher comes to run on moved to
// the CPU the launcher left; no placement with more workers than CPUs; the launching thread's own
// affinity never changed.
#include "cpu/CpuTopology.h"
#include "cpu/WorkerPlacement.h"
#include "cpu/WorkerPool.h"

#include <gtest/gtest.h>

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace pyk::cpu::testing {
namespace {

TEST(CpuWorkerPlacement, HelpersOnCpusOfTheirOwnOffTheCallers) {
  const WorkerPlacement placement({0, 1, 2, 3}, 2, 1);
  ASSERT_TRUE(placement.active());
  EXPECT_EQ(placement.cpuOf(0), 0);
  EXPECT_EQ(placement.cpuOf(1), 2);
  EXPECT_EQ(placement.cpuOf(2), -1);
  const WorkerPlacement unknownCaller({4, 6, 9}, 2, -1);
  EXPECT_EQ(unknownCaller.cpuOf(0), 4);
  EXPECT_EQ(unknownCaller.cpuOf(1), 6);
}

TEST(CpuWorkerPlacement, NoneWithoutACpuLeftForTheCaller) {
  EXPECT_FALSE(WorkerPlacement({0, 1}, 2, 0).active()); // three workers, two CPUs
  EXPECT_FALSE(WorkerPlacement({0, 1}, 3, 0).active());
  EXPECT_FALSE(WorkerPlacement({0, 1, 2}, 0, 0).active()); // no helper
  EXPECT_FALSE(WorkerPlacement({}, 1, 0).active());        // placement off
  EXPECT_EQ(WorkerPlacement({0, 1}, 2, 0).cpuOf(0), -1);
}

TEST(CpuWorkerPlacement, TheHelperOnTheCallersNewCpuMovesToTheOneItLeft) {
  WorkerPlacement placement({0, 1, 2, 3}, 2, 1); // helpers on 0 and 2, CPU 3 free
  EXPECT_FALSE(placement.makeRoomFor(1));        // still where it was
  EXPECT_FALSE(placement.makeRoomFor(3));        // to the free CPU: nobody moves
  const auto move = placement.makeRoomFor(2);    // onto helper 1's, having left 3
  ASSERT_TRUE(move);
  EXPECT_EQ(move->helper, 1u);
  EXPECT_EQ(move->cpu, 3);
  EXPECT_EQ(placement.cpuOf(1), 3);
  EXPECT_FALSE(placement.makeRoomFor(7)); // outside the set
  // Seen last outside the set, now on helper 0's CPU: the first CPU no helper has.
  const auto again = placement.makeRoomFor(0);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->helper, 0u);
  EXPECT_EQ(again->cpu, 1);
  EXPECT_FALSE(placement.makeRoomFor(-1)); // unknown
}

TEST(CpuWorkerPlacement, NoTwoHelpersEverShareACpu) {
  WorkerPlacement placement({0, 1, 2, 3, 4}, 3, 0);
  for (int step = 0; step < 200; ++step) {
    (void)placement.makeRoomFor((step * 7 + step / 3) % 6);
    std::set<int> cpus;
    for (unsigned h = 0; h < 3; ++h)
      cpus.insert(placement.cpuOf(h));
    ASSERT_EQ(cpus.size(), 3u) << "step " << step;
    ASSERT_FALSE(cpus.count(-1));
  }
}

// The calling thread bound to `cpus` for the scope, its mask as it was again after.
class CallerBoundTo {
public:
  explicit CallerBoundTo(const std::vector<int>& cpus) : saved_(affinityCpus()) {
    bindCallingThread(cpus);
  }
  ~CallerBoundTo() { bindCallingThread(saved_); }

private:
  std::vector<int> saved_;
};

// Each worker's affinity mask, as it sees it inside a job (a two-worker pool): the caller's first
// chunk waits (5 s at most) for the helper to have taken one.
std::vector<std::vector<int>> masksInAJob(WorkerPool& pool) {
  std::vector<std::vector<int>> masks(pool.workerCount());
  std::mutex mutex;
  std::atomic<bool> helperSeen{false};
  pool.parallelFor(128, 1, [&](unsigned worker, uint64_t begin, uint64_t) {
    std::vector<int> mine = affinityCpus();
    {
      std::lock_guard lock(mutex);
      masks[worker] = mine;
    }
    if (worker != 0)
      helperSeen.store(true);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    if (begin == 0)
      while (!helperSeen.load() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
  });
  return masks;
}

TEST(CpuWorkerPlacement, ASpreadPoolBindsItsHelpersAndFollowsTheCaller) {
  const std::vector<int> usable = affinityCpus();
  if (usable.size() < 2)
    GTEST_SKIP() << "needs 2 CPUs in the process's affinity mask, it has " << usable.size();
  std::vector<int> callerMask;
  {
    CallerBoundTo caller({usable[0]});
    WorkerPool pool(2, usable, /*spread=*/true);
    const int helperCpu = pool.cpuOfHelper(1);
    EXPECT_NE(helperCpu, usable[0]);
    EXPECT_NE(std::find(usable.begin(), usable.end(), helperCpu), usable.end());
    std::vector<std::vector<int>> masks = masksInAJob(pool);
    EXPECT_EQ(masks[1], std::vector<int>{helperCpu}) << "the helper (when it took a chunk)";
    EXPECT_EQ(affinityCpus(), std::vector<int>{usable[0]}) << "the caller's mask, untouched";

    // The caller comes to run on the helper's CPU: the helper moves to the one it left.
    bindCallingThread({helperCpu});
    masks = masksInAJob(pool);
    EXPECT_EQ(pool.cpuOfHelper(1), usable[0]);
    EXPECT_EQ(masks[1], std::vector<int>{usable[0]});
    EXPECT_EQ(affinityCpus(), std::vector<int>{helperCpu});
  }
  EXPECT_EQ(affinityCpus(), usable);
}

TEST(CpuWorkerPlacement, APoolNotSpreadLeavesItsHelpersFree) {
  const std::vector<int> usable = affinityCpus();
  WorkerPool pool(2);
  EXPECT_EQ(pool.cpuOfHelper(1), -1);
  EXPECT_EQ(masksInAJob(pool)[1], usable);
  // More workers than CPUs: spread or not, nobody is bound.
  WorkerPool crowded(static_cast<unsigned>(usable.size()) + 1, {}, /*spread=*/true);
  EXPECT_EQ(crowded.cpuOfHelper(1), -1);
}

} // namespace
} // namespace pyk::cpu::testing
