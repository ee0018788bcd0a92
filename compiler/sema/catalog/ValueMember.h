// ValueMember: the attributes and methods of values in kernels (`a.shape`, `z.real`,
// `a.view(t)`, `g.sync()`) as an enum, each declared once in ValueMembers.def with its kind and
// the properties the analyses rely on.
#pragma once

#include <cstdint>
#include <string_view>

namespace pyk::sema {

enum class ValueMember : uint8_t {
  None, // not a member numba gives kernels
#define VALUE_MEMBER(Id, Name, Kind, Flags) Id,
#include "sema/catalog/ValueMembers.def"
};

enum class ValueMemberKind : uint8_t { Attribute, Method };

namespace value_member_flags {
inline constexpr uint32_t ArrayMetadata = 1u << 0;
inline constexpr uint32_t ThreadPure = 1u << 1;
inline constexpr uint32_t NonNegative = 1u << 2;
} // namespace value_member_flags

struct ValueMemberInfo {
  ValueMember id;
  std::string_view name;
  ValueMemberKind kind;
  uint32_t flags;

  bool has(uint32_t flag) const { return (flags & flag) != 0; }
};

// The row of `member` (not None).
const ValueMemberInfo& valueMemberInfo(ValueMember member);
// The member `name` denotes as an attribute (kind Attribute) or a method (kind Method); None when
// numba gives kernels no such member.
ValueMember attributeNamed(std::string_view name);
ValueMember methodNamed(std::string_view name);

} // namespace pyk::sema
