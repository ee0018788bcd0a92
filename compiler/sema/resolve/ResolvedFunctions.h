// ResolvedFunctions: what resolution does with the compiled functions once the module's
// top-level statements are bound (ModuleResolver): the definitions a later one shadows, the device
// twins of kernels device code calls, the @njit functions resolved where GPU code calls them.
#pragma once

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/ResolvedModule.h"

namespace pyk::sema {

// Python keeps the last definition of a name: an earlier one is dead (`shadowed`).
void markShadowed(ResolvedModule& result);

// A device twin of every kernel whose name a compiled function's body mentions (numba-cuda
// compiles a kernel that device code calls as a device function there), or of every kernel of a
// module another imports (`imported`: the importer's code may call any): specialized for the
// call's argument types, whatever signatures the decorator lists (they are the kernel's).
void addDeviceTwins(ResolvedModule& result, bool imported);

// `@njit` functions become device functions where GPU code calls them, as in numba: each is
// resolved and checked for the kernel language like the others, but what is wrong in it is
// reported (into `diags`) only when GPU code refers to it (directly, or through other @njit
// functions).
void resolveCpuJitFunctions(ResolvedModule& result, DiagnosticEngine& diags);

} // namespace pyk::sema
