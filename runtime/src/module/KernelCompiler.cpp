// KernelCompiler: the runtime's request to the jit library, and its diagnostics as a pyk::Error.
#include "module/KernelCompiler.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

#include "module/ArgumentTypes.h"
#include "module/ModuleState.h"
#include "module/SlowCompileNotice.h"
#include "profile/NvtxRanges.h"

namespace pyk::detail {

namespace {

bool hasNamedTuple(const types::NumbaType& t) {
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
  const types::FunctionSignature signature{choice.returnType.value_or(types::NumbaType()),
                                           choice.params};
  const bool spellable = std::ranges::none_of(choice.params, hasNamedTuple);
  const std::string line = (spellable ? "" : "# ") + k.module->path() + "\t" +
                           k.function->qualifiedName + "\t" + signature.spelling() + "\n";
  const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  [[maybe_unused]] const ssize_t written = ::write(fd, line.data(), line.size());
  ::close(fd);
}

// Where a compile is for, as its NVTX range says: `sm_90`, `compute_90 index32`, `the CPU`.
std::string targetName(const jit::Target& target) {
  if (const auto* device = std::get_if<jit::CudaDevice>(&target))
    return "sm_" + std::to_string(device->computeCapabilityMajor) +
           std::to_string(device->computeCapabilityMinor) + (device->index32 ? " index32" : "");
  if (const auto* cuda = std::get_if<jit::CudaTarget>(&target))
    return cuda->describe();
  return "the CPU";
}

} // namespace

jit::CompiledKernel compileKernel(KernelState& k, const SpecializationChoice& choice,
                                  const jit::Target& target, const RuntimeSettings& settings,
                                  bool rebuild) {
  const ModuleState& m = *k.module;
  const NvtxRange range(NvtxRangeKind::Compile, [&] {
    return "compile " + describeCall(k.function->qualifiedName, choice.params) + " for " +
           targetName(target);
  });
  std::optional<SlowCompileNotice> notice;
  if (settings.compile_messages)
    notice.emplace(
        "pyk: compiling " + describeCall(k.function->qualifiedName, choice.params) + " for " +
        (std::holds_alternative<jit::CpuTarget>(target) ? std::string("the CPU") : "CUDA (NVRTC)") +
        " (" + m.path() + ")...");
  jit::CompiledKernel compiled = m.source->compile(*k.function, choice.params, choice.returnType,
                                                   target, jit::jitSettingsOf(settings), rebuild);
  notice.reset();
  if (!settings.specialization_log.empty())
    logSpecialization(settings.specialization_log, k, choice);
  return compiled;
}

} // namespace pyk::detail
