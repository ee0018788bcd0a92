// LinkedSource: CUDA C++ that numba's foreign-function interface links with a kernel
// (`cuda.declare_device(..., link=...)`, `@cuda.jit(link=[...])`): a file as the front end found
// and read it, or numba-cuda's `cuda.CUSource(text)` written in the module itself. The code
// generators append its text to the unit they emit.
#pragma once

#include <string>

namespace pyk::types {

struct LinkedSource {
  std::string path; // where it was found, or a CUSource's name (messages and #line name it)
  std::string text;
  bool inMemory = false; // a cuda.CUSource: its text is in the module's own, no file's
  friend bool operator==(const LinkedSource&, const LinkedSource&) = default;
};

} // namespace pyk::types
