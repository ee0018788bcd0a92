// ValueMember: the rows of ValueMembers.def, and the lookup of a member by name.
#include "sema/catalog/ValueMember.h"

#include <array>

namespace pyk::sema {

namespace value_member_flags {

// The rows, declared in the flags' own namespace so that `ThreadPure` in ValueMembers.def is the
// member's flag even where Intrinsics.def's flags of the same names are in scope (a unity build).
constexpr ValueMemberInfo kValueMembers[] = {
    {ValueMember::None, "", ValueMemberKind::Attribute, 0},
#define VALUE_MEMBER(Id, Name, Kind, Flags)                                                        \
  {ValueMember::Id, Name, ValueMemberKind::Kind, static_cast<uint32_t>(Flags)},
#include "sema/catalog/ValueMembers.def"
};

} // namespace value_member_flags

namespace {

using value_member_flags::kValueMembers;

ValueMember named(std::string_view name, ValueMemberKind kind) {
  for (const ValueMemberInfo& m : kValueMembers)
    if (m.id != ValueMember::None && m.kind == kind && m.name == name)
      return m.id;
  return ValueMember::None;
}

} // namespace

const ValueMemberInfo& valueMemberInfo(ValueMember member) {
  return kValueMembers[static_cast<size_t>(member)];
}

ValueMember attributeNamed(std::string_view name) {
  return named(name, ValueMemberKind::Attribute);
}

ValueMember methodNamed(std::string_view name) {
  return named(name, ValueMemberKind::Method);
}

} // namespace pyk::sema
