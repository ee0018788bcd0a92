// KernelCompiler: a kernel's specialization typed, emitted and compiled through
// jit::compileSpecialization with the runtime's settings (the disk cache's folder and bound, the
// host compiler, NVRTC), under its module's front-end lock. Typing and emission errors become one
// pyk::Error (Compile) with the located diagnostics pykc prints.
#pragma once

#include "jit/CompileSpecialization.h"
#include "module/KernelDispatcher.h"
#include "module/KernelState.h"
#include "pyk/settings.hpp"

namespace pyk::detail {

// `k` compiled for `choice` on `target` (Stage::Compiled). `rebuild`: compile even when the disk
// cache has it (the cached binary would not load). A CUDA compile that fails is in nvrtcFailure.
jit::CompiledSpecialization compileKernel(KernelState& k, const SpecializationChoice& choice,
                                          const jit::Target& target,
                                          const RuntimeSettings& settings, bool rebuild = false);

} // namespace pyk::detail
