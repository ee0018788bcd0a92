// CpuEngineTest: launches on the CPU engine: loop mode, block spreading, thread and block
// coverage in three dimensions, shared memory, launch checks, errors reaching the caller.
#include "CpuTestEngine.h"

#include "cpu/CpuSettings.h"
#include "pyk/error.hpp"

#include <gtest/gtest.h>

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>

namespace pyk::cpu::testing {
namespace {

// ---- loop mode ----------------------------------------------------------------------------

// c[i] = a[i] + b[i], one element per thread, as loop-mode code is generated.
void vectorAddBlock(Block& block, void** args) {
  auto& a = argument<Vector<float>>(args, 0);
  auto& b = argument<Vector<float>>(args, 1);
  auto& c = argument<Vector<float>>(args, 2);
  forEachThread(block, [&](Dim3 threadIdx) {
    const int64 i = static_cast<int64>(block.blockIdx.x) * block.blockDim.x + threadIdx.x;
    if (i < c.shape[0])
      c(i) = a(i) + b(i);
  });
}

TEST(CpuEngine, LoopModeVectorAddOverALargeGrid) {
  const int64 n = (1 << 22) + 77; // not a multiple of the block
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int64 i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000);
    b[i] = static_cast<float>(2 * (i % 777));
  }
  auto va = viewOf(a), vb = viewOf(b), vc = viewOf(c);
  void* args[] = {&va, &vb, &vc};
  const uint32 threads = 256;
  const uint32 blocks = static_cast<uint32>((n + threads - 1) / threads);
  cpuTestEngine().launch(loopKernel("vector_add", vectorAddBlock), Dim3{blocks}, Dim3{threads}, 0,
                         0, args);
  for (int64 i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << "at " << i;
}

// Records which worker ran each block, slowly enough that every worker gets some.
void recordWorkerBlock(Block& block, void** args) {
  auto& workers = argument<Vector<int32>>(args, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  workers(block.blockIdx.x) = static_cast<int32>(block.workerIndex);
}

TEST(CpuEngine, BlocksSpreadOverTheWorkers) {
  std::vector<int32> workers(64, -1);
  auto view = viewOf(workers);
  void* args[] = {&view};
  cpuTestEngine().launch(loopKernel("record_worker", recordWorkerBlock), Dim3{64}, Dim3{1}, 0, 0,
                         args);
  std::set<int32> distinct(workers.begin(), workers.end());
  EXPECT_EQ(distinct.count(-1), 0u) << "a block did not run";
  EXPECT_GE(distinct.size(), 2u);
  EXPECT_LE(distinct.size(), kTestWorkers);
}

// Records, for each block a started worker (not the caller) runs, how many CPUs it may run on,
// and whether the first one it may run on is the given CPU.
void recordBindingBlock(Block& block, void** args) {
  auto& seen = argument<Vector<int32>>(args, 0);
  const int32 cpu = argument<int32>(args, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (block.workerIndex == 0)
    return;
  cpu_set_t set;
  CPU_ZERO(&set);
  ::sched_getaffinity(0, sizeof set, &set);
  seen(block.blockIdx.x) = CPU_ISSET(cpu, &set) ? CPU_COUNT(&set) : -2;
}

// A CPU device's engine binds its workers to the device's CPUs (cpu/CpuDevices gives them).
TEST(CpuEngine, WorkersAreBoundToTheCpusGiven) {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  ASSERT_EQ(::sched_getaffinity(0, sizeof mine, &mine), 0);
  int32 cpu = 0;
  while (!CPU_ISSET(cpu, &mine))
    ++cpu;
  CpuEngine engine(CpuSettings{3, CpuSettings::kDefaultFiberStackBytes, {cpu}});
  std::vector<int32> seen(32, -1);
  auto view = viewOf(seen);
  void* args[] = {&view, &cpu};
  engine.launch(loopKernel("record_binding", recordBindingBlock), Dim3{32}, Dim3{1}, 0, 0, args);
  int byWorkers = 0;
  for (int32 s : seen)
    if (s != -1) {
      EXPECT_EQ(s, 1) << "a worker may run elsewhere than CPU " << cpu;
      ++byWorkers;
    }
  EXPECT_GT(byWorkers, 0) << "the started workers ran no block";
}

// ---- three-dimensional grids and blocks ----------------------------------------------------

// Counts each (block, thread) pair by its global linear index, and checks the ids it sees.
void countCoverageBlock(Block& block, void** args) {
  auto& counts = argument<Vector<int32>>(args, 0);
  auto& bad = argument<Vector<int32>>(args, 1);
  forEachThread(block, [&](Dim3 threadIdx) {
    if (threadIdx.x >= block.blockDim.x || threadIdx.y >= block.blockDim.y ||
        threadIdx.z >= block.blockDim.z || block.blockIdx.x >= block.gridDim.x ||
        block.blockIdx.y >= block.gridDim.y || block.blockIdx.z >= block.gridDim.z)
      atomic_add(&bad(0), 1);
    atomic_add(&counts(static_cast<int64>(globalLinearIndex(block, threadIdx))), 1);
  });
}

void countCoverageThread(Thread& thread, void** args) {
  auto& counts = argument<Vector<int32>>(args, 0);
  auto& bad = argument<Vector<int32>>(args, 1);
  const Block& block = *thread.block;
  const Dim3 t = thread.threadIdx;
  const uint32 linear = t.x + block.blockDim.x * (t.y + block.blockDim.y * t.z);
  if (linear != thread.linearIndex || thread.laneId != linear % 32 ||
      thread.warpId != linear / 32 || t.x >= block.blockDim.x || t.y >= block.blockDim.y ||
      t.z >= block.blockDim.z)
    atomic_add(&bad(0), 1);
  syncthreads(thread); // fiber mode proper
  atomic_add(&counts(static_cast<int64>(globalLinearIndex(block, t))), 1);
}

class CpuEngineCoverage : public ::testing::TestWithParam<ExecutionMode> {};

TEST_P(CpuEngineCoverage, EveryThreadOfA3DGridRunsExactlyOnce) {
  const Dim3 grid{3, 4, 5};
  const Dim3 block{4, 3, 6};
  std::vector<int32> counts(volumeOf(grid) * volumeOf(block), 0);
  std::vector<int32> bad(1, 0);
  auto countsView = viewOf(counts), badView = viewOf(bad);
  void* args[] = {&countsView, &badView};
  const KernelEntry kernel = GetParam() == ExecutionMode::Loop
                                 ? loopKernel("coverage", countCoverageBlock)
                                 : fiberKernel("coverage", countCoverageThread);
  cpuTestEngine().launch(kernel, grid, block, 0, 0, args);
  EXPECT_EQ(bad[0], 0);
  for (size_t i = 0; i < counts.size(); ++i)
    ASSERT_EQ(counts[i], 1) << "global thread " << i;
}

INSTANTIATE_TEST_SUITE_P(CpuModes, CpuEngineCoverage,
                         ::testing::Values(ExecutionMode::Loop, ExecutionMode::Fiber),
                         [](const auto& info) {
                           return info.param == ExecutionMode::Loop ? std::string("Loop")
                                                                    : std::string("Fiber");
                         });

// ---- shared memory ---------------------------------------------------------------------------

// Static shared memory (3 int32 at offset 0) and a dynamic float array after it: every thread
// writes its slot of the dynamic array, then reads its neighbour's.
void sharedLayoutThread(Thread& thread, void** args) {
  auto& out = argument<Vector<float>>(args, 0);
  auto& facts = argument<Vector<int64>>(args, 1);
  Block& block = *thread.block;
  int32* counters = shared_pointer<int32>(block, 0);
  Array<float, 1, Layout::C> dynamic = dynamic_shared_array<float>(block);
  const uint32 tid = thread.threadIdx.x;
  if (tid == 0)
    counters[0] = 7;
  if (tid == 0 && block.blockIdx.x == 0) { // one block reports (blocks run on several threads)
    facts(0) = dynamic.shape[0];
    facts(1) = reinterpret_cast<unsigned char*>(dynamic.data) - block.sharedMemory;
    facts(2) = reinterpret_cast<uintptr_t>(block.sharedMemory) % 64;
  }
  dynamic(tid) = static_cast<float>(tid) * 2.0f;
  syncthreads(thread);
  const uint32 neighbour = (tid + 1) % block.blockDim.x;
  out(static_cast<int64>(block.blockIdx.x) * block.blockDim.x + tid) =
      dynamic(neighbour) + static_cast<float>(counters[0]);
}

TEST(CpuEngine, StaticAndDynamicSharedMemory) {
  const uint32 threads = 64, blocks = 8;
  std::vector<float> out(threads * blocks, 0);
  std::vector<int64> facts(3, -1);
  auto outView = viewOf(out);
  auto factsView = viewOf(facts);
  void* args[] = {&outView, &factsView};
  cpuTestEngine().launch(fiberKernel("shared_layout", sharedLayoutThread), Dim3{blocks},
                         Dim3{threads}, 12, threads * sizeof(float), args);
  EXPECT_EQ(facts[0], threads);
  EXPECT_EQ(facts[1], 16) << "dynamic shared memory starts at the static size rounded up to 16";
  EXPECT_EQ(facts[2], 0) << "shared memory is 64-byte aligned";
  for (uint32 b = 0; b < blocks; ++b)
    for (uint32 t = 0; t < threads; ++t)
      ASSERT_EQ(out[b * threads + t], 2.0f * ((t + 1) % threads) + 7.0f);
}

// ---- launch checks ---------------------------------------------------------------------------

void emptyBlock(Block&, void**) {}

void expectInvalidLaunch(Dim3 grid, Dim3 block, const char* fragment) {
  try {
    cpuTestEngine().launch(loopKernel("k", emptyBlock), grid, block, 0, 0, nullptr);
    ADD_FAILURE() << "launch accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::InvalidLaunch);
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(CpuEngine, LaunchesOutsideCudasLimitsAreErrors) {
  expectInvalidLaunch(Dim3{1}, Dim3{2048}, "has 2048 threads along x; the range is 1 to 1024");
  expectInvalidLaunch(Dim3{1}, Dim3{32, 32, 2}, "of 2048 threads exceeds 1024");
  expectInvalidLaunch(Dim3{1}, Dim3{1, 1, 65}, "along z; the range is 1 to 64");
  expectInvalidLaunch(Dim3{4, 0, 1}, Dim3{32}, "has 0 blocks along y");
  expectInvalidLaunch(Dim3{1, 1, 65536}, Dim3{32}, "along z; the range is 1 to 65535");
  expectInvalidLaunch(Dim3{1}, Dim3{0}, "has 0 threads along x");
}

TEST(CpuEngine, AModeWithoutItsEntryPointIsAnError) {
  KernelEntry kernel = loopKernel("k", nullptr);
  try {
    cpuTestEngine().launch(kernel, Dim3{1}, Dim3{1}, 0, 0, nullptr);
    ADD_FAILURE() << "launch accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::InvalidArgument);
    EXPECT_STREQ(error.what(), "kernel `k`: loop mode needs a block entry point");
  }
}

// ---- errors from blocks ----------------------------------------------------------------------

void throwingBlock(Block& block, void** args) {
  auto& ran = argument<std::atomic<int>>(args, 0);
  ran.fetch_add(1);
  if (block.blockIdx.x == 37)
    throw std::runtime_error("block 37 failed");
}

TEST(CpuEngine, AnExceptionInABlockReachesTheLauncher) {
  std::atomic<int> ran{0};
  void* args[] = {&ran};
  try {
    cpuTestEngine().launch(loopKernel("throws", throwingBlock), Dim3{100000}, Dim3{1}, 0, 0, args);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "block 37 failed");
  }
  EXPECT_LT(ran.load(), 100000) << "workers stop taking blocks after a failure";
  // The engine is usable afterwards.
  std::vector<float> a(10, 1), b(10, 2), c(10, 0);
  auto va = viewOf(a), vb = viewOf(b), vc = viewOf(c);
  void* addArgs[] = {&va, &vb, &vc};
  cpuTestEngine().launch(loopKernel("vector_add", vectorAddBlock), Dim3{1}, Dim3{16}, 0, 0,
                         addArgs);
  EXPECT_EQ(c[9], 3.0f);
}

void throwingThread(Thread& thread, void**) {
  syncthreads(thread);
  if (thread.block->blockIdx.x == 3 && thread.threadIdx.x == 5)
    throw Error(ErrorKind::Kernel, "thread 5 of block 3 failed");
  syncthreads(thread);
}

TEST(CpuEngine, AnExceptionInAFiberReachesTheLauncher) {
  for (int repeat = 0; repeat < 2; ++repeat) { // the workers' fibers recover
    try {
      cpuTestEngine().launch(fiberKernel("throws", throwingThread), Dim3{8}, Dim3{64}, 0, 0,
                             nullptr);
      ADD_FAILURE() << "no exception";
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::Kernel);
      EXPECT_STREQ(error.what(), "thread 5 of block 3 failed");
    }
  }
}

void launchingBlock(Block&, void**) {
  cpuTestEngine().launch(loopKernel("inner", emptyBlock), Dim3{1}, Dim3{1}, 0, 0, nullptr);
}

TEST(CpuEngine, ALaunchFromInsideAKernelIsAnError) {
  try {
    cpuTestEngine().launch(loopKernel("outer", launchingBlock), Dim3{4}, Dim3{1}, 0, 0, nullptr);
    ADD_FAILURE() << "no exception";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::InvalidLaunch);
    EXPECT_NE(std::string(error.what()).find("inside a running kernel"), std::string::npos);
  }
}

// ---- the process's engine and its settings ---------------------------------------------------

TEST(CpuEngine, RunKernelLaunchesOnTheSharedEngine) {
  std::vector<float> a(1000, 1.5f), b(1000, 2.0f), c(1000, 0);
  auto va = viewOf(a), vb = viewOf(b), vc = viewOf(c);
  void* args[] = {&va, &vb, &vc};
  runKernel(loopKernel("vector_add", vectorAddBlock), Dim3{8}, Dim3{128}, 0, 0, args);
  for (float value : c)
    ASSERT_EQ(value, 3.5f);
  EXPECT_GE(CpuEngine::shared().workerCount(), 1u);
}

TEST(CpuSettings, TheEngineIsSizedByTheRuntimeSettings) {
  RuntimeSettings settings;
  settings.cpu_threads = 8;
  settings.cpu_fiber_stack_bytes = 128 * 1024;
  const CpuSettings sized = CpuSettings::of(settings);
  EXPECT_EQ(sized.workerCount, 8u);
  EXPECT_EQ(sized.fiberStackBytes, 128u * 1024);
  settings.cpu_threads = 0; // one worker per CPU the process may run on
  EXPECT_EQ(CpuSettings::of(settings).workerCount, CpuSettings::usableCpus());
  EXPECT_GE(CpuSettings::usableCpus(), 1u);
  EXPECT_LE(CpuSettings::usableCpus(), std::max(1u, std::thread::hardware_concurrency()));
}

// Bound to one CPU (as an MPI launcher binds a rank to a core), the default is one worker. The
// binding is the calling thread's, so a thread of its own takes it and the test's stays as it was.
TEST(CpuSettings, TheDefaultTakesTheAffinityMask) {
  unsigned seen = 0;
  std::thread([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    cpu_set_t mine;
    ASSERT_EQ(::sched_getaffinity(0, sizeof mine, &mine), 0);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &mine)) {
        CPU_SET(cpu, &one);
        break;
      }
    ASSERT_EQ(::sched_setaffinity(0, sizeof one, &one), 0);
    seen = CpuSettings::of(RuntimeSettings{}).workerCount;
  }).join();
  EXPECT_EQ(seen, 1u);
}

} // namespace
} // namespace pyk::cpu::testing
