// VectorTypesTest: numba.cuda's vector types (VectorTypes.def) are numba 0.56's forty — ten base
// types, one to four elements — each constructor an intrinsic of its own whose type is the vector,
// numba's C-name aliases (on an LP64 host) the same constructors, and the members x, y, z, w only
// as far as the vector's count.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/catalog/VectorTypes.h"

namespace {

using pyk::sema::Intrinsic;
using pyk::types::NumbaType;
using pyk::types::ScalarKind;

TEST(VectorTypes, FortyTypesEachTheirOwnConstructor) {
  std::set<std::string> seen;
  for (const pyk::sema::IntrinsicInfo& row : pyk::sema::allIntrinsics()) {
    const std::optional<NumbaType> t = pyk::sema::vectorTypeOf(row.id);
    EXPECT_EQ(t.has_value(), row.typing == pyk::sema::IntrinsicTyping::VectorConstructor)
        << row.name;
    if (!t)
      continue;
    EXPECT_TRUE(t->isVector());
    EXPECT_EQ(row.name, "numba.cuda." + t->str()); // numba.cuda.float32x4 makes float32x4
    EXPECT_EQ(pyk::sema::vectorConstructor(t->scalarKind(), t->vectorSize()), row.id);
    EXPECT_EQ(row.maxArgs, t->vectorSize()) << row.name;
    seen.insert(t->str());
  }
  EXPECT_EQ(seen.size(), 40u);
  EXPECT_TRUE(seen.count("uint64x3"));
  EXPECT_FALSE(seen.count("float16x2")); // numba 0.56 has none
  EXPECT_EQ(pyk::sema::vectorConstructor(ScalarKind::Float16, 2), Intrinsic::None);
  EXPECT_EQ(pyk::sema::vectorConstructor(ScalarKind::Float32, 5), Intrinsic::None);
}

TEST(VectorTypes, AliasesAreTheSameConstructors) {
  struct Case {
    const char* alias;
    const char* type;
  };
  const Case cases[] = {
      {"char1", "int8x1"},        {"short2", "int16x2"},    {"int3", "int32x3"},
      {"long4", "int64x4"},       {"longlong2", "int64x2"}, {"uchar3", "uint8x3"},
      {"ushort1", "uint16x1"},    {"uint4", "uint32x4"},    {"ulong2", "uint64x2"},
      {"ulonglong3", "uint64x3"}, {"float4", "float32x4"},  {"double1", "float64x1"}};
  for (const Case& c : cases) {
    const std::optional<pyk::sema::ApiEntity> alias =
        pyk::sema::lookupApi(std::string("numba.cuda.") + c.alias);
    const std::optional<pyk::sema::ApiEntity> type =
        pyk::sema::lookupApi(std::string("numba.cuda.") + c.type);
    ASSERT_TRUE(alias.has_value()) << c.alias;
    ASSERT_TRUE(type.has_value()) << c.type;
    EXPECT_EQ(alias->kind, pyk::sema::ApiKind::DeviceFunction);
    EXPECT_EQ(alias->intrinsic, type->intrinsic) << c.alias;
  }
  EXPECT_FALSE(pyk::sema::lookupApi("numba.cuda.half2").has_value());
  EXPECT_FALSE(pyk::sema::lookupApi("numba.cuda.float5").has_value());
}

TEST(VectorTypes, MembersAsFarAsTheCount) {
  const NumbaType three = NumbaType::vector(ScalarKind::Float32, 3);
  EXPECT_EQ(pyk::sema::vectorMemberIndex(three, "x"), 0);
  EXPECT_EQ(pyk::sema::vectorMemberIndex(three, "z"), 2);
  EXPECT_EQ(pyk::sema::vectorMemberIndex(three, "w"), std::nullopt);
  EXPECT_EQ(pyk::sema::vectorMemberIndex(three, "r"), std::nullopt);
  EXPECT_EQ(pyk::sema::vectorMemberName(3), "w");
  EXPECT_EQ(three.str(), "float32x3");
  EXPECT_FALSE(three == NumbaType::vector(ScalarKind::Float32, 2));
  EXPECT_FALSE(three == NumbaType::vector(ScalarKind::Int32, 3));
}

} // namespace
