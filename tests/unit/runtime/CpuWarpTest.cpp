// CpuWarpTest: the warp-level operations in fiber mode against references written from CUDA's
// documentation: shuffles of 4- and 8-byte values with widths, votes, match, lane masks, full and
// partial warps, divergent masks and exited lanes.
#include "CpuTestEngine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace pyk::cpu::testing {
namespace {

enum class Shuffle : int32 { Index, Up, Down, Xor };

// The value thread `global` shuffles, different for every thread and every bit width.
template <typename T>
T valueOf(uint64 global) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(global) * T(1.5) - T(100.25);
  else if constexpr (sizeof(T) == 8)
    return static_cast<T>(global * 0x100000001ULL + 3);
  else
    return static_cast<T>(global * 37 + 11);
}

template <typename T>
void shuffleThread(Thread& thread, void** args) {
  auto& out = argument<Vector<T>>(args, 0);
  const auto kind = argument<Shuffle>(args, 1);
  const int32 operand = argument<int32>(args, 2);
  const int32 width = argument<int32>(args, 3);
  const uint64 global = globalLinearIndex(*thread.block, thread.threadIdx);
  const T mine = valueOf<T>(global);
  const uint32 mask = activemask(thread);
  T result{};
  switch (kind) {
  case Shuffle::Index:
    result = shfl_sync(thread, mask, mine, operand, width);
    break;
  case Shuffle::Up:
    result = shfl_up_sync(thread, mask, mine, static_cast<uint32>(operand), width);
    break;
  case Shuffle::Down:
    result = shfl_down_sync(thread, mask, mine, static_cast<uint32>(operand), width);
    break;
  case Shuffle::Xor:
    result = shfl_xor_sync(thread, mask, mine, operand, width);
    break;
  }
  out(static_cast<int64>(global)) = result;
}

// CUDA's documented results (Programming Guide, "Warp Shuffle Functions") for the lane at
// `lane` of a warp with `lanes` threads. A source lane that does not exist (a partial warp)
// yields the caller's own value, as the engine defines it.
int32 referenceSource(Shuffle kind, int32 lane, int32 operand, int32 width, int32 lanes) {
  const int32 segmentStart = lane / width * width;
  int32 source = lane;
  switch (kind) {
  case Shuffle::Index: // srcLane modulo width, within the caller's segment
    source = segmentStart + operand % width;
    break;
  case Shuffle::Up: // lane - delta, unless that leaves the segment
    source = lane - operand >= segmentStart ? lane - operand : lane;
    break;
  case Shuffle::Down: // lane + delta, unless that leaves the segment
    source = lane + operand < segmentStart + width ? lane + operand : lane;
    break;
  case Shuffle::Xor: // lane ^ mask; earlier segments can be read, later ones cannot
    source = (lane ^ operand) < segmentStart + width ? (lane ^ operand) : lane;
    break;
  }
  return source < lanes ? source : lane;
}

