// LinkedSource: a file of CUDA C++ that numba's foreign-function interface links with a kernel
// (`cuda.declare_device(..., link=...)`, `@cuda.jit(link=[...])`), as the front end found and read
// it: the code generators append its text to the unit they emit.
#pragma once

#include <string>

namespace pyk::types {

struct LinkedSource {
  std::string path; // where it was found (messages and #line directives name it)
  std::string text;
  friend bool operator==(const LinkedSource&, const LinkedSource&) = default;
};

} // namespace pyk::types
