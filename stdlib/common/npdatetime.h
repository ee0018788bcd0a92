// npdatetime.h: numba's datetime64 and timedelta64 arithmetic (numba/np/npdatetime.py and
// npdatetime_helpers.py), for both backends. A value is an int64 count of its unit, NaT the
// smallest int64; units are numba's numbers (Y 0, M 1, W 2, D 4, h 5, m 6, s 7, ms 8, us 9, ns 10,
// ps 11, fs 12, as 13, generic 14). Every operation is a template over the units of its operands
// and result (14 where an operand is a number), named as ir::DatetimeOp names it; typing has
// checked that the units combine, so a conversion that cannot be done is a compile error here.
#pragma once

#include "scalar_types.h"
#include "target_macros.h"

namespace pyk::npdatetime {

constexpr int64 kNaT = -9223372036854775807LL - 1;
constexpr int kGeneric = 14;

struct UnitStep {
  int next;     // the next finer unit
  int64 factor; // how many of it make one of the unit; 0: no exact step (months to days)
};
// numba's _factors: the exact factor from a unit to the next finer one.
constexpr UnitStep next_finer(int unit) {
  return unit == 0                 ? UnitStep{1, 12} // years -> months
         : unit == 2               ? UnitStep{4, 7}  // weeks -> days
         : unit == 4               ? UnitStep{5, 24} // days -> hours
         : unit == 5 || unit == 6  ? UnitStep{unit + 1, 60}
         : unit >= 7 && unit <= 12 ? UnitStep{unit + 1, 1000}
                                   : UnitStep{unit, 0};
}

// The integer factor that converts a count of `from` into a count of the finer `to` (numba's
// _get_conversion_multiplier); 0 where none does. A generic unit converts as it is.
constexpr int64 conversion_factor(int from, int to) {
  if (from == kGeneric)
    return 1;
  int64 factor = 1;
  int c = from;
  while (c < to) {
    const UnitStep step = next_finer(c);
    if (step.factor == 0)
      return 0;
    c = step.next;
    factor *= step.factor;
  }
  return c == to ? factor : 0;
}

// numba's scale_timedelta: a count of From as one of To.
template <int From, int To>
PYK_HD int64 scale(int64 v) {
  constexpr int64 factor = conversion_factor(From, To);
  static_assert(factor != 0, "typing let through timedelta64 units that do not convert");
  return v * factor;
}

PYK_HD inline bool not_nat(int64 v) {
  return v != kNaT;
}

// Python's division toward minus infinity, for the calendar below.
PYK_HD inline int64 floor_div(int64 a, int64 b) {
  int64 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// numba's is_leap_year, of a year counted from 1970.
PYK_HD inline bool is_leap_year(int64 year) {
  const int64 y = year + 1970;
  return (y & 3) == 0 && (y % 100 != 0 || y % 400 == 0);
}

// numba's year_to_days (numpy's get_datetimestruct_days): days from 1970 to the year's start.
PYK_HD inline int64 year_to_days(int64 year) {
  int64 days = year * 365;
  if (year >= 0) {
    const int64 from1968 = year + 1;
    const int64 from1900 = from1968 + 68;
    const int64 from1600 = from1900 + 300;
    return days + from1968 / 4 - from1900 / 100 + from1600 / 400;
  }
  const int64 from1972 = year - 2;
  const int64 from2000 = from1972 - 28;
  return days + from1972 / 4 - from2000 / 100 + from2000 / 400;
}

// numba's convert_datetime_for_arith: years or months become days (or weeks) by the calendar,
// then a factor takes them to the unit wanted.
template <int Src, int Dest>
PYK_HD int64 convert_datetime(int64 v) {
  if constexpr (Dest < 2 || Src >= 2) {
    return scale<Src, Dest>(v);
  } else {
    int64 days;
    if constexpr (Src == 0) {
      days = year_to_days(v);
    } else {
      constexpr int64 normal[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
      constexpr int64 leap[12] = {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335};
      // numba's divmod_by_constant: floor division and a non-negative remainder.
      const int64 year = floor_div(v, 12);
      const int64 month = v - year * 12;
      days = year_to_days(year) + (is_leap_year(year) ? leap[month] : normal[month]);
    }
    if constexpr (Dest == 2)
      return floor_div(days, 7);
    else
      return scale<4, Dest>(days);
  }
}

// The finer of two units (numba's get_best_unit).
constexpr int best_unit(int a, int b) {
  return a == kGeneric ? b : b == kGeneric ? a : (b > a ? b : a);
}

// ---- timedelta64 ------------------------------------------------------------------------------

template <int L, int R, int O>
PYK_HD int64 timedelta_plus(int64 a) {
  return a;
}
template <int L, int R, int O>
PYK_HD int64 timedelta_negate(int64 a) {
  return -a;
}
template <int L, int R, int O>
PYK_HD int64 timedelta_abs(int64 a) {
  return a < 0 ? -a : a;
}

template <int L, int R, int O>
PYK_HD int64 timedelta_add(int64 a, int64 b) {
  return not_nat(a) && not_nat(b) ? scale<L, O>(a) + scale<R, O>(b) : kNaT;
}
template <int L, int R, int O>
PYK_HD int64 timedelta_sub(int64 a, int64 b) {
  return not_nat(a) && not_nat(b) ? scale<L, O>(a) - scale<R, O>(b) : kNaT;
}

// numba's _cast_to_timedelta: NaN is NaT, anything else truncated.
template <typename F>
PYK_HD int64 from_floating(F v) {
  return v != v ? kNaT : static_cast<int64>(v);
}

// td * n and n * td: an integer multiplies the count; a float multiplies it in the float's type.
template <int T, int O, typename N>
PYK_HD int64 times(int64 td, N n) {
  if (!not_nat(td))
    return kNaT;
  if constexpr (!pyk::detail::IntTraits<N>::isInteger)
    return scale<T, O>(from_floating(static_cast<N>(td) * n));
  else
    return scale<T, O>(td * n);
}
template <int L, int R, int O, typename N>
PYK_HD int64 timedelta_times_number(int64 td, N n) {
  return times<L, O>(td, n);
}
template <int L, int R, int O, typename N>
PYK_HD int64 number_times_timedelta(N n, int64 td) {
  return times<R, O>(td, n);
}

// td / n and td // n alike (numba's timedelta_over_number): NaT for a NaT, a zero or a NaN;
// an integer divides the count (toward zero), a float divides it in the float's type.
template <int L, int R, int O, typename N>
PYK_HD int64 timedelta_over_number(int64 td, N n) {
  if (!not_nat(td) || n == 0 || n != n)
    return kNaT;
  if constexpr (!pyk::detail::IntTraits<N>::isInteger)
    return scale<L, O>(from_floating(static_cast<N>(td) / n));
  else
    return scale<L, O>(td / n);
}

// numba's normalize_timedeltas: the coarser operand scaled to the finer unit.
template <int L, int R>
PYK_HD void normalize(int64& a, int64& b) {
  if constexpr (conversion_factor(L, R) != 0)
    a = scale<L, R>(a);
  else
    b = scale<R, L>(b);
}
template <int L, int R>
constexpr bool normalizable() {
  return conversion_factor(L, R) != 0 || conversion_factor(R, L) != 0;
}

// td / td: float64, NaN for a NaT.
template <int L, int R, int O>
PYK_HD float64 timedelta_over_timedelta(int64 a, int64 b) {
  if (!not_nat(a) || !not_nat(b))
    return nan64();
  normalize<L, R>(a, b);
  return static_cast<float64>(a) / static_cast<float64>(b);
}

// ==, != between any units (units that do not normalize are unequal); the ordering ones between
// units that do. A NaT is unequal to everything, itself included.
template <int L, int R, int O>
PYK_HD bool timedelta_eq(int64 a, int64 b) {
  if (!not_nat(a) || !not_nat(b))
    return false;
  if constexpr (!normalizable<L, R>()) {
    return false;
  } else {
    normalize<L, R>(a, b);
    return a == b;
  }
}
template <int L, int R, int O>
PYK_HD bool timedelta_ne(int64 a, int64 b) {
  return !timedelta_eq<L, R, O>(a, b);
}
#define PYK_TIMEDELTA_ORDERING(name, op)                                                           \
  template <int L, int R, int O>                                                                   \
  PYK_HD bool name(int64 a, int64 b) {                                                             \
    if (!not_nat(a) || !not_nat(b))                                                                \
      return false;                                                                                \
    normalize<L, R>(a, b);                                                                         \
    return a op b;                                                                                 \
  }
PYK_TIMEDELTA_ORDERING(timedelta_lt, <)
PYK_TIMEDELTA_ORDERING(timedelta_le, <=)
PYK_TIMEDELTA_ORDERING(timedelta_gt, >)
PYK_TIMEDELTA_ORDERING(timedelta_ge, >=)
#undef PYK_TIMEDELTA_ORDERING

// ---- datetime64 -------------------------------------------------------------------------------

template <int L, int R, int O>
PYK_HD int64 datetime_plus_timedelta(int64 dt, int64 td) {
  return not_nat(dt) && not_nat(td) ? convert_datetime<L, O>(dt) + scale<R, O>(td) : kNaT;
}
template <int L, int R, int O>
PYK_HD int64 timedelta_plus_datetime(int64 td, int64 dt) {
  return datetime_plus_timedelta<R, L, O>(dt, td);
}
template <int L, int R, int O>
PYK_HD int64 datetime_minus_timedelta(int64 dt, int64 td) {
  return not_nat(dt) && not_nat(td) ? convert_datetime<L, O>(dt) - scale<R, O>(td) : kNaT;
}
template <int L, int R, int O>
PYK_HD int64 datetime_minus_datetime(int64 a, int64 b) {
  return not_nat(a) && not_nat(b) ? convert_datetime<L, O>(a) - convert_datetime<R, O>(b) : kNaT;
}

// Comparisons in the finer unit; NaT compares unequal (only != is true).
#define PYK_DATETIME_COMPARISON(name, op, nat)                                                     \
  template <int L, int R, int O>                                                                   \
  PYK_HD bool name(int64 a, int64 b) {                                                             \
    if (!not_nat(a) || !not_nat(b))                                                                \
      return nat;                                                                                  \
    constexpr int unit = best_unit(L, R);                                                          \
    return convert_datetime<L, unit>(a) op convert_datetime<R, unit>(b);                           \
  }
PYK_DATETIME_COMPARISON(datetime_eq, ==, false)
PYK_DATETIME_COMPARISON(datetime_ne, !=, true)
PYK_DATETIME_COMPARISON(datetime_lt, <, false)
PYK_DATETIME_COMPARISON(datetime_le, <=, false)
PYK_DATETIME_COMPARISON(datetime_gt, >, false)
PYK_DATETIME_COMPARISON(datetime_ge, >=, false)
#undef PYK_DATETIME_COMPARISON

} // namespace pyk::npdatetime