template <typename T>
void expectShuffles(uint32 threads_per_block) {
  const uint32 blocks = 3;
  const uint64 total = static_cast<uint64>(threads_per_block) * blocks;
  struct Case {
    Shuffle kind;
    int32 operand;
    int32 width;
  };
  const Case cases[] = {
      {Shuffle::Index, 0, 32},  {Shuffle::Index, 5, 32}, {Shuffle::Index, 31, 32},
      {Shuffle::Index, 35, 32}, {Shuffle::Index, 3, 8},  {Shuffle::Index, 13, 16},
      {Shuffle::Up, 1, 32},     {Shuffle::Up, 5, 32},    {Shuffle::Up, 3, 8},
      {Shuffle::Up, 7, 16},     {Shuffle::Up, 0, 32},    {Shuffle::Down, 1, 32},
      {Shuffle::Down, 16, 32},  {Shuffle::Down, 3, 8},   {Shuffle::Down, 9, 16},
      {Shuffle::Xor, 1, 32},    {Shuffle::Xor, 16, 32},  {Shuffle::Xor, 31, 32},
      {Shuffle::Xor, 2, 8},     {Shuffle::Xor, 8, 16},   {Shuffle::Xor, 12, 8},
  };
  for (const Case& c : cases) {
    std::vector<T> out(total);
    auto view = viewOf(out);
    Shuffle kind = c.kind;
    int32 operand = c.operand, width = c.width;
    void* args[] = {&view, &kind, &operand, &width};
    cpuTestEngine().launch(fiberKernel("shuffle", shuffleThread<T>), Dim3{blocks},
                           Dim3{threads_per_block}, 0, 0, args);
    for (uint64 global = 0; global < total; ++global) {
      const uint32 tid = static_cast<uint32>(global % threads_per_block);
      const uint32 warpStart = tid / 32 * 32;
      const int32 lanes = static_cast<int32>(std::min<uint32>(32, threads_per_block - warpStart));
      const int32 source =
          referenceSource(c.kind, static_cast<int32>(tid % 32), c.operand, c.width, lanes);
      const T expected = valueOf<T>(global - tid % 32 + static_cast<uint32>(source));
      ASSERT_EQ(std::memcmp(&out[global], &expected, sizeof(T)), 0)
          << "kind " << static_cast<int>(c.kind) << " operand " << c.operand << " width " << c.width
          << " thread " << tid << " of " << threads_per_block;
    }
  }
}

TEST(CpuWarp, ShufflesOfFullWarps) {
  expectShuffles<int32>(64);
  expectShuffles<uint32>(96);
  expectShuffles<float>(64);
  expectShuffles<int64>(64);
  expectShuffles<uint64>(32);
  expectShuffles<double>(128);
}

TEST(CpuWarp, ShufflesOfAPartialLastWarp) {
  expectShuffles<int32>(40);
  expectShuffles<double>(40);
  expectShuffles<int64>(77);
  expectShuffles<float>(5);
}

// ---- votes -----------------------------------------------------------------------------------

// Thread t votes with several predicates and writes what all/any/eq/ballot returned.
void voteThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int64>>(args, 0);
  const uint32 mask = kFullWarpMask; // lanes that do not exist count as exited
  const uint32 lane = thread.laneId;
  const int64 base = static_cast<int64>(thread.linearIndex) * 10;
  out(base + 0) = all_sync(thread, mask, 1);
  out(base + 1) = all_sync(thread, mask, lane != 3);
  out(base + 2) = any_sync(thread, mask, lane == 6);
  out(base + 3) = any_sync(thread, mask, 0);
  out(base + 4) = eq_sync(thread, mask, 7);
  out(base + 5) = eq_sync(thread, mask, 0);
  out(base + 6) = eq_sync(thread, mask, lane % 2);
  out(base + 7) = ballot_sync(thread, mask, lane % 3 == 0);
  out(base + 8) = ballot_sync(thread, mask, static_cast<int32>(lane) * 4096); // lane 0 is false
  out(base + 9) = static_cast<int64>(laneid(thread)) << 32 | lanemask_lt(thread);
}

void expectVotes(uint32 threads) {
  std::vector<int64> out(static_cast<size_t>(threads) * 10, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("votes", voteThread), Dim3{2}, Dim3{threads}, 0, 0, args);
  for (uint32 tid = 0; tid < threads; ++tid) {
    const uint32 lane = tid % 32;
    const uint32 lanes = std::min<uint32>(32, threads - tid / 32 * 32);
    const uint32 present = lanes == 32 ? kFullWarpMask : (1u << lanes) - 1u;
    uint32 everyThird = 0;
    for (uint32 l = 0; l < lanes; l += 3)
      everyThird |= 1u << l;
    const int64* r = &out[static_cast<size_t>(tid) * 10];
    EXPECT_EQ(r[0], 1) << tid;
    EXPECT_EQ(r[1], lanes > 3 ? 0 : 1) << tid;
    EXPECT_EQ(r[2], lanes > 6 ? 1 : 0) << tid;
    EXPECT_EQ(r[3], 0) << tid;
    EXPECT_EQ(r[4], 1) << tid;
    EXPECT_EQ(r[5], 1) << tid;
    EXPECT_EQ(r[6], lanes > 1 ? 0 : 1) << tid;
    EXPECT_EQ(r[7], everyThird) << tid;
    EXPECT_EQ(r[8], present & ~1u) << tid;
    EXPECT_EQ(r[9], static_cast<int64>(lane) << 32 | ((1u << lane) - 1u)) << tid;
  }
}

