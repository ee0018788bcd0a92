// CompileFlags: the compiler flags a function's decorator options ask for, as numba-cuda defines
// the options: NVRTC's for the CUDA backend, the host C++ compiler's for the CPU backend; and
// what the compilers are told of, and say about, the CUDA C++ a unit links (numba's link=).
#pragma once

#include <string>
#include <vector>

#include "sema/resolve/CompiledFunction.h"

namespace pyk::jit {

// NVRTC's options for a kernel with these decorator options (appended to pyk's own):
//   fastmath=True         --use_fast_math
//   lineinfo=True         -lineinfo (the unit's #line directives name the .pyk: `.loc` in PTX)
//   debug=True, opt=False -G (full debug information, unoptimised)
//   debug=True, opt=True  -G --dopt=on (numba-cuda warns that CUDA does not support the pair;
//                         NVRTC keeps the code optimised with line information only)
//   opt=False             -Xnvvm -opt=0 (NVVM's optimiser off, as numba-cuda's opt=0)
//   max_registers=N       --maxrregcount=N
// `launch_bounds=` is an attribute of the kernel in the unit (codegen's kernelLimits).
std::vector<std::string> nvrtcFlags(const sema::DecoratorOptions& options);

// The host compiler's flags beyond pyk's own (HostCompiler::flags): `-g1` for lineinfo=True and
// `-g` for debug=True (debug information for the unit's #line directives; the code is the same).
// opt=False changes nothing on the CPU: the CPU backend's code is what its execution plan makes.
std::vector<std::string> hostFlags(const sema::DecoratorOptions& options);

// `-I DIR` for the directory of each CUDA C++ file linked into the unit (numba's link=), so that
// its `#include "x.cuh"` finds what sits beside it, for NVRTC and the host compiler alike.
std::vector<std::string> linkedSourceIncludes(const std::vector<types::LinkedSource>& sources);

// The linked CUDA C++ file that a compiler's log reports an error in (the emitter appends each
// under `#line 1 "PATH"` after its marker; gcc writes `PATH:LINE:COL: error:`, NVRTC
// `PATH(LINE): error:`); "" when the unit links none or the errors are elsewhere. Such an error is
// the user's to mend, not a bug in pyk.
std::string linkedSourceInError(const std::string& unit, const std::string& log);

} // namespace pyk::jit
