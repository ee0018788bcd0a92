// SupportHeaderText: stdlib/cuda/pyk_support.h, embedded in pykc at build time.
#pragma once

#include <string_view>

namespace pyk::driver {

// The name emitted code includes (`#include "pyk_support.h"`) and the header's full text, as it
// was in the source tree when pykc was built (generated from stdlib/cuda/pyk_support.h).
inline constexpr std::string_view kSupportHeaderName = "pyk_support.h";
std::string_view supportHeaderText();

} // namespace pyk::driver
