// ParameterLayout: the bytes of a kernel's entry parameter of each numba type, as the generated
// C++ declares it (the host compiler and NVRTC lay it out alike): a scalar, a pyk::Array (data
// pointer, shape, strides), a record (a pointer to it), a tuple (a struct of its elements, with
// C++'s padding). The runtime lays a launch's arguments out by it; the emitted tuple structs
// check their size against it.
#pragma once

#include <cstdint>
#include <vector>

#include "base/NumbaType.h"

namespace pyk::types {

struct ParameterLayout {
  int64_t size = 0;
  int64_t alignment = 1;
  // A tuple: where each element starts.
  std::vector<int64_t> elementOffsets;
};

// The layout of a parameter of type `t`; size 0 for a type with no C++ spelling (float16).
ParameterLayout parameterLayout(const NumbaType& t);

} // namespace pyk::types
