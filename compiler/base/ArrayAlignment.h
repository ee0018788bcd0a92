// ArrayAlignment: the largest `alignment=` a shared or local array may ask for (numba-cuda's
// keyword of cuda.shared.array and cuda.local.array): typing refuses more, and the CPU backend
// allocates each block's shared memory aligned to it, so that an offset aligned to the array's
// alignment is an address aligned to it.
#pragma once

#include <cstdint>

namespace pyk::types {

inline constexpr int64_t kMaxArrayAlignment = 4096;

} // namespace pyk::types
