// optional.h: numba's Optional (`OptionalType(int64)`), a value or None: what a device function
// returns when some of its paths return a value and others None, or a variable assigned both.
// Used as a value it is unwrapped (numba's optional_to_any): None runs `on_none`, which the
// generated code makes numba's TypeError (the thread ends; with debug=True the launch stops).
#pragma once

#include "target_macros.h"

namespace pyk {

struct none_t {};
inline constexpr none_t none{};

template <class T>
struct optional {
  T value{};
  bool valid = false;

  PYK_HD optional() {}
  PYK_HD optional(none_t) {}
  PYK_HD optional(const T& v) : value(v), valid(true) {}
};

// The value of `o`; `on_none()` (which does not return to its caller's use of the value) when it
// is None.
template <class T, class OnNone>
PYK_HD T unwrap_optional(const optional<T>& o, OnNone&& on_none) {
  if (!o.valid)
    on_none();
  return o.value;
}

// An Optional of another value type: None stays None, a value is converted by `convert`.
template <class To, class From, class Convert>
PYK_HD optional<To> optional_map(const optional<From>& o, Convert&& convert) {
  if (!o.valid)
    return optional<To>();
  return optional<To>(convert(o.value));
}

} // namespace pyk
