// CpuBlockBarrierTest: syncthreads and its count/and/or forms in fiber mode: reductions through
// shared memory, 1024-thread blocks, exited threads at barriers, deadlocks reported.
#include "CpuTestEngine.h"

#include "pyk/error.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace pyk::cpu::testing {
namespace {

// Each block sums its slice of `in` by halving strides, a syncthreads in every round (the block
// size is a power of two).
void blockSumThread(Thread& thread, void** args) {
  auto& in = argument<Vector<int64>>(args, 0);
  auto& out = argument<Vector<int64>>(args, 1);
  Block& block = *thread.block;
  int64* partial = shared_pointer<int64>(block, 0);
  const uint32 tid = thread.threadIdx.x;
  const int64 i = static_cast<int64>(block.blockIdx.x) * block.blockDim.x + tid;
  partial[tid] = i < in.shape[0] ? in(i) : 0;
  syncthreads(thread);
  for (uint32 stride = block.blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    syncthreads(thread);
  }
  if (tid == 0)
    out(block.blockIdx.x) = partial[0];
}

void expectBlockSums(uint32 threads, uint32 blocks) {
  const int64 n = static_cast<int64>(threads) * blocks - 3; // a ragged last block
  std::vector<int64> in(n);
  for (int64 i = 0; i < n; ++i)
    in[i] = (i * 7919) % 1000 - 500;
  std::vector<int64> out(blocks, -1);
  auto inView = viewOf(in), outView = viewOf(out);
  void* args[] = {&inView, &outView};
  cpuTestEngine().launch(fiberKernel("block_sum", blockSumThread), Dim3{blocks}, Dim3{threads},
                         threads * sizeof(int64), 0, args);
  for (uint32 b = 0; b < blocks; ++b) {
    const int64 begin = static_cast<int64>(b) * threads;
    const int64 end = std::min<int64>(n, begin + threads);
    EXPECT_EQ(out[b], std::accumulate(in.begin() + begin, in.begin() + end, int64{0}))
        << "block " << b;
  }
}

TEST(CpuBlockBarrier, SharedMemoryReductionWithSyncthreadsInALoop) {
  expectBlockSums(256, 37);
}

TEST(CpuBlockBarrier, BlocksOf1024Threads) {
  expectBlockSums(1024, 9);
}

// Every thread passes predicates depending on its index to the three reducing barriers, several
// times, and thread 0 records what they returned.
void reducingBarriersThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int32>>(args, 0);
  const uint32 tid = thread.linearIndex;
  const int64 base = static_cast<int64>(thread.block->blockIdx.x) * 12;
  for (int32 round = 0; round < 3; ++round) {
    const int32 count = syncthreads_count(thread, tid % static_cast<uint32>(round + 2) == 0);
    const int32 all = syncthreads_and(thread, round == 1 ? 1 : static_cast<int32>(tid != 5));
    const int32 any = syncthreads_or(thread, round == 2 ? 0 : static_cast<int32>(tid == 17));
    if (tid == 0) {
      out(base + round * 3 + 0) = count;
      out(base + round * 3 + 1) = all;
      out(base + round * 3 + 2) = any;
    }
    // A predicate of any non-zero value counts as true.
    const int32 wide = syncthreads_count(thread, static_cast<int32>(tid) * 1000);
    if (tid == 0)
      out(base + 9 + round) = wide;
  }
}

TEST(CpuBlockBarrier, SyncthreadsCountAndOr) {
  const uint32 threads = 100, blocks = 5;
  std::vector<int32> out(12 * blocks, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("reducing_barriers", reducingBarriersThread), Dim3{blocks},
                         Dim3{threads}, 0, 0, args);
  for (uint32 b = 0; b < blocks; ++b) {
    const int32* r = &out[b * 12];
    EXPECT_EQ(r[0], 50); // tid % 2 == 0
    EXPECT_EQ(r[1], 0);  // thread 5 says no
    EXPECT_EQ(r[2], 1);  // thread 17 says yes
    EXPECT_EQ(r[3], 34); // tid % 3 == 0
    EXPECT_EQ(r[4], 1);
    EXPECT_EQ(r[5], 1);
    EXPECT_EQ(r[6], 25); // tid % 4 == 0
    EXPECT_EQ(r[7], 0);
    EXPECT_EQ(r[8], 0);
    for (int round = 0; round < 3; ++round)
      EXPECT_EQ(r[9 + round], 99); // all but thread 0
  }
}

