// libdevice_integer.h: numba.cuda.libdevice's integer functions (abs, min, max, the halving adds,
// 24-bit and high-half multiplies, sad, byte_perm, bit counts) and its reinterpretations of bits
// (float_as_int, double2hiint, hiloint2double, ...) on the host, as libdevice.10.bc computes them.
// numba declares the unsigned ones (umin, umulhi, usad, ...) on int32 and int64: they read the
// bits as unsigned and give the bits of the unsigned result.
#pragma once

#include <cstring>

#include "../common/scalar_types.h"

namespace pyk::libdevice {

namespace detail {
template <typename To, typename From>
inline To bitsOf(From value) {
  static_assert(sizeof(To) == sizeof(From), "a reinterpretation keeps the size");
  To out;
  std::memcpy(&out, &value, sizeof out);
  return out;
}
} // namespace detail

// ---- absolute value, min, max (two's complement: abs(INT_MIN) is INT_MIN) -----------------------
inline int32 abs(int32 x) {
  return x >= 0 ? x : static_cast<int32>(0u - static_cast<uint32>(x));
}
inline int64 llabs(int64 x) {
  return x >= 0 ? x : static_cast<int64>(0ull - static_cast<uint64>(x));
}
inline int32 min(int32 x, int32 y) {
  return x < y ? x : y;
}
inline int32 max(int32 x, int32 y) {
  return x > y ? x : y;
}
inline int32 umin(int32 x, int32 y) {
  return static_cast<uint32>(x) < static_cast<uint32>(y) ? x : y;
}
inline int32 umax(int32 x, int32 y) {
  return static_cast<uint32>(x) > static_cast<uint32>(y) ? x : y;
}
inline int64 llmin(int64 x, int64 y) {
  return x < y ? x : y;
}
inline int64 llmax(int64 x, int64 y) {
  return x > y ? x : y;
}
inline int64 ullmin(int64 x, int64 y) {
  return static_cast<uint64>(x) < static_cast<uint64>(y) ? x : y;
}
inline int64 ullmax(int64 x, int64 y) {
  return static_cast<uint64>(x) > static_cast<uint64>(y) ? x : y;
}

// ---- halving adds without overflow: (x + y) >> 1, rounded down (hadd) or up (rhadd) ------------
inline int32 hadd(int32 x, int32 y) {
  return static_cast<int32>((x & y) + ((x ^ y) >> 1));
}
inline int32 rhadd(int32 x, int32 y) {
  return static_cast<int32>((x | y) - ((x ^ y) >> 1));
}
inline int32 uhadd(int32 x, int32 y) {
  const uint32 a = static_cast<uint32>(x);
  const uint32 b = static_cast<uint32>(y);
  return static_cast<int32>((a & b) + ((a ^ b) >> 1));
}
inline int32 urhadd(int32 x, int32 y) {
  const uint32 a = static_cast<uint32>(x);
  const uint32 b = static_cast<uint32>(y);
  return static_cast<int32>((a | b) - ((a ^ b) >> 1));
}

// ---- multiplies: of the low 24 bits (sign-extended or not), the high half of the product -------
inline int32 mul24(int32 x, int32 y) {
  const int32 a = static_cast<int32>(static_cast<uint32>(x) << 8) >> 8;
  const int32 b = static_cast<int32>(static_cast<uint32>(y) << 8) >> 8;
  return static_cast<int32>(static_cast<uint32>(a) * static_cast<uint32>(b));
}
inline int32 umul24(int32 x, int32 y) {
  return static_cast<int32>((static_cast<uint32>(x) & 0xffffffu) *
                            (static_cast<uint32>(y) & 0xffffffu));
}
inline int32 mulhi(int32 x, int32 y) {
  return static_cast<int32>((static_cast<int64>(x) * static_cast<int64>(y)) >> 32);
}
inline int32 umulhi(int32 x, int32 y) {
  return static_cast<int32>(
      (static_cast<uint64>(static_cast<uint32>(x)) * static_cast<uint32>(y)) >> 32);
}
inline int64 mul64hi(int64 x, int64 y) {
  return static_cast<int64>((static_cast<__int128>(x) * static_cast<__int128>(y)) >> 64);
}
inline int64 umul64hi(int64 x, int64 y) {
  using u128 = unsigned __int128;
  return static_cast<int64>((static_cast<u128>(static_cast<uint64>(x)) * static_cast<uint64>(y)) >>
                            64);
}

// ---- sum of absolute difference: |x - y| + z, in 32 bits (PTX sad.s32 / sad.u32) -------------
inline int32 sad(int32 x, int32 y, int32 z) {
  const uint32 difference = x < y ? static_cast<uint32>(y) - static_cast<uint32>(x)
                                  : static_cast<uint32>(x) - static_cast<uint32>(y);
  return static_cast<int32>(difference + static_cast<uint32>(z));
}
inline int32 usad(int32 x, int32 y, int32 z) {
  const uint32 a = static_cast<uint32>(x);
  const uint32 b = static_cast<uint32>(y);
  return static_cast<int32>((a < b ? b - a : a - b) + static_cast<uint32>(z));
}

// ---- byte_perm: byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x (PTX prmt) ----
inline int32 byte_perm(int32 x, int32 y, int32 s) {
  const uint64 bytes = (static_cast<uint64>(static_cast<uint32>(y)) << 32) | static_cast<uint32>(x);
  uint32 out = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32 selector = (static_cast<uint32>(s) >> (4 * i)) & 7u;
    out |= static_cast<uint32>((bytes >> (8 * selector)) & 0xffu) << (8 * i);
  }
  return static_cast<int32>(out);
}

