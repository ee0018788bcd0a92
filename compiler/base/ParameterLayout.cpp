// ParameterLayout: the bytes of an entry parameter of each numba type, as the generated C++ lays
// them out.
#include "base/ParameterLayout.h"

#include <algorithm>

namespace pyk::types {

ParameterLayout parameterLayout(const NumbaType& t) {
  ParameterLayout out;
  switch (t.kind()) {
  case NumbaType::Kind::Scalar: {
    out.size = bitWidth(t.scalarKind()) / 8;
    out.alignment = alignmentOf(t.scalarKind()); // a complex: {re, im} of its part
    return out;
  }
  case NumbaType::Kind::Array:
    out.size = 8 + 16 * static_cast<int64_t>(t.ndim()); // T* data; int64 shape[N], strides[N]
    out.alignment = 8;
    return out;
  case NumbaType::Kind::Record:
  case NumbaType::Kind::Pointer:
    out.size = 8; // a pointer to the record, or CPointer's to the scalars
    out.alignment = 8;
    return out;
  case NumbaType::Kind::UniTuple:
  case NumbaType::Kind::Tuple: {
    // `struct { T e[N]; }` or `struct { T0 e0; T1 e1; ... }`; an empty struct is one byte.
    int64_t at = 0;
    for (const NumbaType& e : t.elements()) {
      const ParameterLayout element = parameterLayout(e);
      if (element.size == 0)
        return ParameterLayout{};
      at = (at + element.alignment - 1) / element.alignment * element.alignment;
      out.elementOffsets.push_back(at);
      at += element.size;
      out.alignment = std::max(out.alignment, element.alignment);
    }
    out.size = t.elements().empty() ? 1 : (at + out.alignment - 1) / out.alignment * out.alignment;
    return out;
  }
  case NumbaType::Kind::EnumMember: // its value
    return parameterLayout(t.enumValue());
  case NumbaType::Kind::Datetime: // an int64 count of the unit
  case NumbaType::Kind::Timedelta:
    out.size = 8;
    out.alignment = 8;
    return out;
  case NumbaType::Kind::CharSeq: // the characters (numba passes no CharSeq to a kernel)
    out.size = t.charCount() * (t.isUnicode() ? 4 : 1);
    out.alignment = t.isUnicode() ? 4 : 1;
    return out;
  case NumbaType::Kind::Void:
  case NumbaType::Kind::GridGroup:
  case NumbaType::Kind::Function: // no value at run time
  case NumbaType::Kind::TypeRef:
  case NumbaType::Kind::Vector:   // numba 0.56 takes no vector as a kernel argument
  case NumbaType::Kind::Optional: // nor an Optional (None is an argument of type none)
    return out;
  }
  return out;
}

} // namespace pyk::types
