// PythonBuiltins: Python's builtin names, and which of them numba.cuda supports in device code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pyk::sema {

// A builtin device code may use: `range len min max abs round int float bool complex print
// enumerate zip divmod pow slice tuple isinstance hash iter next sum any all` and the exception
// classes `raise` and `assert` accept.
bool isDeviceBuiltin(std::string_view name);
// Any name Python's builtins module defines.
bool isPythonBuiltin(std::string_view name);
// The device builtins, for did-you-mean.
const std::vector<std::string>& deviceBuiltinNames();

} // namespace pyk::sema
