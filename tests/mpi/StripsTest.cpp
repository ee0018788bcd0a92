// StripsTest: examples/diffusion_mpi's strips: every row owned by one rank, in order, sizes within
// one of each other, halos exactly where a neighbour is, and a field too small refused.
#include "strips.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using diffusion_mpi::Strip;
using diffusion_mpi::stripOf;

TEST(Strips, EveryRowOnceInRankOrderWithinOneRowOfEachOther) {
  for (std::int64_t rows : {1, 2, 7, 8, 250, 2000, 2003})
    for (int ranks = 1; ranks <= 9 && ranks <= rows; ++ranks) {
      std::int64_t next = 0, smallest = rows, largest = 0;
      for (int r = 0; r < ranks; ++r) {
        const Strip s = stripOf(rows, ranks, r);
        EXPECT_EQ(s.firstRow, next) << rows << " rows, rank " << r << " of " << ranks;
        EXPECT_GE(s.rows, 1);
        next += s.rows;
        smallest = std::min(smallest, s.rows);
        largest = std::max(largest, s.rows);
      }
      EXPECT_EQ(next, rows);
      EXPECT_LE(largest - smallest, 1);
    }
}

TEST(Strips, HalosWhereANeighbourIs) {
  const Strip only = stripOf(10, 1, 0);
  EXPECT_FALSE(only.haloAbove || only.haloBelow);
  EXPECT_EQ(only.localRows(), 10);
  EXPECT_EQ(only.above(), -1);
  EXPECT_EQ(only.below(), -1);

  const Strip first = stripOf(10, 3, 0); // rows 0-3
  EXPECT_EQ(first.rows, 4);
  EXPECT_EQ(first.localRows(), 5);
  EXPECT_EQ(first.ownBegin(), 0);
  EXPECT_EQ(first.ownEnd(), 4); // the halo below is local row 4
  EXPECT_EQ(first.above(), -1);
  EXPECT_EQ(first.below(), 1);

  const Strip middle = stripOf(10, 3, 1); // rows 4-6
  EXPECT_EQ(middle.firstRow, 4);
  EXPECT_EQ(middle.localRows(), 5);
  EXPECT_EQ(middle.ownBegin(), 1);
  EXPECT_EQ(middle.ownEnd(), 4);
  EXPECT_EQ(middle.above(), 0);
  EXPECT_EQ(middle.below(), 2);

  const Strip last = stripOf(10, 3, 2); // rows 7-9
  EXPECT_EQ(last.firstRow, 7);
  EXPECT_EQ(last.localRows(), 4);
  EXPECT_EQ(last.ownBegin(), 1);
  EXPECT_EQ(last.above(), 1);
  EXPECT_EQ(last.below(), -1);
}

TEST(Strips, AFieldWithFewerRowsThanRanksIsRefused) {
  EXPECT_THROW(stripOf(3, 4, 0), std::invalid_argument);
  EXPECT_THROW(stripOf(10, 2, 2), std::invalid_argument);
  EXPECT_THROW(stripOf(10, 0, 0), std::invalid_argument);
}

} // namespace
