// CudaImageCompile: a CUDA unit compiled by NVRTC into an image (a CUBIN or PTX), linked by
// nvJitLink with the GPU code numba's link= names, through the disk cache (key: the unit, the
// linked code, the support header, the target, the options, NVRTC's, nvJitLink's and pyk's
// versions).
// When NVRTC rejects the unit (a bug in pyk), the unit is compiled once more without #line, so
// NVRTC names the generated lines, and those lines are quoted.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "jit/CompileSpecialization.h"

namespace pyk::jit {

struct CudaImage {
  std::string bytes;                   // the CUBIN or the PTX text; empty on failure
  bool fromCache = false;              // taken from the disk cache
  std::optional<NvrtcFailure> failure; // why there is no image
  // NVRTC's log of a compile that succeeded with warnings (none on a cache hit): the generated
  // code should compile cleanly, so any is a bug in pyk.
  std::string warnings;
};

// Compiles `source` (named `name` in NVRTC's messages) for `target`, with NVRTC's `flags` after
// pyk's own (jit/CompileFlags: what the decorator's options ask for). `rebuild`: compile even on a
// cache hit, and replace the entry. `sourceWithoutLines` gives the unit without #line, asked for
// only when NVRTC rejects `source`.
// `linked`: GPU code numba's link= names (never CUDA C++, which is in `source`): the unit is
// then compiled relocatable (-rdc) and, for a CUBIN, linked with it by nvJitLink; a PTX image
// is the unit's alone. `relocatable`: compiled with -rdc even so (a device function alone,
// which whole-program compilation would drop).
CudaImage compileCudaImage(const JitSettings& settings, const std::string& source,
                           const std::string& name, const CudaTarget& target,
                           const std::vector<std::string>& flags,
                           const std::vector<types::LinkedSource>& linked, bool relocatable,
                           bool rebuild, const std::function<std::string()>& sourceWithoutLines,
                           const std::string& label = {});

} // namespace pyk::jit
