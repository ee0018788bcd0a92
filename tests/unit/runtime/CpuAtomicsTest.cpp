// CpuAtomicsTest: pyk_cpu_support.h's host atomics: every operation under contention from many
// blocks on several workers, numba's NaN rules for float max/min, CUDA's inc/dec wrap-around.
#include "CpuTestEngine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace pyk::cpu::testing {
namespace {

constexpr uint32 kBlocks = 256;
constexpr uint32 kThreads = 128;
constexpr uint64 kTotal = uint64{kBlocks} * kThreads;

template <typename T>
void launchContended(const char* name, void (*entry)(Block&, void**), void** args) {
  cpuTestEngine().launch(loopKernel(name, entry), Dim3{kBlocks}, Dim3{kThreads}, 0, 0, args);
}

template <typename T>
constexpr T stepOf() {
  return std::is_floating_point_v<T> ? T(0.5) : T(1);
}

// ---- add, sub ----------------------------------------------------------------------------------

// Every thread adds a step to words[0], subtracts 2 from words[1], and records the old value its
// add returned (each old value must come back exactly once).
template <typename T>
void addSubBlock(Block& block, void** args) {
  auto& words = argument<Vector<T>>(args, 0);
  auto& olds = argument<Vector<T>>(args, 1);
  forEachThread(block, [&](Dim3 threadIdx) {
    const T old = atomic_add(&words(0), stepOf<T>());
    olds(static_cast<int64>(globalLinearIndex(block, threadIdx))) = old;
    atomic_sub(&words(1), T(2));
  });
}

template <typename T>
void expectAddSub() {
  std::vector<T> words = {T(0), T(0)};
  std::vector<T> olds(kTotal);
  auto wordsView = viewOf(words), oldsView = viewOf(olds);
  void* args[] = {&wordsView, &oldsView};
  launchContended<T>("add_sub", addSubBlock<T>, args);
  EXPECT_EQ(words[0], static_cast<T>(stepOf<T>() * static_cast<T>(kTotal)));
  EXPECT_EQ(words[1], static_cast<T>(T(0) - static_cast<T>(2 * kTotal))); // unsigned wraps
  std::sort(olds.begin(), olds.end());
  for (uint64 i = 0; i < kTotal; ++i)
    ASSERT_EQ(olds[i], static_cast<T>(stepOf<T>() * static_cast<T>(i))) << "old value " << i;
}

TEST(CpuAtomics, AddAndSubUnderContention) {
  expectAddSub<int32>();
  expectAddSub<int64>();
  expectAddSub<uint32>();
  expectAddSub<uint64>();
  expectAddSub<float>();
  expectAddSub<double>();
}

TEST(CpuAtomics, IntegerAddAndSubWrap) {
  int32 word = std::numeric_limits<int32>::max();
  EXPECT_EQ(atomic_add(&word, 1), std::numeric_limits<int32>::max());
  EXPECT_EQ(word, std::numeric_limits<int32>::min());
  uint64 unsignedWord = 0;
  EXPECT_EQ(atomic_sub(&unsignedWord, uint64{1}), 0u);
  EXPECT_EQ(unsignedWord, std::numeric_limits<uint64>::max());
}

// ---- max, min, and, or, xor --------------------------------------------------------------------

// What thread `global` offers: a scrambled value, negative for a third of the signed threads.
template <typename T>
T offered(uint64 global) {
  const uint64 scrambled = (global * 7919) % kTotal;
  if constexpr (std::is_unsigned_v<T>)
    return static_cast<T>(scrambled * 1000003);
  else
    return static_cast<T>(static_cast<int64>(scrambled) - static_cast<int64>(kTotal / 3));
}

template <typename T>
void maxMinBitsBlock(Block& block, void** args) {
  auto& words = argument<Vector<T>>(args, 0);
  forEachThread(block, [&](Dim3 threadIdx) {
    const uint64 global = globalLinearIndex(block, threadIdx);
    atomic_max(&words(0), offered<T>(global));
    atomic_min(&words(1), offered<T>(global));
    if constexpr (!std::is_floating_point_v<T>) {
      atomic_or(&words(2), static_cast<T>(T(1) << (global % (8 * sizeof(T) - 1))));
      atomic_and(&words(3), static_cast<T>(~(T(1) << (global % 13))));
      atomic_xor(&words(4), static_cast<T>(global * 2654435761u));
    }
  });
}

template <typename T>
void expectMaxMinBits() {
  T allOnes = T(0);
  if constexpr (!std::is_floating_point_v<T>)
    allOnes = static_cast<T>(~T(0));
  std::vector<T> words = {offered<T>(0), offered<T>(0), T(0), allOnes, T(0)};
  std::vector<T> expected = words;
  for (uint64 g = 0; g < kTotal; ++g) {
    expected[0] = std::max(expected[0], offered<T>(g));
    expected[1] = std::min(expected[1], offered<T>(g));
    if constexpr (!std::is_floating_point_v<T>) {
      expected[2] = static_cast<T>(expected[2] | (T(1) << (g % (8 * sizeof(T) - 1))));
      expected[3] = static_cast<T>(expected[3] & ~(T(1) << (g % 13)));
      expected[4] = static_cast<T>(expected[4] ^ static_cast<T>(g * 2654435761u));
    }
  }
  auto view = viewOf(words);
  void* args[] = {&view};
  launchContended<T>("max_min_bits", maxMinBitsBlock<T>, args);
  EXPECT_EQ(words, expected);
}

TEST(CpuAtomics, MaxMinAndBitwiseUnderContention) {
  expectMaxMinBits<int32>();
  expectMaxMinBits<int64>();
  expectMaxMinBits<uint32>();
  expectMaxMinBits<uint64>();
  expectMaxMinBits<float>();
  expectMaxMinBits<double>();
}

// ---- float max/min and NaN ---------------------------------------------------------------------

template <typename F>
void expectNanRules() {
  const F nan = std::numeric_limits<F>::quiet_NaN();
  F word = nan; // max/min: a NaN in memory stays
  EXPECT_TRUE(std::isnan(atomic_fmax(&word, F(1))));
  EXPECT_TRUE(std::isnan(word));
  EXPECT_TRUE(std::isnan(atomic_fmin(&word, F(1))));
  EXPECT_TRUE(std::isnan(word));
  EXPECT_TRUE(std::isnan(atomic_max(&word, F(1)))); // max of floats is fmax
  EXPECT_TRUE(std::isnan(word));
  word = F(2); // max/min: a NaN operand changes nothing
  EXPECT_EQ(atomic_fmax(&word, nan), F(2));
  EXPECT_EQ(word, F(2));
  EXPECT_EQ(atomic_fmin(&word, nan), F(2));
  EXPECT_EQ(word, F(2));
  EXPECT_EQ(atomic_fmax(&word, F(3)), F(2));
  EXPECT_EQ(word, F(3));
  EXPECT_EQ(atomic_min(&word, F(-1)), F(3));
  EXPECT_EQ(word, F(-1));
  word = nan; // nanmax/nanmin: a NaN in memory is replaced
  EXPECT_TRUE(std::isnan(atomic_nanmax(&word, F(5))));
  EXPECT_EQ(word, F(5));
  EXPECT_EQ(atomic_nanmax(&word, nan), F(5)); // and a NaN operand is ignored
  EXPECT_EQ(word, F(5));
  EXPECT_EQ(atomic_nanmax(&word, F(4)), F(5));
  EXPECT_EQ(word, F(5));
  word = nan;
  EXPECT_TRUE(std::isnan(atomic_nanmin(&word, F(5))));
  EXPECT_EQ(word, F(5));
  EXPECT_EQ(atomic_nanmin(&word, nan), F(5));
  EXPECT_EQ(atomic_nanmin(&word, F(-7)), F(5));
  EXPECT_EQ(word, F(-7));
  word = nan; // NaN meets NaN: NaN
  EXPECT_TRUE(std::isnan(atomic_nanmax(&word, nan)));
  EXPECT_TRUE(std::isnan(word));
}

TEST(CpuAtomics, FloatMaxMinFollowNumbasNanRules) {
  expectNanRules<float>();
  expectNanRules<double>();
}

// Every fourth thread offers NaN: nanmax/nanmin find the extremes of the rest; max/min that start
// from NaN keep it.
template <typename F>
void nanContentionBlock(Block& block, void** args) {
  auto& words = argument<Vector<F>>(args, 0);
  forEachThread(block, [&](Dim3 threadIdx) {
    const uint64 global = globalLinearIndex(block, threadIdx);
    const F value = global % 4 == 0 ? std::numeric_limits<F>::quiet_NaN() : offered<F>(global);
    atomic_nanmax(&words(0), value);
    atomic_nanmin(&words(1), value);
    atomic_fmax(&words(2), value);
    atomic_fmin(&words(3), value);
  });
}

template <typename F>
void expectNanContention() {
  const F nan = std::numeric_limits<F>::quiet_NaN();
  std::vector<F> words = {nan, nan, nan, F(0)};
  F high = -std::numeric_limits<F>::infinity(), low = std::numeric_limits<F>::infinity();
  for (uint64 g = 0; g < kTotal; ++g)
    if (g % 4 != 0) {
      high = std::max(high, offered<F>(g));
      low = std::min(low, offered<F>(g));
    }
  auto view = viewOf(words);
  void* args[] = {&view};
  launchContended<F>("nan_contention", nanContentionBlock<F>, args);
  EXPECT_EQ(words[0], high);
  EXPECT_EQ(words[1], low);
  EXPECT_TRUE(std::isnan(words[2]));
  EXPECT_EQ(words[3], std::min(F(0), low));
}

TEST(CpuAtomics, NanMaxMinUnderContention) {
  expectNanContention<float>();
  expectNanContention<double>();
}

// ---- inc, dec ----------------------------------------------------------------------------------

template <typename T>
void incDecBlock(Block& block, void** args) {
  auto& words = argument<Vector<T>>(args, 0);
  forEachThread(block, [&](Dim3) {
    atomic_inc(&words(0), T(1000));
    atomic_dec(&words(1), T(1000));
  });
}

template <typename T>
void expectIncDec() {
  std::vector<T> words = {T(0), T(0)};
  auto view = viewOf(words);
  void* args[] = {&view};
  launchContended<T>("inc_dec", incDecBlock<T>, args);
  EXPECT_EQ(words[0], static_cast<T>(kTotal % 1001));                 // 0, 1, ..., 1000, 0, ...
  EXPECT_EQ(words[1], static_cast<T>((1001 - kTotal % 1001) % 1001)); // 0, 1000, 999, ..., 0, ...
  T word = 1000; // inc: the old value reaching the limit wraps to 0
  EXPECT_EQ(atomic_inc(&word, T(1000)), T(1000));
  EXPECT_EQ(word, T(0));
  word = 5000; // ... or exceeding it
  EXPECT_EQ(atomic_inc(&word, T(1000)), T(5000));
  EXPECT_EQ(word, T(0));
  word = 5000; // dec: above the limit gives the limit
  EXPECT_EQ(atomic_dec(&word, T(1000)), T(5000));
  EXPECT_EQ(word, T(1000));
  word = 0; // dec: 0 gives the limit
  EXPECT_EQ(atomic_dec(&word, T(7)), T(0));
  EXPECT_EQ(word, T(7));
  word = 3;
  EXPECT_EQ(atomic_dec(&word, T(7)), T(3));
  EXPECT_EQ(word, T(2));
}

TEST(CpuAtomics, IncAndDecWrapAsCudas) {
  expectIncDec<uint32>();
  expectIncDec<uint64>();
}

// ---- exch, cas ---------------------------------------------------------------------------------

// Thread g swaps g + 1 in; the old values and the final one are 0, 1, ..., kTotal exactly once.
template <typename T>
void exchangeBlock(Block& block, void** args) {
  auto& words = argument<Vector<T>>(args, 0);
  auto& olds = argument<Vector<T>>(args, 1);
  forEachThread(block, [&](Dim3 threadIdx) {
    const uint64 global = globalLinearIndex(block, threadIdx);
    olds(static_cast<int64>(global)) = atomic_exch(&words(0), static_cast<T>(global + 1));
  });
}

template <typename T>
void expectExchange() {
  std::vector<T> words = {T(0)};
  std::vector<T> olds(kTotal + 1);
  auto wordsView = viewOf(words), oldsView = viewOf(olds);
  void* args[] = {&wordsView, &oldsView};
  launchContended<T>("exchange", exchangeBlock<T>, args);
  olds[kTotal] = words[0];
  std::sort(olds.begin(), olds.end());
  for (uint64 i = 0; i <= kTotal; ++i)
    ASSERT_EQ(olds[i], static_cast<T>(i));
}

// Every thread increments the word through a compare-and-swap loop.
template <typename T>
void casIncrementBlock(Block& block, void** args) {
  auto& words = argument<Vector<T>>(args, 0);
  forEachThread(block, [&](Dim3) {
    T expected = words(0);
    for (;;) {
      const T seen = atomic_cas(&words(0), expected, static_cast<T>(expected + T(1)));
      if (seen == expected)
        break;
      expected = seen;
    }
  });
}

template <typename T>
void expectCas() {
  std::vector<T> words = {T(0)};
  auto view = viewOf(words);
  void* args[] = {&view};
  launchContended<T>("cas_increment", casIncrementBlock<T>, args);
  EXPECT_EQ(words[0], static_cast<T>(kTotal));
  T word = 5; // a failed swap returns the current value and stores nothing
  EXPECT_EQ(atomic_cas(&word, T(4), T(9)), T(5));
  EXPECT_EQ(word, T(5));
  EXPECT_EQ(atomic_cas(&word, T(5), T(9)), T(5));
  EXPECT_EQ(word, T(9));
}

TEST(CpuAtomics, ExchangeAndCompareAndSwapUnderContention) {
  expectExchange<int32>();
  expectExchange<uint64>();
  expectExchange<double>();
  expectCas<int32>();
  expectCas<int64>();
  expectCas<uint32>();
  expectCas<uint64>();
  expectCas<float>();
  expectCas<double>();
}

// ---- the block's own memory ---------------------------------------------------------------------

// What an operation leaves in memory and returns, on a word of device memory (an atomic
// instruction) and on the block's shared memory (pyk::block_memory: a plain read-modify-write):
// the same, wrap-around, NaN rules and inc/dec limits included.
template <typename T, typename Op>
void expectSameInBlockMemory(const char* what, T start, Op op) {
  T device = start, block = start;
  const T oldDevice = op(&device, DeviceMemory{});
  const T oldBlock = op(&block, block_memory);
  const bool same = std::memcmp(&device, &block, sizeof(T)) == 0 &&
                    std::memcmp(&oldDevice, &oldBlock, sizeof(T)) == 0;
  EXPECT_TRUE(same) << what << " from " << +start << ": device memory " << +device << " (old "
                    << +oldDevice << "), block memory " << +block << " (old " << +oldBlock << ")";
}

template <typename T>
void expectIntegerOpsInBlockMemory() {
  const T big = std::numeric_limits<T>::max(), small = std::numeric_limits<T>::min();
  for (T start : {T(0), T(5), big, small}) {
    expectSameInBlockMemory("add", start, [](T* p, auto m) { return atomic_add(p, T(7), m); });
    expectSameInBlockMemory("sub", start, [](T* p, auto m) { return atomic_sub(p, T(7), m); });
    expectSameInBlockMemory("and", start, [](T* p, auto m) { return atomic_and(p, T(6), m); });
    expectSameInBlockMemory("or", start, [](T* p, auto m) { return atomic_or(p, T(6), m); });
    expectSameInBlockMemory("xor", start, [](T* p, auto m) { return atomic_xor(p, T(6), m); });
    expectSameInBlockMemory("exch", start, [](T* p, auto m) { return atomic_exch(p, T(3), m); });
    expectSameInBlockMemory("max", start, [](T* p, auto m) { return atomic_max(p, T(3), m); });
    expectSameInBlockMemory("min", start, [](T* p, auto m) { return atomic_min(p, T(3), m); });
    expectSameInBlockMemory("cas hit", start,
                            [start](T* p, auto m) { return atomic_cas(p, start, T(9), m); });
    expectSameInBlockMemory("cas miss", start,
                            [](T* p, auto m) { return atomic_cas(p, T(1), T(9), m); });
    if constexpr (std::is_unsigned_v<T>) {
      expectSameInBlockMemory("inc", start, [](T* p, auto m) { return atomic_inc(p, T(5), m); });
      expectSameInBlockMemory("dec", start, [](T* p, auto m) { return atomic_dec(p, T(5), m); });
    }
  }
}

template <typename T>
void expectFloatOpsInBlockMemory() {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (T start : {T(0), T(-2.5), nan}) {
    for (T v : {T(1.5), nan}) {
      expectSameInBlockMemory("add", start, [v](T* p, auto m) { return atomic_add(p, v, m); });
      expectSameInBlockMemory("max", start, [v](T* p, auto m) { return atomic_max(p, v, m); });
      expectSameInBlockMemory("min", start, [v](T* p, auto m) { return atomic_min(p, v, m); });
      expectSameInBlockMemory("nanmax", start,
                              [v](T* p, auto m) { return atomic_nanmax(p, v, m); });
      expectSameInBlockMemory("nanmin", start,
                              [v](T* p, auto m) { return atomic_nanmin(p, v, m); });
      expectSameInBlockMemory("cas", start,
                              [v](T* p, auto m) { return atomic_cas(p, T(0), v, m); });
    }
  }
}

TEST(CpuAtomics, BlockMemoryGivesWhatTheAtomicInstructionGives) {
  expectIntegerOpsInBlockMemory<int32>();
  expectIntegerOpsInBlockMemory<int64>();
  expectIntegerOpsInBlockMemory<uint32>();
  expectIntegerOpsInBlockMemory<uint64>();
  expectFloatOpsInBlockMemory<float32>();
  expectFloatOpsInBlockMemory<float64>();
}

} // namespace
} // namespace pyk::cpu::testing
