// dtype: the element types pyk arrays hold, named as numba names them ("float32", "complex64").
#pragma once

#include <cstddef>
#include <cstdint>
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

// numpy's datetime64 and timedelta64 units: X(unit, numpy's spelling, numba's number).
#define PYK_DATETIME_UNITS(X)                                                                      \
  X(Y, "Y", 0)                                                                                     \
  X(M, "M", 1)                                                                                     \
  X(W, "W", 2)                                                                                     \
  X(D, "D", 4)                                                                                     \
  X(h, "h", 5)                                                                                     \
  X(m, "m", 6)                                                                                     \
  X(s, "s", 7)                                                                                     \
  X(ms, "ms", 8)                                                                                   \
  X(us, "us", 9)                                                                                   \
  X(ns, "ns", 10)                                                                                  \
  X(ps, "ps", 11)                                                                                  \
  X(fs, "fs", 12)                                                                                  \
  X(as, "as", 13)                                                                                  \
  X(generic, "", 14)

// A datetime64 or timedelta64 unit (numba's NPDatetime / NPTimedelta unit).
enum class time_unit {
#define PYK_TIME_UNIT_ENUMERATOR(unit, spelling, number) unit,
  PYK_DATETIME_UNITS(PYK_TIME_UNIT_ENUMERATOR)
#undef PYK_TIME_UNIT_ENUMERATOR
};

// The scalar dtypes; datetime64 and timedelta64 of each unit (an int64 count of the unit, NaT
// the smallest int64: `Datetime64_D` is numpy's datetime64[D], `Timedelta64_generic` its
// unit-less timedelta64); Bytes and Unicode: numpy's 'S<n>' and 'U<n>' (n bytes, n UTF-32 code
// points; the array carries n, its `chars`); then Record: a structured dtype, whose fields and
// size the array carries (pyk/record.hpp's RecordDtype). The functions below know all but
// Bytes, Unicode and Record, whose size is the array's.
enum class Dtype {
#define PYK_DTYPE_ENUMERATOR(enumerator, name, itemsize) enumerator,
  PYK_DTYPES(PYK_DTYPE_ENUMERATOR)
#undef PYK_DTYPE_ENUMERATOR
#define PYK_DATETIME_ENUMERATOR(unit, spelling, number) Datetime64_##unit,
      PYK_DATETIME_UNITS(PYK_DATETIME_ENUMERATOR)
#undef PYK_DATETIME_ENUMERATOR
#define PYK_TIMEDELTA_ENUMERATOR(unit, spelling, number) Timedelta64_##unit,
          PYK_DATETIME_UNITS(PYK_TIMEDELTA_ENUMERATOR)
#undef PYK_TIMEDELTA_ENUMERATOR
              Bytes,
  Unicode,
  Record
};

// numpy's 'S<n>' and 'U<n>': the array says how many characters.
constexpr bool is_character_dtype(Dtype dtype) noexcept {
  return dtype == Dtype::Bytes || dtype == Dtype::Unicode;
}

// Every dtype but Bytes, Unicode and Record, in the order of the enum.
inline constexpr Dtype kAllDtypes[] = {
#define PYK_DTYPE_VALUE(enumerator, name, itemsize) Dtype::enumerator,
    PYK_DTYPES(PYK_DTYPE_VALUE)
#undef PYK_DTYPE_VALUE
#define PYK_DATETIME_VALUE(unit, spelling, number) Dtype::Datetime64_##unit,
        PYK_DATETIME_UNITS(PYK_DATETIME_VALUE)
#undef PYK_DATETIME_VALUE
#define PYK_TIMEDELTA_VALUE(unit, spelling, number) Dtype::Timedelta64_##unit,
            PYK_DATETIME_UNITS(PYK_TIMEDELTA_VALUE)
#undef PYK_TIMEDELTA_VALUE
};

constexpr bool is_datetime_dtype(Dtype dtype) noexcept {
  return dtype >= Dtype::Datetime64_Y && dtype <= Dtype::Datetime64_generic;
}
constexpr bool is_timedelta_dtype(Dtype dtype) noexcept {
  return dtype >= Dtype::Timedelta64_Y && dtype <= Dtype::Timedelta64_generic;
}
// The unit of a datetime64 or timedelta64 dtype (generic for any other).
constexpr time_unit dtype_time_unit(Dtype dtype) noexcept {
  if (is_datetime_dtype(dtype))
    return static_cast<time_unit>(static_cast<int>(dtype) - static_cast<int>(Dtype::Datetime64_Y));
  if (is_timedelta_dtype(dtype))
    return static_cast<time_unit>(static_cast<int>(dtype) - static_cast<int>(Dtype::Timedelta64_Y));
  return time_unit::generic;
}
// Each unit's numpy spelling ("D", "ms", "" for generic) and numba's number
// (np/npdatetime_helpers.py's DATETIME_UNITS: D is 4, generic 14), in the order of the enum.
struct TimeUnitInfo {
  std::string_view name;
  int number;
};
inline constexpr TimeUnitInfo kTimeUnits[] = {
#define PYK_TIME_UNIT_INFO(unit, spelling, number) {spelling, number},
    PYK_DATETIME_UNITS(PYK_TIME_UNIT_INFO)
#undef PYK_TIME_UNIT_INFO
};
constexpr std::string_view time_unit_name(time_unit unit) noexcept {
  return kTimeUnits[static_cast<int>(unit)].name;
}
constexpr int time_unit_number(time_unit unit) noexcept {
  return kTimeUnits[static_cast<int>(unit)].number;
}

// Bytes per element: 1 for bool, 8 for complex64 (two float32), 16 for complex128; 0 for Record
// (the RecordDtype knows its size) and for Bytes and Unicode (character_itemsize).
constexpr std::size_t dtype_itemsize(Dtype dtype) noexcept {
  if (is_datetime_dtype(dtype) || is_timedelta_dtype(dtype))
    return 8;
  switch (dtype) {
  case Dtype::Record:
    return 0;
#define PYK_DTYPE_ITEMSIZE(enumerator, name, itemsize)                                             \
  case Dtype::enumerator:                                                                          \
    return itemsize;
    PYK_DTYPES(PYK_DTYPE_ITEMSIZE)
#undef PYK_DTYPE_ITEMSIZE
  default:
    return 0;
  }
}

// Bytes per item of numpy's 'S<chars>' (Bytes) or 'U<chars>' (Unicode, 4 per character).
constexpr std::size_t character_itemsize(Dtype dtype, std::int64_t chars) noexcept {
  return static_cast<std::size_t>(chars) * (dtype == Dtype::Unicode ? 4u : 1u);
}

// numba's (and numpy's) name: "bool", "int64", "float32", "complex128"; numpy's "datetime64[D]",
// "timedelta64[ms]", "datetime64" (unit-less); "record" for Record.
constexpr std::string_view dtype_name(Dtype dtype) noexcept {
  switch (dtype) {
#define PYK_DATETIME_NAME(unit, spelling, number)                                                  \
  case Dtype::Datetime64_##unit:                                                                   \
    return sizeof(spelling) == 1 ? "datetime64" : "datetime64[" spelling "]";                      \
  case Dtype::Timedelta64_##unit:                                                                  \
    return sizeof(spelling) == 1 ? "timedelta64" : "timedelta64[" spelling "]";
    PYK_DATETIME_UNITS(PYK_DATETIME_NAME)
#undef PYK_DATETIME_NAME
  case Dtype::Record:
    return "record";
  case Dtype::Bytes: // numpy's names of 'S' and 'U' (the array's length makes `|S12`, `<U12`)
    return "bytes";
  case Dtype::Unicode:
    return "str";
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
