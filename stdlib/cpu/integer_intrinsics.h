// integer_intrinsics.h: CUDA's __popc, __clz, __ffs, __brev and their ll forms on the host.
#pragma once

#include "../common/scalar_types.h"

namespace pyk::cpu {

inline int32 popc32(uint32 x) {
  return __builtin_popcount(x);
}
inline int32 popc64(uint64 x) {
  return __builtin_popcountll(x);
}
inline int32 clz32(uint32 x) {
  return x == 0 ? 32 : __builtin_clz(x);
}
inline int32 clz64(uint64 x) {
  return x == 0 ? 64 : __builtin_clzll(x);
}
inline int32 ffs32(uint32 x) {
  return __builtin_ffs(static_cast<int>(x));
}
inline int32 ffs64(uint64 x) {
  return __builtin_ffsll(static_cast<long long>(x));
}
inline uint32 brev32(uint32 x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  return __builtin_bswap32(x);
}
inline uint64 brev64(uint64 x) {
  return (static_cast<uint64>(brev32(static_cast<uint32>(x))) << 32) |
         brev32(static_cast<uint32>(x >> 32));
}
template <typename T>
int32 popc32(T x) {
  return popc32(static_cast<uint32>(x));
}
template <typename T>
int32 popc64(T x) {
  return popc64(static_cast<uint64>(x));
}
template <typename T>
int32 clz32(T x) {
  return clz32(static_cast<uint32>(x));
}
template <typename T>
int32 clz64(T x) {
  return clz64(static_cast<uint64>(x));
}
template <typename T>
int32 ffs32(T x) {
  return ffs32(static_cast<uint32>(x));
}
template <typename T>
int32 ffs64(T x) {
  return ffs64(static_cast<uint64>(x));
}
template <typename T>
uint32 brev32(T x) {
  return brev32(static_cast<uint32>(x));
}
template <typename T>
uint64 brev64(T x) {
  return brev64(static_cast<uint64>(x));
}

} // namespace pyk::cpu
