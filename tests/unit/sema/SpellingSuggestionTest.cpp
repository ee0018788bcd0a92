// SpellingSuggestionTest: edit distance and did-you-mean candidates.
#include <gtest/gtest.h>

#include "sema/resolve/SpellingSuggestion.h"

namespace pyk::sema {
namespace {

TEST(SpellingSuggestion, EditDistance) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("abc", ""), 3u);
  EXPECT_EQ(editDistance("flaot32", "float32"), 1u); // a transposition counts once
  EXPECT_EQ(editDistance("syncthread", "syncthreads"), 1u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
}

TEST(SpellingSuggestion, Closest) {
  std::vector<std::string> names = {"grid", "gridsize", "syncthreads", "threadIdx"};
  EXPECT_EQ(closestSpelling("gird", names), "grid");
  EXPECT_EQ(closestSpelling("syncthread", names), "syncthreads");
  EXPECT_EQ(closestSpelling("threadidx", names), "threadIdx");
  EXPECT_EQ(closestSpelling("banana", names), std::nullopt);
  EXPECT_EQ(closestSpelling("grid", names), std::nullopt); // itself is not a suggestion
  EXPECT_EQ(closestSpelling("x", {"y", "xy"}), "y");
}

} // namespace
} // namespace pyk::sema
