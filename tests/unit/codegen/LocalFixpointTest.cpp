// LocalFixpoint: passes repeat until one changes nothing; demotions and admissions take effect
// at once, within the pass that makes them.
#include <gtest/gtest.h>

#include "codegen/cpu/LocalFixpoint.h"

namespace pyk::codegen {
namespace {

TEST(LocalFixpoint, DemotionPropagatesAlongAChainUntilStable) {
  // local i+1 loses the property when local i has lost it; local 0 starts without it. Passes
  // visit the chain from its end, so each pass demotes one more local.
  LocalFixpoint f(4);
  for (size_t i = 1; i < 4; ++i)
    f.admit(i);
  int passes = 0;
  f.solve([&] {
    ++passes;
    for (size_t i = 3; i >= 1; --i)
      if (!f.holds(i - 1))
        f.demote(i);
  });
  EXPECT_EQ(f.members(), LocalSet{});
  EXPECT_EQ(passes, 4); // three that demote, one that finds nothing to change
}

TEST(LocalFixpoint, AdmissionReachesEveryLocalWhoseDependenciesHold) {
  // 2 needs 1, 1 needs 0, 3 needs itself: 3 is never admitted.
  LocalFixpoint f(4);
  f.solve([&] {
    if (!f.holds(0))
      f.admit(0);
    if (f.holds(0) && !f.holds(1))
      f.admit(1);
    if (f.holds(1) && !f.holds(2))
      f.admit(2);
    if (f.holds(3))
      f.admit(3);
  });
  EXPECT_EQ(f.members(), (LocalSet{0, 1, 2}));
  EXPECT_FALSE(f.holds(3));
  EXPECT_FALSE(f.holds(17)); // out of range: never
}

TEST(LocalFixpoint, APassThatChangesNothingRunsOnce) {
  LocalFixpoint f(2);
  f.admit(1);
  int passes = 0;
  f.solve([&] {
    ++passes;
    f.admit(1);  // already holds: no change
    f.demote(0); // already without: no change
  });
  EXPECT_EQ(passes, 1);
  EXPECT_EQ(f.members(), LocalSet{1});
}

} // namespace
} // namespace pyk::codegen
