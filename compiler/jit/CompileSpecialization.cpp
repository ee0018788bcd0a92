// CompileSpecialization: the front end (typing, then emission for the target) on a large stack
// under the caller's front-end lock, then the backend's compile outside it.
#include "jit/CompileSpecialization.h"

#include "base/LargeStack.h"
#include "base/ParameterLayout.h"
#include "codegen/emit/CpuEmitter.h"
#include "codegen/emit/CudaEmitter.h"
#include "codegen/spelling/CppNames.h"
#include "ir/IrVerifier.h"
#include "jit/CompileFlags.h"
#include "jit/CpuObjectCompile.h"
#include "jit/CudaImageCompile.h"
#include "jit/NvrtcCompiler.h"
#include "lower/Lowering.h"
#include "sema/typing/TypeInference.h"

namespace pyk::jit {

namespace {

// Runs `work` under the request's front-end lock (if any) on a stack deep enough for the typer
// and the emitters, which recurse with the program's nesting.
template <typename Work>
void runUnderModuleLock(const SpecializationRequest& request, Work&& work) {
  std::unique_lock<std::mutex> lock;
  if (request.frontEndMutex != nullptr)
    lock = std::unique_lock<std::mutex>(*request.frontEndMutex);
  base::runWithLargeStack(work);
}

// Lowers `spec` to the typed IR and verifies it; what lowering does not cover is reported to
// `diags`, a problem of lowering's own or the verifier's as an internal error at the function
// (the module is then null).
lower::LoweredModule lowerAndVerify(const SpecializationRequest& request,
                                    const sema::Specialization& spec, DiagnosticEngine& diags) {
  lower::LoweredModule lowered =
      lower::lowerSpecialization(request.module, request.file, spec, diags);
  std::vector<std::string> problems = std::move(lowered.internalProblems);
  if (lowered.module != nullptr)
    for (std::string& p : ir::verify(*lowered.module))
      problems.push_back(std::move(p));
  if (!problems.empty()) {
    std::string text = "the typed IR of `" + spec.describe() + "` is malformed (a bug in pyk):";
    for (size_t i = 0; i < problems.size() && i < 5; ++i)
      text += "\n  " + problems[i];
    if (problems.size() > 5)
      text += "\n  and " + std::to_string(problems.size() - 5) + " more";
    diags.report(DiagKind::InternalError, request.function.def->nameRange, {text});
    lowered.module = nullptr;
  }
  return lowered;
}

// CUDA's parameter space for a kernel (CUDA 12.1 and later, Volta and later GPUs).
constexpr int64_t kKernelParameterBytes = 32764;

// Whether a kernel's parameters, laid out as its entry point takes them, fit CUDA's parameter
// space; reports where they do not (numba cannot launch such a kernel either).
bool parametersFit(const SpecializationRequest& request) {
  if (request.function.kind != types::CompiledFunctionKind::Kernel)
    return true;
  int64_t bytes = 0;
  for (const types::NumbaType& param : request.params) {
    const types::ParameterLayout layout = types::parameterLayout(param);
    const int64_t alignment = std::max<int64_t>(layout.alignment, 1);
    bytes = (bytes + alignment - 1) / alignment * alignment +
            (layout.size > 0 ? layout.size : 2); // float16: 2
  }
  if (bytes <= kKernelParameterBytes)
    return true;
  request.diags.report(
      DiagKind::TypeKernelParametersTooLarge, request.function.def->nameRange,
      {request.function.name, std::to_string(bytes), std::to_string(kKernelParameterBytes)});
  return false;
}

// Types the request's function in `set` and, past Stage::Typed, lowers it to the IR or emits it
// for the target; false when any of them reported an error.
bool typeAndEmit(const SpecializationRequest& request, sema::SpecializationSet& set,
                 const sema::Specialization*& spec, CompiledSpecialization& out) {
  bool ok = false;
  runUnderModuleLock(request, [&] {
    const unsigned errorsBefore = request.diags.errorCount();
    // A type error names the specialization it was found in, once however many share it.
    std::string described = request.function.name + "(";
    for (size_t i = 0; i < request.params.size(); ++i)
      described += (i ? ", " : "") + request.params[i].spelling();
    request.diags.setSpecialization(described + ")");
    spec = sema::specialize(request.module, request.function, request.params, set, request.diags,
                            request.returnType);
    request.diags.setSpecialization("");
    if (spec == nullptr && request.diags.errorCount() == errorsBefore)
      request.diags.report(
          DiagKind::InternalError, request.function.def->nameRange,
          {"typing `" + described + ")` failed without saying why (a bug in pyk)"});
    if (spec == nullptr || request.diags.errorCount() != errorsBefore || !parametersFit(request))
      return;
    out.description = spec->describe();
    if (request.stage == Stage::Typed) {
      ok = true;
      return;
    }
    lower::LoweredModule lowered = lowerAndVerify(request, *spec, request.diags);
    out.ir = std::move(lowered.module);
    if (out.ir == nullptr || request.diags.errorCount() != errorsBefore)
      return;
    if (request.stage == Stage::Lowered) {
      ok = true;
      return;
    }
    if (const auto* cpu = std::get_if<CpuTarget>(&request.target))
      out.cpu = codegen::emitCpu(*out.ir, request.diags, cpu->options);
    else
      out.cuda = codegen::emitCuda(*out.ir, request.diags);
    ok = request.diags.errorCount() == errorsBefore;
    // Never an empty result: a unit emitted with no code for the function is pyk's bug.
    const std::string& emitted =
        std::holds_alternative<CpuTarget>(request.target) ? out.cpu.source : out.cuda.source;
    if (ok && emitted.find(codegen::mangledName(out.ir->entry()) + "(") == std::string::npos) {
      request.diags.report(DiagKind::InternalError, request.function.def->nameRange,
                           {"no code was emitted for `" + out.description + "` (a bug in pyk)"});
      ok = false;
    }
  });
  return ok;
}

// `flags` and the include directories of the unit's linked CUDA C++ files.
std::vector<std::string> withLinkedIncludes(std::vector<std::string> flags, const ir::Module& ir) {
  for (std::string& include : linkedSourceIncludes(ir.linkedSources))
    flags.push_back(std::move(include));
  return flags;
}

} // namespace

std::optional<CompiledSpecialization> compileSpecialization(const SpecializationRequest& request) {
  sema::SpecializationSet ownSet;
  sema::SpecializationSet& set = request.set != nullptr ? *request.set : ownSet;
  const sema::Specialization* spec = nullptr;
  CompiledSpecialization out;
  if (!typeAndEmit(request, set, spec, out))
    return std::nullopt;
  if (request.set != nullptr)
    out.specialization = spec;
  if (request.stage != Stage::Compiled)
    return out;
  if (const auto* cpu = std::get_if<CpuTarget>(&request.target)) {
    const std::uint32_t* shape = cpu->options.blockShape;
    const std::string target = shape[0] == 0
                                   ? std::string("cpu")
                                   : "cpu block " + std::to_string(shape[0]) + "," +
                                         std::to_string(shape[1]) + "," + std::to_string(shape[2]);
    const CachedArtifact object =
        compileCpuObject(request.settings, out.cpu.source, out.description, request.rebuild,
                         request.file.path() + "\t" + out.description + "\t" + target,
                         withLinkedIncludes(hostFlags(request.function.options), *out.ir));
    out.binary = object.bytes;
    out.fromCache = object.fromCache;
    out.target = "cpu";
    return out;
  }
  std::optional<CudaTarget> target;
  if (const auto* named = std::get_if<CudaTarget>(&request.target)) {
    target = *named;
  } else {
    const CudaDevice& device = std::get<CudaDevice>(request.target);
    const Nvrtc* nvrtc = Nvrtc::load(request.settings.nvrtcLibrary);
    target = cudaTargetFor(nvrtc, device.computeCapabilityMajor, device.computeCapabilityMinor);
    if (!target) {
      out.nvrtcFailure =
          NvrtcFailure{NvrtcFailure::Kind::NoArchitecture, nvrtcVersion(nvrtc), "", ""};
      return out;
    }
    target->index32 = device.index32;
  }
  // An internal error quotes the generated lines NVRTC names: the unit emitted once more without
  // #line directives.
  auto unitWithoutLines = [&] {
    std::string source;
    runUnderModuleLock(request, [&] {
      DiagnosticEngine quiet;
      source = codegen::emitCuda(*out.ir, quiet, false).source;
    });
    return source;
  };
  // GPU code numba's link= names (PTX, a CUBIN...), which nvJitLink links with a CUBIN.
  const std::vector<types::LinkedSource> gpuCode = types::gpuCodeOf(out.ir->linkedSources);
  if (!target->cubin)
    out.unlinkedCode = types::describe(gpuCode);
  CudaImage image = compileCudaImage(
      request.settings, out.cuda.source, request.file.path() + ".cu", *target,
      withLinkedIncludes(nvrtcFlags(request.function.options), *out.ir), gpuCode,
      out.ir->entry().kind == types::CompiledFunctionKind::DeviceFunction, request.rebuild,
      unitWithoutLines, request.file.path() + "\t" + out.description + "\t" + target->describe());
  out.binary = std::move(image.bytes);
  out.fromCache = image.fromCache;
  out.target = target->describe();
  out.nvrtcFailure = std::move(image.failure);
  out.nvrtcWarnings = std::move(image.warnings);
  return out;
}

} // namespace pyk::jit