TEST(CpuWarp, VotesOfFullWarps) {
  expectVotes(64);
}

TEST(CpuWarp, VotesOfAPartialLastWarp) {
  expectVotes(40);
  expectVotes(1);
}

// ---- match -----------------------------------------------------------------------------------

template <typename T>
void matchThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int64>>(args, 0);
  const uint32 lane = thread.laneId;
  const int64 base = static_cast<int64>(thread.linearIndex) * 5;
  out(base + 0) = match_any_sync(thread, activemask(thread), static_cast<T>(lane % 3));
  int32 predicate = -1;
  out(base + 1) = match_all_sync(thread, kFullWarpMask, static_cast<T>(42), &predicate);
  out(base + 2) = predicate;
  out(base + 3) = match_all_sync(thread, kFullWarpMask, static_cast<T>(lane == 9), &predicate);
  out(base + 4) = predicate;
}

template <typename T>
void expectMatches(uint32 threads) {
  std::vector<int64> out(static_cast<size_t>(threads) * 5, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("match", matchThread<T>), Dim3{2}, Dim3{threads}, 0, 0, args);
  for (uint32 tid = 0; tid < threads; ++tid) {
    const uint32 lane = tid % 32;
    const uint32 lanes = std::min<uint32>(32, threads - tid / 32 * 32);
    const uint32 present = lanes == 32 ? kFullWarpMask : (1u << lanes) - 1u;
    uint32 same = 0;
    for (uint32 l = 0; l < lanes; ++l)
      if (l % 3 == lane % 3)
        same |= 1u << l;
    const int64* r = &out[static_cast<size_t>(tid) * 5];
    EXPECT_EQ(r[0], same) << tid;
    EXPECT_EQ(r[1], present) << tid;
    EXPECT_EQ(r[2], 1) << tid;
    EXPECT_EQ(r[3], lanes > 9 ? 0 : present) << tid;
    EXPECT_EQ(r[4], lanes > 9 ? 0 : 1) << tid;
  }
}

TEST(CpuWarp, MatchAnyAndMatchAll) {
  expectMatches<int32>(64);
  expectMatches<int64>(40);
  expectMatches<uint32>(96);
}

// match compares bits: 0.0 and -0.0 differ, a NaN matches the same NaN.
void matchFloatBitsThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int64>>(args, 0);
  const uint32 lane = thread.laneId;
  const double value = lane < 8 ? 0.0 : lane < 16 ? -0.0 : std::nan("");
  out(lane) = match_any_sync(thread, kFullWarpMask, value);
}

TEST(CpuWarp, MatchComparesBits) {
  std::vector<int64> out(32, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("match_bits", matchFloatBitsThread), Dim3{1}, Dim3{32}, 0, 0,
                         args);
  EXPECT_EQ(out[0], 0x000000FF);
  EXPECT_EQ(out[8], 0x0000FF00);
  EXPECT_EQ(out[16], 0xFFFF0000);
}

// ---- divergence, syncwarp, exited lanes ------------------------------------------------------

// The two half-warps shuffle separately, each with its own mask, in different branches; then
// the whole warp meets at a syncwarp and reduces with shfl_down.
void halvesThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int32>>(args, 0);
  const uint32 lane = thread.laneId;
  int32 value = static_cast<int32>(lane);
  if (lane < 16)
    value = shfl_sync(thread, 0x0000FFFFu, value * 10, 15); // lane 15's
  else
    value = shfl_sync(thread, 0xFFFF0000u, value * 100, 16); // lane 16's
  syncwarp(thread, kFullWarpMask);
  int32 sum = static_cast<int32>(lane);
  for (uint32 offset = 16; offset > 0; offset /= 2)
    sum += shfl_down_sync(thread, kFullWarpMask, sum, offset);
  out(thread.linearIndex * 2) = value;
  out(thread.linearIndex * 2 + 1) = sum;
}

