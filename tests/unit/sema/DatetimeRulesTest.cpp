// DatetimeRulesTest: numba's unit rules for datetime64 and timedelta64 (npdatetime_helpers:
// can_cast_timedelta_units, combine_datetime_timedelta_units, get_best_unit), every pair of units
// against numba 0.56's answers (tables printed by numba itself), and the operations typing picks.
#include <gtest/gtest.h>

#include <string>

#include "sema/typing/DatetimeRules.h"

namespace {

using pyk::types::DatetimeOp;
using pyk::types::DatetimeUnit;
using pyk::types::NumbaType;
using pyk::types::ScalarKind;

// numba's order of the units; '' (generic) last.
const char* const kUnits[] = {"Y",  "M",  "W",  "D",  "h",  "m",  "s",
                              "ms", "us", "ns", "ps", "fs", "as", ""};
constexpr int kCount = 14;

DatetimeUnit unit(int i) {
  return *pyk::types::datetimeUnitNamed(kUnits[i]);
}
// A table's spelling of a unit: '*' for generic, '-' for none.
std::string spelt(std::optional<DatetimeUnit> u) {
  if (!u)
    return "-";
  const std::string name = pyk::types::datetimeUnitName(*u);
  return name.empty() ? "*" : name;
}

TEST(DatetimeRules, CanCastTimedeltaUnitsAsNumba) {
  // row: from, column: to
  const char* const kNumba[kCount] = {
      "11000000000000", "01000000000000", "00111111111110", "00011111111110", "00001111111110",
      "00000111111110", "00000011111110", "00000001111110", "00000000111110", "00000000011110",
      "00000000001110", "00000000000110", "00000000000010", "11111111111111",
  };
  for (int a = 0; a < kCount; ++a)
    for (int b = 0; b < kCount; ++b)
      EXPECT_EQ(pyk::sema::canCastTimedeltaUnits(unit(a), unit(b)), kNumba[a][b] == '1')
          << kUnits[a] << " -> " << kUnits[b];
}

TEST(DatetimeRules, CombinedAndBestUnitsAsNumba) {
  // row: the datetime's unit, column: the timedelta's
  const char* const kCombined[kCount][kCount] = {
      "Y", "M", "W",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "Y",
      "M", "M", "W",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "M",
      "-", "-", "W",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "W",
      "-", "-", "D",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "D",
      "-", "-", "h",  "h",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "h",
      "-", "-", "m",  "m",  "m",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "m",
      "-", "-", "s",  "s",  "s",  "s",  "s",  "ms", "us", "ns", "ps", "fs", "as", "s",
      "-", "-", "ms", "ms", "ms", "ms", "ms", "ms", "us", "ns", "ps", "fs", "as", "ms",
      "-", "-", "us", "us", "us", "us", "us", "us", "us", "ns", "ps", "fs", "as", "us",
      "-", "-", "ns", "ns", "ns", "ns", "ns", "ns", "ns", "ns", "ps", "fs", "as", "ns",
      "-", "-", "ps", "ps", "ps", "ps", "ps", "ps", "ps", "ps", "ps", "fs", "as", "ps",
      "-", "-", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "as", "fs",
      "-", "-", "as", "as", "as", "as", "as", "as", "as", "as", "as", "as", "as", "as",
      "Y", "M", "W",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "*",
  };
  const char* const kBest[kCount][kCount] = {
      "Y",  "M",  "W",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "Y",
      "M",  "M",  "W",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "M",
      "W",  "W",  "W",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "W",
      "D",  "D",  "D",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "D",
      "h",  "h",  "h",  "h",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "h",
      "m",  "m",  "m",  "m",  "m",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "m",
      "s",  "s",  "s",  "s",  "s",  "s",  "s",  "ms", "us", "ns", "ps", "fs", "as", "s",
      "ms", "ms", "ms", "ms", "ms", "ms", "ms", "ms", "us", "ns", "ps", "fs", "as", "ms",
      "us", "us", "us", "us", "us", "us", "us", "us", "us", "ns", "ps", "fs", "as", "us",
      "ns", "ns", "ns", "ns", "ns", "ns", "ns", "ns", "ns", "ns", "ps", "fs", "as", "ns",
      "ps", "ps", "ps", "ps", "ps", "ps", "ps", "ps", "ps", "ps", "ps", "fs", "as", "ps",
      "fs", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "fs", "as", "fs",
      "as", "as", "as", "as", "as", "as", "as", "as", "as", "as", "as", "as", "as", "as",
      "Y",  "M",  "W",  "D",  "h",  "m",  "s",  "ms", "us", "ns", "ps", "fs", "as", "*",
  };
  for (int a = 0; a < kCount; ++a)
    for (int b = 0; b < kCount; ++b) {
      EXPECT_EQ(spelt(pyk::sema::combineDatetimeTimedeltaUnits(unit(a), unit(b))), kCombined[a][b])
          << kUnits[a] << " + " << kUnits[b];
      EXPECT_EQ(spelt(pyk::sema::bestUnit(unit(a), unit(b))), kBest[a][b])
          << kUnits[a] << ", " << kUnits[b];
    }
}

TEST(DatetimeRules, OperationsAndResultTypes) {
  const NumbaType day = NumbaType::datetime(DatetimeUnit::D);
  const NumbaType days = NumbaType::timedelta(DatetimeUnit::D);
  const NumbaType hours = NumbaType::timedelta(DatetimeUnit::h);
  const NumbaType i32 = NumbaType::scalar(ScalarKind::Int32);
  const NumbaType f32 = NumbaType::scalar(ScalarKind::Float32);
  using pyk::ast::BinOpKind;
  auto sub = pyk::sema::datetimeBinary(BinOpKind::Sub, day, day);
  ASSERT_TRUE(sub);
  EXPECT_EQ(sub->op, DatetimeOp::DatetimeMinusDatetime);
  EXPECT_EQ(sub->result, days);
  auto add = pyk::sema::datetimeBinary(BinOpKind::Add, days, hours);
  ASSERT_TRUE(add);
  EXPECT_EQ(add->result, hours); // the finer unit
  // An integer factor is taken as int64, a float as it is.
  auto times = pyk::sema::datetimeBinary(BinOpKind::Mult, i32, days);
  ASSERT_TRUE(times);
  EXPECT_EQ(times->op, DatetimeOp::NumberTimesTimedelta);
  EXPECT_EQ(times->left, NumbaType::scalar(ScalarKind::Int64));
  auto over = pyk::sema::datetimeBinary(BinOpKind::Div, days, f32);
  ASSERT_TRUE(over);
  EXPECT_EQ(over->right, f32);
  EXPECT_EQ(pyk::sema::datetimeBinary(BinOpKind::Div, days, hours)->result,
            NumbaType::scalar(ScalarKind::Float64));
  EXPECT_FALSE(pyk::sema::datetimeBinary(BinOpKind::FloorDiv, days, hours)->numbaFails.empty());
  EXPECT_FALSE(pyk::sema::datetimeBinary(BinOpKind::Add, day, day));
  EXPECT_FALSE(pyk::sema::datetimeBinary(BinOpKind::Mult, days, days));
  EXPECT_FALSE(pyk::sema::datetimeBinary(BinOpKind::Add, days, i32));
  EXPECT_FALSE(
      pyk::sema::datetimeBinary(BinOpKind::Mult, days, NumbaType::scalar(ScalarKind::Boolean)));
  // == between units that do not convert is typed (and false); < is not.
  const NumbaType years = NumbaType::timedelta(DatetimeUnit::Y);
  EXPECT_TRUE(pyk::sema::datetimeComparison(pyk::ast::CmpOpKind::Eq, years, days));
  EXPECT_FALSE(pyk::sema::datetimeComparison(pyk::ast::CmpOpKind::Lt, years, days));
  EXPECT_FALSE(pyk::sema::datetimeUnary(pyk::ast::UnaryOpKind::USub, day));
  EXPECT_EQ(pyk::sema::datetimeAbs(hours)->op, DatetimeOp::TimedeltaAbs);
}

} // namespace
