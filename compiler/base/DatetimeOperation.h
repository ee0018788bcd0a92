// DatetimeOperation: numba's operations on datetime64 and timedelta64 (np/npdatetime.py's
// lowerings), one each, declared once: typing chooses one (sema/typing/DatetimeRules.h), the IR
// carries it (ir::DatetimeOperation), and code generation calls the pyk::npdatetime function of
// its name (stdlib/common/npdatetime.h).
#pragma once

#include <cstdint>

namespace pyk::types {

// X(enumerator, the pyk::npdatetime function)
#define PYK_DATETIME_OPS(X)                                                                        \
  X(TimedeltaPlus, "timedelta_plus")                                                               \
  X(TimedeltaNegate, "timedelta_negate")                                                           \
  X(TimedeltaAbs, "timedelta_abs")                                                                 \
  X(TimedeltaAdd, "timedelta_add")                                                                 \
  X(TimedeltaSub, "timedelta_sub")                                                                 \
  X(TimedeltaTimesNumber, "timedelta_times_number")                                                \
  X(NumberTimesTimedelta, "number_times_timedelta")                                                \
  X(TimedeltaOverNumber, "timedelta_over_number")                                                  \
  X(TimedeltaOverTimedelta, "timedelta_over_timedelta")                                            \
  X(TimedeltaEq, "timedelta_eq")                                                                   \
  X(TimedeltaNe, "timedelta_ne")                                                                   \
  X(TimedeltaLt, "timedelta_lt")                                                                   \
  X(TimedeltaLe, "timedelta_le")                                                                   \
  X(TimedeltaGt, "timedelta_gt")                                                                   \
  X(TimedeltaGe, "timedelta_ge")                                                                   \
  X(DatetimePlusTimedelta, "datetime_plus_timedelta")                                              \
  X(TimedeltaPlusDatetime, "timedelta_plus_datetime")                                              \
  X(DatetimeMinusTimedelta, "datetime_minus_timedelta")                                            \
  X(DatetimeMinusDatetime, "datetime_minus_datetime")                                              \
  X(DatetimeEq, "datetime_eq")                                                                     \
  X(DatetimeNe, "datetime_ne")                                                                     \
  X(DatetimeLt, "datetime_lt")                                                                     \
  X(DatetimeLe, "datetime_le")                                                                     \
  X(DatetimeGt, "datetime_gt")                                                                     \
  X(DatetimeGe, "datetime_ge")
enum class DatetimeOp : uint8_t {
#define PYK_DATETIME_OP_ENUMERATOR(name, function) name,
  PYK_DATETIME_OPS(PYK_DATETIME_OP_ENUMERATOR)
#undef PYK_DATETIME_OP_ENUMERATOR
};

// The pyk::npdatetime function: "timedelta_add".
constexpr const char* functionName(DatetimeOp op) {
  switch (op) {
#define PYK_DATETIME_OP_CASE(name, function)                                                       \
  case DatetimeOp::name:                                                                           \
    return function;
    PYK_DATETIME_OPS(PYK_DATETIME_OP_CASE)
#undef PYK_DATETIME_OP_CASE
  }
  return "?";
}

} // namespace pyk::types
