// VectorTypes: the rows of VectorTypes.def as NumbaTypes.
#include "sema/catalog/VectorTypes.h"

namespace pyk::sema {

namespace {

struct VectorRow {
  Intrinsic id;
  ScalarKind base;
  int count;
};

constexpr VectorRow kVectors[] = {
#define VECTOR_TYPE(Id, BaseName, Base, Count) {Intrinsic::Id, ScalarKind::Base, Count},
#include "sema/catalog/VectorTypes.def"
};

constexpr VectorAlias kAliases[] = {
#define VECTOR_ALIAS(Alias, Base) {#Alias, ScalarKind::Base},
#include "sema/catalog/VectorTypes.def"
};

constexpr std::string_view kMembers[] = {"x", "y", "z", "w"};

} // namespace

std::optional<NumbaType> vectorTypeOf(Intrinsic id) {
  for (const VectorRow& row : kVectors)
    if (row.id == id)
      return NumbaType::vector(row.base, row.count);
  return std::nullopt;
}

Intrinsic vectorConstructor(ScalarKind base, int count) {
  for (const VectorRow& row : kVectors)
    if (row.base == base && row.count == count)
      return row.id;
  return Intrinsic::None;
}

std::span<const VectorAlias> vectorAliases() {
  return kAliases;
}

std::optional<int> vectorMemberIndex(const NumbaType& vector, std::string_view member) {
  for (int i = 0; i < vector.vectorSize() && i < 4; ++i)
    if (kMembers[i] == member)
      return i;
  return std::nullopt;
}

std::string_view vectorMemberName(int i) {
  return kMembers[i];
}

} // namespace pyk::sema
