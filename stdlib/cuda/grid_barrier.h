// grid_barrier.h: `cuda.cg.this_grid().sync()` on the device, a barrier over every thread of a
// cooperative launch. Device code only: empty on the host, where the CPU backend's is
// cpu/barriers.h's.
#pragma once

#include "../common/target_macros.h"

#if PYK_CUDA

namespace pyk {

// The grid barrier's state, one per module (zero when the module loads). `count` blocks have
// arrived at the current barrier; `generation` counts completed barriers, so the state is
// reusable barrier after barrier and launch after launch.
__device__ unsigned int pyk_grid_barrier_count;
__device__ volatile unsigned int pyk_grid_barrier_generation;

// `g.sync()`: every thread of the grid waits until all have arrived, and memory written before
// is visible after (CUDA's grid.sync()). The kernel must be launched cooperatively (every block
// resident at once, cuLaunchCooperativeKernel): codegen marks such kernels
// (EmittedUnit::cooperative) for the launcher; numba's cudaCGSynchronize needs the same. One thread
// per block arrives for its block: it reads the generation, arrives, and the last block to arrive
// resets the count and starts the next generation while the others spin on the generation.
__device__ inline void grid_sync() {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    const unsigned int generation = pyk_grid_barrier_generation;
    __threadfence();
    if (atomicAdd(&pyk_grid_barrier_count, 1u) == blocks - 1) {
      atomicExch(&pyk_grid_barrier_count, 0u);
      __threadfence();
      atomicAdd(const_cast<unsigned int*>(&pyk_grid_barrier_generation), 1u);
    } else {
      while (pyk_grid_barrier_generation == generation) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

} // namespace pyk

#endif
