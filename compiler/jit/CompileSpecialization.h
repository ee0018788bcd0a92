// CompileSpecialization: the one way from a kernel and its argument types to code that runs:
// typed (sema::specialize), emitted (codegen::emitCuda or emitCpu) and compiled (NVRTC or the host
// C++ compiler) through the disk cache. pykc (`emit --emit=typed|cuda|cpu|ptx|cubin`, `check`)
// and the runtime's CPU and CUDA launches all go through it; loading what it compiles
// (cuModuleLoadData, dlopen) is the runtime's.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "ir/Ir.h"
#include "jit/CompiledKernel.h"
#include "jit/JitSettings.h"
#include "sema/resolve/ResolvedModule.h"
#include "sema/typing/Specialization.h"

namespace pyk::jit {

struct SpecializationRequest {
  const sema::ResolvedModule& module; // the resolved module the function belongs to
  const SourceFile& file;             // its source, for #line directives and diagnostics
  const sema::CompiledFunction& function;
  std::vector<types::NumbaType> params;       // the argument types to type it for
  std::optional<types::NumbaType> returnType; // the signature's declared return type, if any
  Target target;
  DiagnosticEngine& diags; // typing and emission errors, located in `file`
  Stage stage = Stage::Compiled;
  JitSettings settings{};
  // Typing happens in this set when given (pykc types all of a file's signatures in one, so each
  // callee is typed once), else in a set of the call's own.
  sema::SpecializationSet* set = nullptr;
  // Held while the module is typed and emitted (the runtime's module lock: its resolved module is
  // shared by the threads that launch its kernels); the compile itself runs outside it.
  std::mutex* frontEndMutex = nullptr;
  // Compile even when the disk cache has the artifact, and replace it (one that would not load).
  bool rebuild = false;
};

// A compiled kernel (jit/CompiledKernel.h) and what only the compiler's own tools read: the
// specialization as typed and its typed IR.
struct CompiledSpecialization : CompiledKernel {
  const sema::Specialization* specialization = nullptr; // lives as long as the typing set
  std::shared_ptr<const ir::Module> ir;                 // the typed IR (Stage::Lowered)
};

// Types, emits and compiles `request.function` for `request.params` up to `request.stage`.
// std::nullopt when typing or emission failed (reported to request.diags). A CUDA compile that
// fails is reported in nvrtcFailure. Throws pyk::Error when the host compiler does not run
// (Compile) or rejects the generated code (Internal).
std::optional<CompiledSpecialization> compileSpecialization(const SpecializationRequest& request);

} // namespace pyk::jit
