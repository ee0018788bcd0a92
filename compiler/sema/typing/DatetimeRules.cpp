// DatetimeRules: numba's typing templates of numba/core/typing/npdatetime.py, case by case.
#include "sema/typing/DatetimeRules.h"

namespace pyk::sema {

namespace {

int code(DatetimeUnit u) {
  return static_cast<int>(u);
}
constexpr int kGeneric = static_cast<int>(DatetimeUnit::Generic);

bool isNumber(const NumbaType& t) {
  return t.isScalar() && (isInteger(t.scalarKind()) || isFloat(t.scalarKind()));
}

// numba forces an integer to int64 ("matches timedelta64 semantics better"); a float stays.
NumbaType numberOperand(const NumbaType& t) {
  return isInteger(t.scalarKind()) ? NumbaType::scalar(ScalarKind::Int64) : t;
}

DatetimeRule rule(DatetimeOp op, NumbaType result, NumbaType left, NumbaType right = {}) {
  return DatetimeRule{op, std::move(result), std::move(left), std::move(right), {}};
}

} // namespace

bool canCastTimedeltaUnits(DatetimeUnit from, DatetimeUnit to) {
  const int src = code(from), dest = code(to);
  if (src == dest || src == kGeneric)
    return true;
  if (src > dest || dest == kGeneric)
    return false;
  return !(src <= 1 && dest > 1); // years and months do not become days
}

std::optional<DatetimeUnit> combineDatetimeTimedeltaUnits(DatetimeUnit datetime,
                                                          DatetimeUnit timedelta) {
  const int dt = code(datetime), td = code(timedelta);
  if (dt == kGeneric)
    return timedelta;
  if (td == kGeneric)
    return datetime;
  if (td < 2 && dt >= 2)
    return std::nullopt;
  return dt > td ? datetime : timedelta;
}

DatetimeUnit bestUnit(DatetimeUnit a, DatetimeUnit b) {
  if (code(a) == kGeneric)
    return b;
  if (code(b) == kGeneric)
    return a;
  return code(b) > code(a) ? b : a;
}

std::optional<DatetimeRule> datetimeBinary(ast::BinOpKind op, const NumbaType& l,
                                           const NumbaType& r) {
  using ast::BinOpKind;
  const bool tdtd = l.isTimedelta() && r.isTimedelta();
  switch (op) {
  case BinOpKind::Add:
  case BinOpKind::Sub:
    if (tdtd) { // TimedeltaBinOp: the more precise unit, when one converts safely to the other
      const DatetimeOp o =
          op == BinOpKind::Add ? DatetimeOp::TimedeltaAdd : DatetimeOp::TimedeltaSub;
      if (canCastTimedeltaUnits(l.datetimeUnit(), r.datetimeUnit()))
        return rule(o, r, l, r);
      if (canCastTimedeltaUnits(r.datetimeUnit(), l.datetimeUnit()))
        return rule(o, l, l, r);
      return std::nullopt;
    }
    if (l.isDatetime() && r.isTimedelta()) { // DatetimePlusTimedelta, DatetimeMinusTimedelta
      const auto unit = combineDatetimeTimedeltaUnits(l.datetimeUnit(), r.datetimeUnit());
      if (!unit)
        return std::nullopt;
      return rule(op == BinOpKind::Add ? DatetimeOp::DatetimePlusTimedelta
                                       : DatetimeOp::DatetimeMinusTimedelta,
                  NumbaType::datetime(*unit), l, r);
    }
    if (op == BinOpKind::Add && l.isTimedelta() && r.isDatetime()) {
      const auto unit = combineDatetimeTimedeltaUnits(r.datetimeUnit(), l.datetimeUnit());
      if (!unit)
        return std::nullopt;
      return rule(DatetimeOp::TimedeltaPlusDatetime, NumbaType::datetime(*unit), l, r);
    }
    if (op == BinOpKind::Sub && l.isDatetime() && r.isDatetime()) // all units combine
      return rule(DatetimeOp::DatetimeMinusDatetime,
                  NumbaType::timedelta(bestUnit(l.datetimeUnit(), r.datetimeUnit())), l, r);
    return std::nullopt;
  case BinOpKind::Mult: // TimedeltaMixOp
    if (l.isTimedelta() && isNumber(r))
      return rule(DatetimeOp::TimedeltaTimesNumber, l, l, numberOperand(r));
    if (r.isTimedelta() && isNumber(l))
      return rule(DatetimeOp::NumberTimesTimedelta, r, numberOperand(l), r);
    return std::nullopt;
  case BinOpKind::Div:
  case BinOpKind::FloorDiv: // TimedeltaDivOp
    if (l.isTimedelta() && isNumber(r))
      return rule(DatetimeOp::TimedeltaOverNumber, l, l, numberOperand(r));
    if (tdtd && (canCastTimedeltaUnits(l.datetimeUnit(), r.datetimeUnit()) ||
                 canCastTimedeltaUnits(r.datetimeUnit(), l.datetimeUnit()))) {
      DatetimeRule out =
          rule(DatetimeOp::TimedeltaOverTimedelta, NumbaType::scalar(ScalarKind::Float64), l, r);
      if (op == BinOpKind::FloorDiv)
        out.numbaFails = "its lowering of timedelta64 // timedelta64 builds integer operations on "
                         "the float64 it typed, which LLVM rejects";
      return out;
    }
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<DatetimeRule> datetimeComparison(ast::CmpOpKind op, const NumbaType& l,
                                               const NumbaType& r) {
  using ast::CmpOpKind;
  const size_t index = static_cast<size_t>(op);
  if (index > static_cast<size_t>(CmpOpKind::GtE))
    return std::nullopt;
  const NumbaType boolean = NumbaType::scalar(ScalarKind::Boolean);
  if (l.isDatetime() && r.isDatetime()) { // DatetimeCmpOp: every unit compares
    static const DatetimeOp kOps[] = {DatetimeOp::DatetimeEq, DatetimeOp::DatetimeNe,
                                      DatetimeOp::DatetimeLt, DatetimeOp::DatetimeLe,
                                      DatetimeOp::DatetimeGt, DatetimeOp::DatetimeGe};
    return rule(kOps[index], boolean, l, r);
  }
  if (l.isTimedelta() && r.isTimedelta()) {
    static const DatetimeOp kOps[] = {DatetimeOp::TimedeltaEq, DatetimeOp::TimedeltaNe,
                                      DatetimeOp::TimedeltaLt, DatetimeOp::TimedeltaLe,
                                      DatetimeOp::TimedeltaGt, DatetimeOp::TimedeltaGe};
    // TimedeltaCmpOp: == and != between any units; TimedeltaOrderedCmpOp: compatible ones.
    const bool ordered = op != CmpOpKind::Eq && op != CmpOpKind::NotEq;
    if (ordered && !canCastTimedeltaUnits(l.datetimeUnit(), r.datetimeUnit()) &&
        !canCastTimedeltaUnits(r.datetimeUnit(), l.datetimeUnit()))
      return std::nullopt;
    return rule(kOps[index], boolean, l, r);
  }
  return std::nullopt;
}

std::optional<DatetimeRule> datetimeUnary(ast::UnaryOpKind op, const NumbaType& operand) {
  if (!operand.isTimedelta()) // TimedeltaUnaryOp: + and - of a timedelta64 only
    return std::nullopt;
  if (op == ast::UnaryOpKind::UAdd)
    return rule(DatetimeOp::TimedeltaPlus, operand, operand);
  if (op == ast::UnaryOpKind::USub)
    return rule(DatetimeOp::TimedeltaNegate, operand, operand);
  return std::nullopt;
}

std::optional<DatetimeRule> datetimeAbs(const NumbaType& operand) {
  if (!operand.isTimedelta())
    return std::nullopt;
  return rule(DatetimeOp::TimedeltaAbs, operand, operand);
}

} // namespace pyk::sema
