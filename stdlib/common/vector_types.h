// vector_types.h: numba.cuda's vector types (float32x4, short2, ...; numba/cuda/vector_types.py) as
// pyk::vector<T, N>: N elements x, y, z, w of a base scalar type, which numba lowers as a plain
// struct of those members. The alignment is CUDA's own vector types' (float4, short2, ...: a 2- or
// 4-element vector aligned to its size up to 16 bytes, the others to their element), so a
// pyk::vector lies in memory as the CUDA type of its name does.
#pragma once

#include "target_macros.h"

namespace pyk {

namespace detail {
// CUDA's alignment of an N-element vector of T.
template <typename T, int N>
inline constexpr unsigned long vectorAlignment = (N == 2 || N == 4)
                                                     ? (N * sizeof(T) < 16 ? N * sizeof(T) : 16)
                                                     : sizeof(T);
} // namespace detail

template <typename T, int N>
struct vector;

template <typename T>
struct alignas(detail::vectorAlignment<T, 1>) vector<T, 1> {
  T x;
};
template <typename T>
struct alignas(detail::vectorAlignment<T, 2>) vector<T, 2> {
  T x, y;
};
template <typename T>
struct alignas(detail::vectorAlignment<T, 3>) vector<T, 3> {
  T x, y, z;
};
template <typename T>
struct alignas(detail::vectorAlignment<T, 4>) vector<T, 4> {
  T x, y, z, w;
};

} // namespace pyk
