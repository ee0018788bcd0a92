// CpuDeferredAtomicsTest: stdlib/cpu/deferred_atomics.h on the engine's workers: gathered atomics
// reach memory before the launch returns, exactly as the atomics run one after another (each
// operation, more elements than a worker gathers at once, more operands than it keeps), a thread's
// own atomics on one element in its order, and arguments that overlap turn gathering off.
#include "CpuTestEngine.h"

#include <gtest/gtest.h>

#include <limits>

namespace pyk::cpu::testing {
namespace {

constexpr uint32 kGatheringBlocks = 512;
constexpr uint32 kGatheringThreads = 64;
constexpr uint64 kGatheringTotal = uint64{kGatheringBlocks} * kGatheringThreads;

template <typename Op, typename T>
void gathered(const Context& ctx, T* p, T v) {
  deferred_atomic<Op>(ctx, p, v, [](auto*, auto) { ADD_FAILURE() << "not gathered"; });
}

// Every thread adds 1 to words[0..7] (more elements than a worker gathers at once), subtracts 3
// from words[8], and offers its index to max, min, or, and, xor on words[9..13]; `enabled` records
// what the block entry decided.
void everyOperationBlock(Block& block, void** args) {
  auto& words = argument<Vector<int64>>(args, 0);
  auto& halves = argument<Vector<double>>(args, 1);
  auto& enabled = argument<Vector<int32>>(args, 2);
  decide_deferral(block, {extent_of(words), extent_of(halves)}, {extent_of(enabled)});
  enabled(static_cast<int64>(block.blockIdx.x)) = block.deferred->enabled;
  Context ctx = blockContext(block);
  for (uint32 t = 0; t < kGatheringThreads; ++t) {
    ctx.threadIdx = Dim3{t, 0, 0};
    const auto g = static_cast<int64>(globalLinearIndex(block, ctx.threadIdx));
    for (int64 w = 0; w < 8; ++w)
      gathered<atomic_op::Add>(ctx, &words(w), int64{1});
    gathered<atomic_op::Sub>(ctx, &words(8), int64{3});
    gathered<atomic_op::Max>(ctx, &words(9), g);
    gathered<atomic_op::Min>(ctx, &words(10), g);
    gathered<atomic_op::Or>(ctx, &words(11), int64{1} << (g % 63));
    gathered<atomic_op::And>(ctx, &words(12), ~(int64{1} << (g % 61)));
    gathered<atomic_op::Xor>(ctx, &words(13), g);
    gathered<atomic_op::Add>(ctx, &halves(0), 0.5);
    gathered<atomic_op::Nanmax>(ctx, &halves(1),
                                g == 7 ? std::numeric_limits<double>::quiet_NaN()
                                       : static_cast<double>(g));
  }
}

TEST(CpuDeferredAtomics, EveryOperationReachesMemoryBeforeTheLaunchReturns) {
  std::vector<int64> words(14, 0);
  words[10] = std::numeric_limits<int64>::max();
  words[12] = -1;
  std::vector<double> halves = {0.0, -1.0};
  std::vector<int32> enabled(kGatheringBlocks, -7);
  auto w = viewOf(words);
  auto h = viewOf(halves);
  auto e = viewOf(enabled);
  void* args[] = {&w, &h, &e};
  cpuTestEngine().launch(loopKernel("every_operation", everyOperationBlock), Dim3{kGatheringBlocks},
                         Dim3{kGatheringThreads}, 0, 0, args);
  for (int32 on : enabled)
    ASSERT_EQ(on, 1);
  for (int w8 = 0; w8 < 8; ++w8)
    EXPECT_EQ(words[w8], static_cast<int64>(kGatheringTotal)) << "element " << w8;
  EXPECT_EQ(words[8], -3 * static_cast<int64>(kGatheringTotal));
  EXPECT_EQ(words[9], static_cast<int64>(kGatheringTotal - 1));
  EXPECT_EQ(words[10], 0);
  EXPECT_EQ(words[11], std::numeric_limits<int64>::max());
  EXPECT_EQ(words[12], -1 & ~((int64{1} << 61) - 1));
  int64 x = 0;
  for (uint64 g = 0; g < kGatheringTotal; ++g)
    x ^= static_cast<int64>(g);
  EXPECT_EQ(words[13], x);
  EXPECT_EQ(halves[0], 0.5 * static_cast<double>(kGatheringTotal));
  EXPECT_EQ(halves[1], static_cast<double>(kGatheringTotal - 1));
}

// One thread's atomics on one element keep its order: add 1, max with 10, add 1 gives 11 (the
// adds first would give 10).
void programOrderBlock(Block& block, void** args) {
  auto& word = argument<Vector<int32>>(args, 0);
  decide_deferral(block, {extent_of(word)}, {});
  const Context ctx = blockContext(block);
  gathered<atomic_op::Add>(ctx, &word(block.blockIdx.x), int32{1});
  gathered<atomic_op::Max>(ctx, &word(block.blockIdx.x), int32{10});
  gathered<atomic_op::Add>(ctx, &word(block.blockIdx.x), int32{1});
}

TEST(CpuDeferredAtomics, AThreadsAtomicsOnOneElementKeepItsOrder) {
  std::vector<int32> words(kGatheringBlocks, 0);
  auto w = viewOf(words);
  void* args[] = {&w};
  cpuTestEngine().launch(loopKernel("program_order", programOrderBlock), Dim3{kGatheringBlocks},
                         Dim3{1}, 0, 0, args);
  for (uint32 b = 0; b < kGatheringBlocks; ++b)
    ASSERT_EQ(words[b], 11) << "block " << b;
}

// A float sum gathered is the sum in one order of the atomics: with every operand 1 and a start
// of 2^24, float32 rounding drops each one (2^24 + 1 rounds to 2^24), which a re-associated sum
// of the operands (kGatheringTotal, exact) would not.
void floatOrderBlock(Block& block, void** args) {
  auto& total = argument<Vector<float32>>(args, 0);
  decide_deferral(block, {extent_of(total)}, {});
  const Context ctx = blockContext(block);
  for (uint32 t = 0; t < kGatheringThreads; ++t)
    gathered<atomic_op::Add>(ctx, &total(0), 1.0f);
}

TEST(CpuDeferredAtomics, AFloatSumIsTheAtomicsOneAfterAnother) {
  std::vector<float32> total = {16777216.0f};
  auto t = viewOf(total);
  void* args[] = {&t};
  cpuTestEngine().launch(loopKernel("float_order", floatOrderBlock), Dim3{kGatheringBlocks},
                         Dim3{kGatheringThreads}, 0, 0, args);
  EXPECT_EQ(total[0], 16777216.0f);
}

// Arguments that overlap a gathered array (or one another) turn gathering off: every atomic runs
// at once.
void overlapBlock(Block& block, void** args) {
  auto& total = argument<Vector<int64>>(args, 0);
  auto& alias = argument<Vector<int64>>(args, 1);
  auto& enabled = argument<Vector<int32>>(args, 2);
  decide_deferral(block, {extent_of(total)}, {extent_of(alias), extent_of(enabled)});
  enabled(static_cast<int64>(block.blockIdx.x)) = block.deferred->enabled;
  const Context ctx = blockContext(block);
  deferred_atomic<atomic_op::Add>(ctx, &total(0), int64{1},
                                  [](int64* p, int64 v) { atomic_add(p, v); });
}

TEST(CpuDeferredAtomics, OverlappingArgumentsTurnGatheringOff) {
  std::vector<int64> words(4, 0);
  std::vector<int32> enabled(kGatheringBlocks, -7);
  Vector<int64> total = viewOf(words);
  Vector<int64> tail{words.data() + 1, {3}, {8}}; // overlaps total's elements 1..3
  Vector<int64> apart{words.data() + 3, {1}, {8}};
  Vector<int64> totalHead{words.data(), {3}, {8}}; // total is elements 0..2 here
  auto e = viewOf(enabled);
  void* overlapping[] = {&total, &tail, &e};
  cpuTestEngine().launch(loopKernel("overlap", overlapBlock), Dim3{kGatheringBlocks}, Dim3{1}, 0, 0,
                         overlapping);
  for (int32 on : enabled)
    ASSERT_EQ(on, 0);
  EXPECT_EQ(words[0], static_cast<int64>(kGatheringBlocks));
  void* disjoint[] = {&totalHead, &apart, &e};
  cpuTestEngine().launch(loopKernel("overlap", overlapBlock), Dim3{kGatheringBlocks}, Dim3{1}, 0, 0,
                         disjoint);
  for (int32 on : enabled)
    ASSERT_EQ(on, 1);
  EXPECT_EQ(words[0], 2 * static_cast<int64>(kGatheringBlocks));
}

TEST(CpuDeferredAtomics, ExtentsOfStridedAndEmptyArrays) {
  int64 data[12] = {};
  const Array<int64, 2, Layout::A> reversed{data + 11, {3, 4}, {-32, -8}};
  const ByteExtent r = extent_of(reversed);
  EXPECT_EQ(r.begin, reinterpret_cast<uintptr_t>(data));
  EXPECT_EQ(r.end, reinterpret_cast<uintptr_t>(data + 12));
  const Array<int64, 1, Layout::A> empty{data, {0}, {8}};
  const ByteExtent e = extent_of(empty);
  EXPECT_EQ(e.begin, e.end);
}

} // namespace
} // namespace pyk::cpu::testing
