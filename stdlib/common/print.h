// print.h: numba's print, one printf per call: the format and the argument each item passes.
#pragma once

#include "scalar_types.h"

#if !PYK_CUDA
#include <cstdio>
#endif

// numba's print is one printf (vprintf on the device) per call.
#define PYK_PRINTF printf

namespace pyk {

// numba's print: one printf whose items are joined by spaces and ended by a newline; ints as %lld
// (signed) or %llu (unsigned) of the value widened to 64 bits, floats as %f of the value as
// float64, bools as True/False (%s), strings as %s.
template <typename T>
PYK_HD constexpr const char* print_format() {
  if constexpr (detail::isBool<T>)
    return "%s";
  else if constexpr (detail::isFloat<T>)
    return "%f";
  else if constexpr (detail::IntTraits<T>::isSigned)
    return "%lld";
  else
    return "%llu";
}

PYK_HD inline const char* print_arg(bool value) {
  return value ? "True" : "False";
}
PYK_HD inline double print_arg(float value) {
  return static_cast<double>(value);
}
PYK_HD inline double print_arg(double value) {
  return value;
}
PYK_HD inline const char* print_arg(const char* value) {
  return value;
}
template <typename T>
PYK_HD auto print_arg(T value) {
  static_assert(detail::isInteger<T>, "print takes numbers, bools and constant strings");
  if constexpr (detail::IntTraits<T>::isSigned)
    return static_cast<long long>(value);
  else
    return static_cast<unsigned long long>(value);
}

} // namespace pyk
