// dynamic_shared_memory.h: `cuda.shared.array(0, T)` on the device. Device code only: empty on
// the host, where the CPU backend's is cpu/shared_memory.h's.
#pragma once

#include "../common/arrays.h"

#if PYK_CUDA

namespace pyk {

// Dynamic shared memory (`cuda.shared.array(0, T)`): one buffer that every such array aliases;
// its length comes from the launch's shared-memory size, as numba-cuda reads it.
extern __shared__ __align__(16) unsigned char pyk_dynamic_shared[];
__device__ inline uint32 dynamic_shared_bytes() {
  unsigned int bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}
template <typename T>
__device__ Array<T, 1, Layout::C> dynamic_shared_array() {
  return {reinterpret_cast<T*>(pyk_dynamic_shared),
          {static_cast<int64>(dynamic_shared_bytes() / sizeof(T))},
          {static_cast<int64>(sizeof(T))}};
}

} // namespace pyk

#endif
