// ParameterLayout: the bytes of an entry parameter of each numba type, as the generated C++ lays
// them out.
#include "codegen/ParameterLayout.h"

#include <algorithm>

namespace pyk::codegen {

ParameterLayout parameterLayout(const sema::NumbaType& t) {
  ParameterLayout out;
  switch (t.kind()) {
  case sema::NumbaType::Kind::Scalar: {
    out.size = sema::bitWidth(t.scalarKind()) / 8;
    out.alignment = sema::alignmentOf(t.scalarKind()); // a complex: {re, im} of its part
    return out;
  }
  case sema::NumbaType::Kind::Array:
    out.size = 8 + 16 * static_cast<int64_t>(t.ndim()); // T* data; int64 shape[N], strides[N]
    out.alignment = 8;
    return out;
  case sema::NumbaType::Kind::Record:
    out.size = 8; // a pointer to the record
    out.alignment = 8;
    return out;
  case sema::NumbaType::Kind::UniTuple:
  case sema::NumbaType::Kind::Tuple: {
    // `struct { T e[N]; }` or `struct { T0 e0; T1 e1; ... }`; an empty struct is one byte.
    int64_t at = 0;
    for (const sema::NumbaType& e : t.elements()) {
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
  case sema::NumbaType::Kind::Void:
  case sema::NumbaType::Kind::GridGroup:
  case sema::NumbaType::Kind::Function: // no value at run time
  case sema::NumbaType::Kind::TypeRef:
  case sema::NumbaType::Kind::Vector: // numba 0.56 takes no vector as a kernel argument
    return out;
  }
  return out;
}

} // namespace pyk::codegen
