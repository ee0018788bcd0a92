// dtype: the element types pyk arrays hold, named as numba names them ("float32", "complex64").
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace pyk {

// One X(enumerator, numba name, itemsize in bytes) per dtype, in numba's order.
#define PYK_DTYPES(X)                                                                              \
  X(Bool, "bool", 1)                                                                               \
  X(Int8, "int8", 1)                                                                               \
  X(Int16, "int16", 2)                                                                             \
  X(Int32, "int32", 4)                                                                             \
  X(Int64, "int64", 8)                                                                             \
  X(UInt8, "uint8", 1)                                                                             \
  X(UInt16, "uint16", 2)                                                                           \
  X(UInt32, "uint32", 4)                                                                           \
  X(UInt64, "uint64", 8)                                                                           \
  X(Float16, "float16", 2)                                                                         \
  X(Float32, "float32", 4)                                                                         \
  X(Float64, "float64", 8)                                                                         \
  X(Complex64, "complex64", 8)                                                                     \
  X(Complex128, "complex128", 16)

// The scalar dtypes, then Record: a structured dtype, whose fields and size the array carries
// (pyk/record.hpp's RecordDtype); the functions below know only the scalar ones.
enum class Dtype {
#define PYK_DTYPE_ENUMERATOR(enumerator, name, itemsize) enumerator,
  PYK_DTYPES(PYK_DTYPE_ENUMERATOR)
#undef PYK_DTYPE_ENUMERATOR
      Record
};

// Every scalar dtype, in the order of the enum.
inline constexpr Dtype kAllDtypes[] = {
#define PYK_DTYPE_VALUE(enumerator, name, itemsize) Dtype::enumerator,
    PYK_DTYPES(PYK_DTYPE_VALUE)
#undef PYK_DTYPE_VALUE
};

// Bytes per element: 1 for bool, 8 for complex64 (two float32), 16 for complex128; 0 for Record
// (the RecordDtype knows its size).
constexpr std::size_t dtype_itemsize(Dtype dtype) noexcept {
  switch (dtype) {
  case Dtype::Record:
    return 0;
#define PYK_DTYPE_ITEMSIZE(enumerator, name, itemsize)                                             \
  case Dtype::enumerator:                                                                          \
    return itemsize;
    PYK_DTYPES(PYK_DTYPE_ITEMSIZE)
#undef PYK_DTYPE_ITEMSIZE
  }
  return 0;
}

// numba's (and numpy's) name: "bool", "int64", "float32", "complex128"; "record" for Record.
constexpr std::string_view dtype_name(Dtype dtype) noexcept {
  switch (dtype) {
  case Dtype::Record:
    return "record";
#define PYK_DTYPE_NAME(enumerator, name, itemsize)                                                 \
  case Dtype::enumerator:                                                                          \
    return name;
    PYK_DTYPES(PYK_DTYPE_NAME)
#undef PYK_DTYPE_NAME
  }
  return "?";
}

// The dtype numba calls `name`; std::nullopt for any other name.
constexpr std::optional<Dtype> dtype_named(std::string_view name) noexcept {
  for (Dtype dtype : kAllDtypes)
    if (dtype_name(dtype) == name)
      return dtype;
  return std::nullopt;
}

// Whether the dtype is complex (two floating-point halves, byte-swapped separately).
constexpr bool is_complex_dtype(Dtype dtype) noexcept {
  return dtype == Dtype::Complex64 || dtype == Dtype::Complex128;
}

} // namespace pyk
