// lanes.h: numba.cuda.laneid and lanemask_lt on the device. Device code only: empty on the host,
// where the CPU backend's are cpu/warp.h's.
#pragma once

#include "../common/scalar_types.h"

#if PYK_CUDA

namespace pyk {

// numba.cuda.laneid and lanemask_lt read PTX's special registers.
__device__ inline int32 laneid() {
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return static_cast<int32>(lane);
}
__device__ inline uint32 lanemask_lt() {
  unsigned int mask;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

} // namespace pyk

#endif
