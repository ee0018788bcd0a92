// IntrinsicRowText: how docs/LANGUAGE.md describes one row of the intrinsic table (its name as
// kernels write it, its kind and argument count, what a call is typed as, how each backend spells
// it, what the analyses know of it), and the markdown it is written in. pyk_language_reference's
// tables (LanguageReference.cpp) are made of these.
#pragma once

#include <string>
#include <string_view>

#include "base/NumbaType.h"
#include "sema/catalog/Intrinsic.h"

namespace pyk::tools {

// A markdown table cell (`|` escaped), inline code.
std::string cell(std::string_view text);
std::string code(std::string_view text);
// The shortest text that reads back as `value` (3.141592653589793, inf, nan).
std::string number(double value);
const char* kindName(types::ScalarKind kind);

// The name as kernels write it after `from numba import cuda` (`cuda.syncthreads`), or the
// module's own name (`math.sin`, `numpy.sin`, `range`).
std::string writtenName(const sema::IntrinsicInfo& row);
// value, constant, function or device function.
std::string kindOf(const sema::IntrinsicInfo& row);
std::string argumentCount(const sema::IntrinsicInfo& row);
// What a use is typed as: sampled results from numba's scalar rules where they type it, else the
// typing rule in words.
std::string typedAs(const sema::IntrinsicInfo& row);
// Whether kernels can use the row, and how a backend (`spelling`: its column) spells it.
std::string backendSupport(const sema::IntrinsicInfo& row, std::string_view spelling);
// What the analyses rely on (barrier, warp collective) and why a row cannot be used.
std::string notesOf(const sema::IntrinsicInfo& row);

} // namespace pyk::tools
