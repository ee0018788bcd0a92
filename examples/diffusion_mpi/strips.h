// strips: the 2-D field cut into strips of whole rows, one per rank, each held with a halo row
// from each neighbour it has. Rows are C order's contiguous axis-0 slices, so a halo is one
// contiguous message. Sizes differ by at most one row (the first `rows % ranks` strips have the
// extra one). Pure arithmetic, without MPI (tests/mpi/StripsTest.cpp checks it).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace diffusion_mpi {

struct Strip {
  int rank = 0, ranks = 1;
  std::int64_t firstRow = 0; // the global index of the strip's first own row
  std::int64_t rows = 0;     // own rows
  bool haloAbove = false;    // a row from rank - 1 sits before the own rows
  bool haloBelow = false;    // a row from rank + 1 sits after them
  // The rank above and below (-1: none, the field's edge, where the kernel's zero-flux boundary
  // applies as in one process).
  int above() const { return haloAbove ? rank - 1 : -1; }
  int below() const { return haloBelow ? rank + 1 : -1; }
  // Rows of the local array: the own rows and the halos.
  std::int64_t localRows() const { return rows + (haloAbove ? 1 : 0) + (haloBelow ? 1 : 0); }
  // The local index of the first own row, and one past the last.
  std::int64_t ownBegin() const { return haloAbove ? 1 : 0; }
  std::int64_t ownEnd() const { return ownBegin() + rows; }
};

// Rank `rank`'s strip of a field of `totalRows` rows over `ranks` ranks. Throws
// std::invalid_argument when a rank would own no row.
inline Strip stripOf(std::int64_t totalRows, int ranks, int rank) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    throw std::invalid_argument("rank " + std::to_string(rank) + " of " + std::to_string(ranks));
  if (totalRows < ranks)
    throw std::invalid_argument("a field of " + std::to_string(totalRows) +
                                " rows cannot be cut into " + std::to_string(ranks) +
                                " strips of at least one row");
  Strip s;
  s.rank = rank;
  s.ranks = ranks;
  const std::int64_t base = totalRows / ranks, extra = totalRows % ranks;
  s.rows = base + (rank < extra ? 1 : 0);
  s.firstRow = rank * base + (rank < extra ? rank : extra);
  s.haloAbove = rank > 0;
  s.haloBelow = rank < ranks - 1;
  return s;
}

} // namespace diffusion_mpi
