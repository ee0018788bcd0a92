// VectorTypes: numba.cuda's vector types (VectorTypes.def) as NumbaTypes: the type each
// constructor intrinsic makes, the C names numba aliases them by, and their members x, y, z, w.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "base/NumbaType.h"
#include "sema/catalog/Intrinsic.h"

namespace pyk::sema {

// The vector type `id` constructs (Intrinsic::VectorFloat32x4: float32x4); nullopt for any other
// intrinsic.
std::optional<NumbaType> vectorTypeOf(Intrinsic id);

// The constructor of `<base>x<count>`, or None when numba has no such vector type.
Intrinsic vectorConstructor(ScalarKind base, int count);

// A C name numba gives the vector types of one base type: `numba.cuda.<alias><count>` is the
// base's `<count>`-element type (`float4` is float32x4, `long2` and `longlong2` int64x2).
struct VectorAlias {
  std::string_view alias;
  ScalarKind base;
};
std::span<const VectorAlias> vectorAliases();

// Which element a member names: 0 to 3 for x, y, z, w if `vector` has that many; nullopt else.
std::optional<int> vectorMemberIndex(const NumbaType& vector, std::string_view member);
// The member of element `i` (0 to 3): "x", "y", "z", "w".
std::string_view vectorMemberName(int i);

} // namespace pyk::sema