// A 2-D block whose threads pass values around a ring through shared memory in many rounds: the
// barrier must hold every thread until all have written.
void ringThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int64>>(args, 0);
  Block& block = *thread.block;
  const uint32 n = static_cast<uint32>(volumeOf(block.blockDim));
  int64* ring = shared_pointer<int64>(block, 0);
  const uint32 tid = thread.linearIndex;
  int64 value = tid;
  for (int round = 0; round < 50; ++round) {
    ring[tid] = value;
    syncthreads(thread);
    value = ring[(tid + 1) % n] + 1;
    syncthreads(thread);
  }
  out(static_cast<int64>(block.blockIdx.x) * n + tid) = value;
}

TEST(CpuBlockBarrier, ValuesPassAroundARingOfThreads) {
  const Dim3 block{16, 8, 2};
  const uint32 n = 256, blocks = 6;
  std::vector<int64> out(n * blocks, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("ring", ringThread), Dim3{blocks}, block, n * sizeof(int64), 0,
                         args);
  for (uint32 b = 0; b < blocks; ++b)
    for (uint32 t = 0; t < n; ++t)
      ASSERT_EQ(out[b * n + t], (t + 50) % n + 50) << "thread " << t;
}

// Threads of the upper half return early; the rest keep meeting at barriers, which count the
// exited threads as arrived (what GPUs since Volta do).
void earlyExitThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int32>>(args, 0);
  const uint32 tid = thread.linearIndex;
  if (tid >= 48)
    return;
  int32* slots = shared_pointer<int32>(*thread.block, 0);
  slots[tid] = static_cast<int32>(tid);
  const int32 present = syncthreads_count(thread, 1);
  const int32 next = slots[(tid + 1) % 48];
  syncthreads(thread);
  if (thread.block->blockIdx.x != 0) // the other blocks run the same barriers, block 0 reports
    return;
  if (tid == 0)
    out(0) = present;
  out(1 + tid) = next;
}

TEST(CpuBlockBarrier, ExitedThreadsCountAsArrived) {
  std::vector<int32> out(49, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("early_exit", earlyExitThread), Dim3{3}, Dim3{96},
                         96 * sizeof(int32), 0, args);
  EXPECT_EQ(out[0], 48);
  for (uint32 t = 0; t < 48; ++t)
    EXPECT_EQ(out[1 + t], static_cast<int32>((t + 1) % 48));
}

// Threads that meet at different numbers of barriers: the even ones sync twice, the odd ones once
// and exit; nothing hangs.
void unevenBarriersThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int32>>(args, 0);
  syncthreads(thread);
  if (thread.linearIndex % 2 == 1)
    return;
  const int32 evens = syncthreads_count(thread, 1);
  if (thread.linearIndex == 0)
    out(thread.block->blockIdx.x) = evens;
}

TEST(CpuBlockBarrier, ThreadsMeetingDifferentNumbersOfBarriersFinish) {
  std::vector<int32> out(4, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("uneven", unevenBarriersThread), Dim3{4}, Dim3{70}, 0, 0,
                         args);
  for (int32 evens : out)
    EXPECT_EQ(evens, 35);
}

// The lower half waits at syncthreads while the upper half waits for the whole warp in a shuffle:
// nothing can run, so the launch fails instead of hanging.
void deadlockThread(Thread& thread, void**) {
  if (thread.laneId < 16)
    syncthreads(thread);
  else
    shfl_sync(thread, kFullWarpMask, 1, 0);
}

TEST(CpuBlockBarrier, ADeadlockIsAnErrorNotAHang) {
  try {
    cpuTestEngine().launch(fiberKernel("stuck", deadlockThread), Dim3{2}, Dim3{32}, 0, 0, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Kernel);
    EXPECT_NE(std::string(error.what())
                  .find("16 threads wait at `syncthreads`, 0 at `this_grid().sync()` and 16 at "
                        "warp-level operations"),
              std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("kernel `stuck` deadlocked in block ("),
              std::string::npos)
        << error.what();
  }
}

} // namespace
} // namespace pyk::cpu::testing
