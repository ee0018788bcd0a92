// cache_hints.h: numba-cuda's cache-hint loads and stores (cuda.ldca ... cuda.stwt) as the PTX
// numba-cuda emits for them: `ld.global.<hint>.b<bits>` / `st.global.<hint>.b<bits>` of the
// element's bits through its address (8-bit values in a 32-bit register, as numba's "r"
// constraint has them). Device code only: the CPU backend's are cpu/cache_hints.h's plain loads
// and stores.
#pragma once

#include "../common/scalar_types.h"

#if PYK_CUDA

namespace pyk {

#define PYK_CACHE_HINT_LOAD(NAME, HINT)                                                            \
  template <typename T>                                                                            \
  __device__ inline T NAME(const T* p) {                                                           \
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);           \
    if constexpr (sizeof(T) == 1) {                                                                \
      unsigned int bits;                                                                           \
      asm("ld.global." HINT ".b8 %0, [%1];" : "=r"(bits) : "l"(p));                                \
      return __builtin_bit_cast(T, static_cast<unsigned char>(bits));                              \
    } else if constexpr (sizeof(T) == 2) {                                                         \
      unsigned short bits;                                                                         \
      asm("ld.global." HINT ".b16 %0, [%1];" : "=h"(bits) : "l"(p));                               \
      return __builtin_bit_cast(T, bits);                                                          \
    } else if constexpr (sizeof(T) == 4) {                                                         \
      unsigned int bits;                                                                           \
      asm("ld.global." HINT ".b32 %0, [%1];" : "=r"(bits) : "l"(p));                               \
      return __builtin_bit_cast(T, bits);                                                          \
    } else {                                                                                       \
      unsigned long long bits;                                                                     \
      asm("ld.global." HINT ".b64 %0, [%1];" : "=l"(bits) : "l"(p));                               \
      return __builtin_bit_cast(T, bits);                                                          \
    }                                                                                              \
  }

#define PYK_CACHE_HINT_STORE(NAME, HINT)                                                           \
  template <typename T>                                                                            \
  __device__ inline void NAME(T* p, T value) {                                                     \
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);           \
    if constexpr (sizeof(T) == 1) {                                                                \
      const unsigned int bits = __builtin_bit_cast(unsigned char, value);                          \
      asm volatile("st.global." HINT ".b8 [%0], %1;" ::"l"(p), "r"(bits) : "memory");              \
    } else if constexpr (sizeof(T) == 2) {                                                         \
      const unsigned short bits = __builtin_bit_cast(unsigned short, value);                       \
      asm volatile("st.global." HINT ".b16 [%0], %1;" ::"l"(p), "h"(bits) : "memory");             \
    } else if constexpr (sizeof(T) == 4) {                                                         \
      const unsigned int bits = __builtin_bit_cast(unsigned int, value);                           \
      asm volatile("st.global." HINT ".b32 [%0], %1;" ::"l"(p), "r"(bits) : "memory");             \
    } else {                                                                                       \
      const unsigned long long bits = __builtin_bit_cast(unsigned long long, value);               \
      asm volatile("st.global." HINT ".b64 [%0], %1;" ::"l"(p), "l"(bits) : "memory");             \
    }                                                                                              \
  }

PYK_CACHE_HINT_LOAD(ldca, "ca")
PYK_CACHE_HINT_LOAD(ldcg, "cg")
PYK_CACHE_HINT_LOAD(ldcs, "cs")
PYK_CACHE_HINT_LOAD(ldlu, "lu")
PYK_CACHE_HINT_LOAD(ldcv, "cv")
PYK_CACHE_HINT_STORE(stcg, "cg")
PYK_CACHE_HINT_STORE(stcs, "cs")
PYK_CACHE_HINT_STORE(stwb, "wb")
PYK_CACHE_HINT_STORE(stwt, "wt")

#undef PYK_CACHE_HINT_LOAD
#undef PYK_CACHE_HINT_STORE

} // namespace pyk

#endif // PYK_CUDA
