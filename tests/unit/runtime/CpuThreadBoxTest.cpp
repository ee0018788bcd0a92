// CpuThreadBoxTest: pyk_cpu_support.h's ThreadBox, the threads a narrowed split region runs:
// every comparison against bounds below, inside and beyond the block, hulls, and a ranged loop
// that visits exactly the box's threads in linear order, skipping exited ones.
#include "CpuTestEngine.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace pyk::cpu::testing {
namespace {

Context contextOf(Dim3 blockDim) {
  Context c{};
  c.blockDim = blockDim;
  c.gridDim = Dim3{1, 1, 1};
  return c;
}

// The x range [lo, hi) a 1-D block of 16 keeps for `x op bound`, checked against the predicate.
void expectMatchesPredicate(char op, int64 bound) {
  ThreadBox box = ThreadBox::whole(contextOf(Dim3{16}));
  box.narrow(0, op, bound);
  for (int64 x = 0; x < 16; ++x) {
    const bool holds = op == '<'   ? x < bound
                       : op == 'l' ? x <= bound
                       : op == '>' ? x > bound
                       : op == 'g' ? x >= bound
                                   : x == bound;
    const bool inside = !box.empty() && x >= box.lo[0] && x < box.hi[0];
    EXPECT_EQ(inside, holds) << "x " << x << " op " << op << " bound " << bound;
  }
  EXPECT_LE(0, box.lo[0]);
  EXPECT_LE(box.hi[0], 16);
}

TEST(CpuThreadBox, EveryComparisonKeepsExactlyTheThreadsItHoldsFor) {
  const int64 bounds[] = {std::numeric_limits<int64>::min(), -5, -1, 0, 1, 7, 15, 16, 17, 1000,
                          std::numeric_limits<int64>::max()};
  for (char op : {'<', 'l', '>', 'g', '='})
    for (int64 b : bounds)
      expectMatchesPredicate(op, b);
}

TEST(CpuThreadBox, HullHoldsBothBoxesAndNoneIsEmpty) {
  const Context c = contextOf(Dim3{16, 8});
  ThreadBox a = ThreadBox::whole(c), b = ThreadBox::whole(c), hull = ThreadBox::none();
  EXPECT_TRUE(hull.empty());
  a.narrow(0, '=', 3);
  b.narrow(1, 'g', 6);
  hull.include(a);
  hull.include(b);
  EXPECT_EQ(hull.lo[0], 0);
  EXPECT_EQ(hull.hi[0], 16);
  EXPECT_EQ(hull.lo[1], 0);
  EXPECT_EQ(hull.hi[1], 8);
  ThreadBox empty = ThreadBox::whole(c);
  empty.narrow(0, '<', 0);
  ThreadBox kept = a;
  kept.include(empty);
  EXPECT_EQ(kept.lo[0], 3);
  EXPECT_EQ(kept.hi[0], 4);
}

TEST(CpuThreadBox, RangedLoopVisitsTheBoxInLinearOrderSkippingExitedThreads) {
  Context c = contextOf(Dim3{8, 4, 2});
  ThreadBox box = ThreadBox::whole(c);
  box.narrow(0, 'g', 2);
  box.narrow(0, '<', 5);
  box.narrow(2, '=', 1);
  uint8 exited[64] = {};
  exited[3 + 8 * (1 + 4 * 1)] = 1;
  std::vector<uint32> seen;
  forEachThreadIn(c, exited, box, [&](Context& thread, uint32 linear) {
    EXPECT_EQ(linear, thread.threadIdx.x + 8 * (thread.threadIdx.y + 4 * thread.threadIdx.z));
    seen.push_back(linear);
  });
  std::vector<uint32> expected;
  for (uint32 y = 0; y < 4; ++y)
    for (uint32 x = 2; x < 5; ++x)
      if (!(x == 3 && y == 1))
        expected.push_back(x + 8 * (y + 4 * 1));
  EXPECT_EQ(seen, expected);
}

} // namespace
} // namespace pyk::cpu::testing
