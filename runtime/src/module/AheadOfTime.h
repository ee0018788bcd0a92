// AheadOfTime: modules built by `pykc build` (pyk/aot.hpp): loading one, and finding a launch's
// specialization among those it carries before the JIT is asked.
#pragma once

#include <string>
#include <vector>

#include "base/NumbaType.h"
#include "module/ModuleState.h"
#include "pyk/aot.hpp"

namespace pyk::detail {

// The CPU code or CUDA images built ahead for `kernel` with these parameter types; null if none.
const aot::CpuKernel* aheadCpuKernel(const ModuleState& m, const std::string& kernel,
                                     const std::vector<types::NumbaType>& params);
const aot::CudaKernel* aheadCudaKernel(const ModuleState& m, const std::string& kernel,
                                       const std::vector<types::NumbaType>& params, bool index32);

// `saxpy(float32, float32[::1], float32[::1]) -> none`: how a kernel's specialization is named in
// messages (as the compiler's own descriptions).
std::string describeSpecialization(const std::string& kernel,
                                   const std::vector<types::NumbaType>& params);

// The error of a launch whose specialization was not built ahead and which the JIT could not
// compile (no host compiler, no NVRTC): what was built ahead, then the JIT's reason.
[[noreturn]] void throwNotBuiltAhead(const ModuleState& m, const std::string& kernel,
                                     const std::string& description, const std::string& backend,
                                     const Error& jitError);

} // namespace pyk::detail
