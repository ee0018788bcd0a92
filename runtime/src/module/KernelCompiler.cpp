// KernelCompiler: the runtime's request to the jit library, and its diagnostics as a pyk::Error.
#include "module/KernelCompiler.h"

#include <sstream>

#include "module/ModuleState.h"

namespace pyk::detail {

jit::JitSettings jitSettingsOf(const RuntimeSettings& settings) {
  jit::JitSettings out;
  out.cacheFolder = settings.cacheFolder;
  out.cacheMaxBytes = settings.cacheMaxBytes;
  out.hostCompiler = settings.hostCompiler;
  out.nvrtcLibrary = settings.libnvrtc;
  return out;
}

jit::CompiledSpecialization compileKernel(KernelState& k, const SpecializationChoice& choice,
                                          const jit::Target& target,
                                          const RuntimeSettings& settings, bool rebuild) {
  ModuleState& m = *k.module;
  DiagnosticEngine diags(&m.file);
  jit::SpecializationRequest request{.module = m.resolved,
                                     .file = m.file,
                                     .function = *k.function,
                                     .params = choice.params,
                                     .returnType = choice.returnType,
                                     .target = target,
                                     .diags = diags,
                                     .stage = jit::Stage::Compiled,
                                     .settings = jitSettingsOf(settings),
                                     .set = nullptr,
                                     .frontEndMutex = &m.compileMutex,
                                     .rebuild = rebuild};
  std::optional<jit::CompiledSpecialization> compiled = jit::compileSpecialization(request);
  if (!compiled) {
    std::ostringstream out;
    diags.render(out, false);
    throw Error(ErrorKind::Compile, out.str());
  }
  return std::move(*compiled);
}

} // namespace pyk::detail
