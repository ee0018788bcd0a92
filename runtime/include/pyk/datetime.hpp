// datetime: numpy's datetime64 and timedelta64 as C++ values, for kernel arguments and array
// elements (`pyk::DeviceArray<pyk::datetime64<pyk::time_unit::D>, 1>`): an int64 count of the
// unit, as numpy and numba hold them; NaT is the smallest int64. Kernels compute on them as numba
// does (datetime - datetime is a timedelta, units combine as numba's typing says).
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <ratio>

#include "pyk/dtype.hpp"

namespace pyk {

inline constexpr std::int64_t kNaT = std::numeric_limits<std::int64_t>::min();

template <time_unit Unit>
struct datetime64 {
  std::int64_t count = 0; // units since 1970-01-01T00:00 (the epoch)
  static constexpr time_unit unit = Unit;
  static constexpr datetime64 nat() { return {kNaT}; }
  constexpr bool is_nat() const { return count == kNaT; }
  friend constexpr bool operator==(datetime64, datetime64) = default;
};

template <time_unit Unit>
struct timedelta64 {
  std::int64_t count = 0;
  static constexpr time_unit unit = Unit;
  static constexpr timedelta64 nat() { return {kNaT}; }
  constexpr bool is_nat() const { return count == kNaT; }
  friend constexpr bool operator==(timedelta64, timedelta64) = default;
};

// std::chrono's period of the units that have a fixed length (W, D, h, m, s, ms, us, ns, ps, fs,
// as), for conversions from and to std::chrono::duration.
template <time_unit Unit>
constexpr auto chrono_period_of() {
  using enum time_unit;
  static_assert(Unit != Y && Unit != M && Unit != generic,
                "years, months and the unit-less timedelta64 have no fixed length");
  if constexpr (Unit == W)
    return std::ratio<604800>{};
  else if constexpr (Unit == D)
    return std::ratio<86400>{};
  else if constexpr (Unit == h)
    return std::ratio<3600>{};
  else if constexpr (Unit == m)
    return std::ratio<60>{};
  else if constexpr (Unit == s)
    return std::ratio<1>{};
  else if constexpr (Unit == ms)
    return std::milli{};
  else if constexpr (Unit == us)
    return std::micro{};
  else if constexpr (Unit == ns)
    return std::nano{};
  else if constexpr (Unit == ps)
    return std::pico{};
  else if constexpr (Unit == fs)
    return std::femto{};
  else
    return std::atto{};
}
template <time_unit Unit>
using chrono_period = decltype(chrono_period_of<Unit>());

// A std::chrono duration as a timedelta64 of the unit (truncated as duration_cast truncates).
template <time_unit Unit, typename Rep, typename Period>
constexpr timedelta64<Unit> to_timedelta64(std::chrono::duration<Rep, Period> d) {
  using Target = std::chrono::duration<std::int64_t, chrono_period<Unit>>;
  return {std::chrono::duration_cast<Target>(d).count()};
}
// A std::chrono::system_clock time point (the same epoch) as a datetime64 of the unit.
template <time_unit Unit, typename Duration>
constexpr datetime64<Unit>
to_datetime64(std::chrono::time_point<std::chrono::system_clock, Duration> t) {
  return {to_timedelta64<Unit>(t.time_since_epoch()).count};
}

template <typename T>
struct is_datetime_value : std::false_type {};
template <time_unit U>
struct is_datetime_value<datetime64<U>> : std::true_type {};
template <time_unit U>
struct is_datetime_value<timedelta64<U>> : std::true_type {};
// Whether T is a pyk::datetime64 or pyk::timedelta64.
template <typename T>
inline constexpr bool is_datetime_value_v = is_datetime_value<T>::value;

// The dtype of a datetime64<U> or timedelta64<U>.
template <typename T>
constexpr Dtype datetime_dtype_of() {
  constexpr int offset = static_cast<int>(T::unit);
  if constexpr (std::is_same_v<T, datetime64<T::unit>>)
    return static_cast<Dtype>(static_cast<int>(Dtype::Datetime64_Y) + offset);
  else
    return static_cast<Dtype>(static_cast<int>(Dtype::Timedelta64_Y) + offset);
}

} // namespace pyk