TEST(CpuWarp, DivergentHalvesWithTheirOwnMasks) {
  std::vector<int32> out(64 * 2, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("halves", halvesThread), Dim3{1}, Dim3{64}, 0, 0, args);
  for (uint32 tid = 0; tid < 64; ++tid) {
    const uint32 lane = tid % 32;
    EXPECT_EQ(out[tid * 2], lane < 16 ? 150 : 1600) << tid;
    if (lane == 0) {
      EXPECT_EQ(out[tid * 2 + 1], 496) << tid; // 0 + 1 + ... + 31
    }
  }
}

// The upper lanes exit; the others vote and shuffle with the full mask, which now means the lanes
// still running.
void exitedLanesThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int64>>(args, 0);
  const uint32 lane = thread.laneId;
  if (lane >= 20)
    return;
  syncwarp(thread); // the exits happen before or after this; either way it completes
  const int64 base = static_cast<int64>(thread.linearIndex) * 4;
  out(base + 0) = activemask(thread);
  out(base + 1) = ballot_sync(thread, kFullWarpMask, 1);
  out(base + 2) = all_sync(thread, kFullWarpMask, 1);
  out(base + 3) = shfl_down_sync(thread, kFullWarpMask, static_cast<int32>(lane), 4);
}

TEST(CpuWarp, ExitedLanesDropOutOfTheMask) {
  std::vector<int64> out(32 * 4, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("exited_lanes", exitedLanesThread), Dim3{1}, Dim3{32}, 0, 0,
                         args);
  for (uint32 lane = 0; lane < 20; ++lane) {
    EXPECT_EQ(out[lane * 4 + 0], 0xFFFFF) << lane;
    EXPECT_EQ(out[lane * 4 + 1], 0xFFFFF) << lane;
    EXPECT_EQ(out[lane * 4 + 2], 1) << lane;
    EXPECT_EQ(out[lane * 4 + 3], lane + 4 < 20 ? lane + 4 : lane) << lane;
  }
}

// Warp operations of different warps of one block interleave with block barriers: each warp
// sums its lanes with shfl_xor, the warp sums meet in shared memory, warp 0 adds them up.
void blockReduceThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int64>>(args, 0);
  Block& block = *thread.block;
  int64* warpSums = shared_pointer<int64>(block, 0);
  int64 value = static_cast<int64>(thread.linearIndex) + 1;
  for (int32 offset = 16; offset > 0; offset /= 2)
    value += shfl_xor_sync(thread, kFullWarpMask, value, offset);
  if (thread.laneId == 0)
    warpSums[thread.warpId] = value;
  syncthreads(thread);
  const uint32 warps = static_cast<uint32>(volumeOf(block.blockDim)) / 32;
  if (thread.warpId == 0) {
    int64 sum = thread.laneId < warps ? warpSums[thread.laneId] : 0;
    for (uint32 offset = 16; offset > 0; offset /= 2)
      sum += shfl_down_sync(thread, kFullWarpMask, sum, offset);
    if (thread.laneId == 0)
      out(block.blockIdx.x) = sum;
  }
}

TEST(CpuWarp, WarpReductionsInsideABlockReduction) {
  std::vector<int64> out(5, -1);
  auto view = viewOf(out);
  void* args[] = {&view};
  cpuTestEngine().launch(fiberKernel("block_reduce", blockReduceThread), Dim3{5}, Dim3{1024},
                         32 * sizeof(int64), 0, args);
  for (int64 sum : out)
    EXPECT_EQ(sum, 1024 * 1025 / 2);
}

} // namespace
} // namespace pyk::cpu::testing
