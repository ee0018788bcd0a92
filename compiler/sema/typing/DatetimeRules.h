// DatetimeRules: numba's typing of operators on datetime64 and timedelta64
// (numba/core/typing/npdatetime.py, with the unit rules of np/npdatetime_helpers.py): which
// operation numba lowers, the result's type and unit, and the types the operands are converted
// to (an integer to int64; a float kept). numba has no conversion between units, nor between
// these and numbers: everything else is refused.
#pragma once

#include <optional>
#include <string>

#include "base/DatetimeOperation.h"
#include "base/NumbaType.h"
#include "syntax/Ast.h"

namespace pyk::sema {

struct DatetimeRule {
  DatetimeOp op;
  NumbaType result;
  NumbaType left;  // the operand types the operation takes
  NumbaType right; // void for a unary operation
  // Set where numba types the operation but cannot compile it: why (the rule is not usable).
  std::string numbaFails;
};

// numba's unit rules (npdatetime_helpers): a timedelta of `from` converts to one of `to` safely;
// the unit of datetime ± timedelta (nullopt where they do not combine); the finer of two units.
bool canCastTimedeltaUnits(DatetimeUnit from, DatetimeUnit to);
std::optional<DatetimeUnit> combineDatetimeTimedeltaUnits(DatetimeUnit datetime,
                                                          DatetimeUnit timedelta);
DatetimeUnit bestUnit(DatetimeUnit a, DatetimeUnit b);

// `l OP r`, `l CMP r`, `OP x` and `abs(x)` where an operand is a datetime64 or timedelta64;
// nullopt where numba has no such typing.
std::optional<DatetimeRule> datetimeBinary(ast::BinOpKind op, const NumbaType& l,
                                           const NumbaType& r);
std::optional<DatetimeRule> datetimeComparison(ast::CmpOpKind op, const NumbaType& l,
                                               const NumbaType& r);
std::optional<DatetimeRule> datetimeUnary(ast::UnaryOpKind op, const NumbaType& operand);
std::optional<DatetimeRule> datetimeAbs(const NumbaType& operand);

} // namespace pyk::sema
