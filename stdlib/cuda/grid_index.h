// grid_index.h: a thread's global index on an axis (cuda.grid, blockIdx * blockDim + threadIdx)
// and the grid's size in threads (cuda.gridsize), as numba's int64. Under PYK_INDEX32 (the
// variant the runtime launches when each grid axis has fewer than 2**31 threads, checked at
// launch) they are computed in 32 bits and widened: the same values, with less arithmetic.
#pragma once

#include "../common/scalar_types.h"
#include "../common/target_macros.h"

#if PYK_CUDA
namespace pyk {

__device__ inline int64 grid_index(unsigned block, unsigned blockDim, unsigned thread) {
#ifdef PYK_INDEX32
  return static_cast<int32>(block * blockDim + thread);
#else
  return static_cast<int64>(block) * blockDim + thread;
#endif
}

__device__ inline int64 grid_size(unsigned blockDim, unsigned gridDim) {
#ifdef PYK_INDEX32
  return static_cast<int32>(blockDim * gridDim);
#else
  return static_cast<int64>(blockDim) * gridDim;
#endif
}

} // namespace pyk
#endif