// ---- bits: reversal, leading zeros, first set (1-based, 0 for none), population count ---------
inline int32 brev(int32 x) {
  uint32 v = static_cast<uint32>(x);
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  return static_cast<int32>(__builtin_bswap32(v));
}
inline int64 brevll(int64 x) {
  const uint64 v = static_cast<uint64>(x);
  const uint64 low = static_cast<uint32>(brev(static_cast<int32>(static_cast<uint32>(v))));
  const uint64 high = static_cast<uint32>(brev(static_cast<int32>(static_cast<uint32>(v >> 32))));
  return static_cast<int64>((low << 32) | high);
}
inline int32 clz(int32 x) {
  return x == 0 ? 32 : __builtin_clz(static_cast<uint32>(x));
}
inline int32 clzll(int64 x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<uint64>(x));
}
inline int32 ffs(int32 x) {
  return __builtin_ffs(x);
}
inline int32 ffsll(int64 x) {
  return __builtin_ffsll(x);
}
inline int32 popc(int32 x) {
  return __builtin_popcount(static_cast<uint32>(x));
}
inline int32 popcll(int64 x) {
  return __builtin_popcountll(static_cast<uint64>(x));
}

// ---- reinterpretations of bits
// ---------------------------------------------------------------------
inline int32 float_as_int(float32 x) {
  return detail::bitsOf<int32>(x);
}
inline float32 int_as_float(int32 x) {
  return detail::bitsOf<float32>(x);
}
inline int64 double_as_longlong(float64 x) {
  return detail::bitsOf<int64>(x);
}
inline float64 longlong_as_double(int64 x) {
  return detail::bitsOf<float64>(x);
}
inline int32 double2hiint(float64 x) {
  return static_cast<int32>(static_cast<uint64>(detail::bitsOf<int64>(x)) >> 32);
}
inline int32 double2loint(float64 x) {
  return static_cast<int32>(static_cast<uint32>(static_cast<uint64>(detail::bitsOf<int64>(x))));
}
inline float64 hiloint2double(int32 high, int32 low) {
  return detail::bitsOf<float64>(static_cast<int64>(
      (static_cast<uint64>(static_cast<uint32>(high)) << 32) | static_cast<uint32>(low)));
}

} // namespace pyk::libdevice
