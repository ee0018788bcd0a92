// ParameterLayoutTest: the bytes of entry parameters as the generated C++ lays them out (the
// runtime writes launch arguments by it; the generated tuple structs static_assert it).
#include "base/ParameterLayout.h"

#include <gtest/gtest.h>

namespace {

using pyk::types::ArrayLayout;
using pyk::types::NumbaType;
using pyk::types::parameterLayout;
using pyk::types::ScalarKind;

TEST(ParameterLayout, ScalarsArraysAndRecords) {
  EXPECT_EQ(parameterLayout(NumbaType::scalar(ScalarKind::Boolean)).size, 1);
  EXPECT_EQ(parameterLayout(NumbaType::scalar(ScalarKind::Complex64)).size, 8);
  EXPECT_EQ(parameterLayout(NumbaType::scalar(ScalarKind::Complex64)).alignment, 4);
  EXPECT_EQ(parameterLayout(NumbaType::scalar(ScalarKind::Float16)).size, 2); // pyk::float16
  EXPECT_EQ(parameterLayout(NumbaType::array(ScalarKind::Float32, 3, ArrayLayout::A)).size,
            8 + 3 * 16);
  pyk::types::RecordLayout r;
  r.fields.push_back(pyk::types::RecordField::scalar("x", ScalarKind::Int8, 0));
  r.size = 1;
  EXPECT_EQ(parameterLayout(NumbaType::record(r)).size, 8); // a pointer to the record
}

TEST(ParameterLayout, TuplesAreStructsWithCsPadding) {
  // Tuple(int8, float64, int32): e0 at 0, e1 at 8, e2 at 16, 24 bytes in all.
  const auto t = parameterLayout(
      NumbaType::tuple({NumbaType::scalar(ScalarKind::Int8), NumbaType::scalar(ScalarKind::Float64),
                        NumbaType::scalar(ScalarKind::Int32)}));
  EXPECT_EQ(t.elementOffsets, (std::vector<int64_t>{0, 8, 16}));
  EXPECT_EQ(t.size, 24);
  EXPECT_EQ(t.alignment, 8);
  // UniTuple(int16 x 3): an array member, 6 bytes aligned to 2.
  const auto u = parameterLayout(NumbaType::uniTuple(NumbaType::scalar(ScalarKind::Int16), 3));
  EXPECT_EQ(u.size, 6);
  EXPECT_EQ(u.alignment, 2);
  // The empty tuple is an empty struct: one byte.
  EXPECT_EQ(parameterLayout(NumbaType::tuple({})).size, 1);
  // Nested: Tuple(UniTuple(int8 x 3), array(float64, 1d, C)): the array at 8.
  const auto n =
      parameterLayout(NumbaType::tuple({NumbaType::uniTuple(NumbaType::scalar(ScalarKind::Int8), 3),
                                        NumbaType::array(ScalarKind::Float64, 1, ArrayLayout::C)}));
  EXPECT_EQ(n.elementOffsets, (std::vector<int64_t>{0, 8}));
  EXPECT_EQ(n.size, 32);
}

} // namespace
