// LibrarySourceText: the .pyk sources of pyk's standard library, embedded in the compiler at build
// time (generated from stdlib/numba/cuda/random.pyk), so that pykc and the runtime find them
// wherever they run.
#pragma once

#include <string_view>

namespace pyk::sema {

// stdlib/numba/cuda/random.pyk as it was when pyk was built.
std::string_view numbaCudaRandomSourceText();

} // namespace pyk::sema
