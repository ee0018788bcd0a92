// KernelCompiler: the runtime's request to the jit library, and its diagnostics as a pyk::Error.
#include "module/KernelCompiler.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "module/ArgumentTypes.h"
#include "module/ModuleState.h"
#include "module/SlowCompileNotice.h"

namespace pyk::detail {

namespace {

bool hasNamedTuple(const sema::NumbaType& t) {
  if (!t.isTuple())
    return false;
  return t.isNamedTuple() || std::ranges::any_of(t.elements(), hasNamedTuple);
}

// PYK_SPECIALIZATION_LOG: `source<TAB>kernel<TAB>signature` appended with one write(2) to a file
// opened O_APPEND, so that lines from threads and processes sharing the log never interleave. A
// signature no signature string can spell (a named tuple's fields) is logged as a comment, `#`
// first. A log that cannot be written is skipped: it must never fail a launch.
void logSpecialization(const std::filesystem::path& log, const KernelState& k,
                       const SpecializationChoice& choice) {
  const sema::FunctionSignature signature{choice.returnType.value_or(sema::NumbaType()),
                                          choice.params};
  const bool spellable = std::ranges::none_of(choice.params, hasNamedTuple);
  const std::string line = (spellable ? "" : "# ") + k.module->file.path() + "\t" +
                           k.function->qualifiedName + "\t" + signature.spelling() + "\n";
  const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  [[maybe_unused]] const ssize_t written = ::write(fd, line.data(), line.size());
  ::close(fd);
}

} // namespace

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
                                     .settings = jit::jitSettingsOf(settings),
                                     .set = nullptr,
                                     .frontEndMutex = &m.compileMutex,
                                     .rebuild = rebuild};
  std::optional<SlowCompileNotice> notice;
  if (settings.compile_messages)
    notice.emplace(
        "pyk: compiling " + describeCall(k.function->qualifiedName, choice.params) + " for " +
        (std::holds_alternative<jit::CpuTarget>(target) ? std::string("the CPU") : "CUDA (NVRTC)") +
        " (" + m.file.path() + ")...");
  std::optional<jit::CompiledSpecialization> compiled = jit::compileSpecialization(request);
  notice.reset();
  if (!compiled) {
    std::ostringstream out;
    diags.render(out, false);
    throw Error(ErrorKind::Compile, out.str());
  }
  if (!settings.specialization_log.empty())
    logSpecialization(settings.specialization_log, k, choice);
  return std::move(*compiled);
}

} // namespace pyk::detail
