// KernelCompiler: a kernel's specialization typed, emitted and compiled by the compiler service
// (jit::SourceModule::compile) with the runtime's settings (the disk cache's folder and bound, the
// host compiler, NVRTC). Typing and emission errors are one pyk::Error (Compile) with the located
// diagnostics pykc prints.
#pragma once

#include "jit/CompilerService.h"
#include "module/KernelDispatcher.h"
#include "module/KernelState.h"
#include "pyk/settings.hpp"

namespace pyk::detail {

// `k` compiled for `choice` on `target` (Stage::Compiled). `rebuild`: compile even when the disk
// cache has it (the cached binary would not load). A CUDA compile that fails is in nvrtcFailure.
jit::CompiledKernel compileKernel(KernelState& k, const SpecializationChoice& choice,
                                  const jit::Target& target, const RuntimeSettings& settings,
                                  bool rebuild = false);

} // namespace pyk::detail
