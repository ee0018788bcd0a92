// Float16: numba's float16 on the host, an IEEE 754 binary16 value: the element type of float16
// arrays and the type of float16 scalar arguments in the C++ API (pyk/float16.hpp; C++
// `pyk::float16` is numba's float16 as `float` is float32), the compiler's folding of float16
// constants, and the CPU backend's float16 (stdlib/cpu/float16.h includes this header, so
// generated code, the compiler and hosts share the one type and its conversions).
//
// Conversions from numbers round to nearest, ties to even, as numba.cuda's do (PTX
// cvt.rn.f16.f32 / .f64 / .s64: one rounding, straight from the double); to float and double they
// are exact. Written with integer arithmetic alone: constexpr, and the same bits on every host.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace pyk {

class float16 {
public:
  float16() = default;
  // Any number: a float, a double, an integer (through double: exact up to 2**53, and anything
  // larger is inf in float16 either way).
  template <typename T>
  requires std::is_arithmetic_v<T>
  constexpr explicit float16(T value) : bits_(from_double(static_cast<double>(value))) {}

  // The value with these bits (sign, 5 exponent bits, 10 fraction bits).
  static constexpr float16 from_bits(std::uint16_t bits) {
    float16 h;
    h.bits_ = bits;
    return h;
  }
  constexpr std::uint16_t bits() const { return bits_; }

  constexpr explicit operator double() const { return to_double(bits_); }
  constexpr explicit operator float() const { return static_cast<float>(to_double(bits_)); }

  constexpr bool is_nan() const { return (bits_ & 0x7FFFu) > 0x7C00u; }

private:
  // double → binary16, round to nearest even; NaN stays NaN (quiet, sign kept).
  static constexpr std::uint16_t from_double(double value) {
    const std::uint64_t b = std::bit_cast<std::uint64_t>(value);
    const auto sign = static_cast<std::uint16_t>((b >> 48) & 0x8000u);
    const std::uint64_t magnitude = b & 0x7FFFFFFFFFFFFFFFull;
    if (magnitude >= 0x7FF0000000000000ull) // inf, NaN
      return sign | (magnitude == 0x7FF0000000000000ull ? 0x7C00u : 0x7E00u);
    const int exponent = static_cast<int>(magnitude >> 52) - 1023;
    if (exponent > 15)
      return sign | 0x7C00u;
    if (exponent < -25) // below half the smallest subnormal, 2**-25: zero
      return sign;
    // The significand with its implicit bit, shifted to units of the result's last place:
    // 2**(exponent - 10) for a normal result, 2**-24 for a subnormal one.
    const std::uint64_t significand = (magnitude & 0xFFFFFFFFFFFFFull) | (1ull << 52);
    const int shift = exponent >= -14 ? 42 : 28 - exponent;
    std::uint64_t units = significand >> shift;
    const std::uint64_t rest = significand & ((1ull << shift) - 1);
    const std::uint64_t halfway = 1ull << (shift - 1);
    if (rest > halfway || (rest == halfway && (units & 1u) != 0))
      ++units; // a carry into the exponent (or to inf) is the right answer
    const std::uint64_t magnitude_bits =
        exponent >= -14 ? (static_cast<std::uint64_t>(exponent + 14) << 10) + units : units;
    return sign | static_cast<std::uint16_t>(magnitude_bits >= 0x7C00u ? 0x7C00u : magnitude_bits);
  }

  static constexpr double to_double(std::uint16_t h) {
    const std::uint64_t sign = static_cast<std::uint64_t>(h & 0x8000u) << 48;
    const unsigned exponent = (h >> 10) & 0x1Fu;
    const std::uint64_t fraction = h & 0x3FFu;
    if (exponent == 0) { // zero, subnormal: fraction * 2**-24, exact in a double
      const double magnitude = static_cast<double>(fraction) * 0x1p-24;
      return sign != 0 ? -magnitude : magnitude;
    }
    if (exponent == 31) // inf, NaN (the payload kept)
      return std::bit_cast<double>(sign | 0x7FF0000000000000ull | (fraction << 42));
    return std::bit_cast<double>(sign | (static_cast<std::uint64_t>(exponent - 15 + 1023) << 52) |
                                 (fraction << 42));
  }

  std::uint16_t bits_;
};

static_assert(sizeof(float16) == 2 && alignof(float16) == 2, "float16 is numpy's 2-byte float16");

} // namespace pyk
