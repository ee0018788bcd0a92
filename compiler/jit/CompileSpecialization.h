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

#include "codegen/CpuEmitter.h"
#include "codegen/CudaEmitter.h"
#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "ir/Ir.h"
#include "jit/CudaTarget.h"
#include "jit/JitSettings.h"
#include "sema/ResolvedModule.h"
#include "sema/Specialization.h"

namespace pyk::jit {

// The CPU backend: C++ compiled by the host compiler into a shared object.
struct CpuTarget {
  codegen::CpuEmitOptions options; // fibers forced, bounds checks, the launch's block shape
};

// CUDA for a device: the target cudaTargetFor chooses for its compute capability.
struct CudaDevice {
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;
  bool index32 = false; // CudaTarget::index32
};

// CudaTarget: CUDA for a named architecture (pykc's --arch).
using Target = std::variant<CudaTarget, CudaDevice, CpuTarget>;

// Where compileSpecialization stops.
enum class Stage {
  Typed,    // typed only (pykc check, --emit=typed)
  Lowered,  // typed and lowered to the typed IR (--emit=ir)
  Emitted,  // typed and emitted (--emit=cuda|cpu)
  Compiled, // typed, emitted and compiled (--emit=ptx|cubin, every launch)
};

struct SpecializationRequest {
  const sema::ResolvedModule& module; // the resolved module the function belongs to
  const SourceFile& file;             // its source, for #line directives and diagnostics
  const sema::CompiledFunction& function;
  std::vector<sema::NumbaType> params;       // the argument types to type it for
  std::optional<sema::NumbaType> returnType; // the signature's declared return type, if any
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

// Why NVRTC made no image, for the caller to word: pykc reports diagnostics, the runtime throws.
struct NvrtcFailure {
  enum class Kind {
    Unavailable,     // NVRTC cannot be loaded; `log` says why
    NoArchitecture,  // CudaDevice: NVRTC knows no architecture the device can run
    UnsupportedArch, // NVRTC refused the target's architecture; `log` is its log
    Rejected,        // NVRTC rejected the generated code (a bug in pyk); `log` is its log
  };
  Kind kind = Kind::Rejected;
  std::string nvrtcVersion; // "13.0", or "none"
  std::string log;
  // Rejected: the generated lines the log names, quoted ("generated line N: ..."), from the unit
  // emitted and compiled once more without #line.
  std::string generatedLines;
};

struct CompiledSpecialization {
  const sema::Specialization* specialization = nullptr; // lives as long as the typing set
  std::string description;                              // `name(float32[::1], int64) -> none`
  std::shared_ptr<const ir::Module> ir;                 // the typed IR (Stage::Lowered)
  codegen::EmittedUnit cuda; // CUDA target (from Stage::Emitted): the unit, entry, cooperative
  codegen::CpuUnit cpu;      // CPU target: the unit, entry points, mode, shared bytes, parameters
  // Stage::Compiled: the image (CUBIN bytes or PTX text) or the shared object's bytes.
  std::string binary;
  std::string target;                       // "cubin sm_90", "ptx compute_90", or "cpu"
  bool fromCache = false;                   // the binary came from the disk cache
  std::optional<NvrtcFailure> nvrtcFailure; // CUDA, Stage::Compiled: why there is no binary
  std::string nvrtcWarnings; // CUDA, Stage::Compiled: NVRTC's warnings (CudaImage::warnings)
};

// Types, emits and compiles `request.function` for `request.params` up to `request.stage`.
// std::nullopt when typing or emission failed (reported to request.diags). A CUDA compile that
// fails is reported in nvrtcFailure. Throws pyk::Error when the host compiler does not run
// (Compile) or rejects the generated code (Internal).
std::optional<CompiledSpecialization> compileSpecialization(const SpecializationRequest& request);

} // namespace pyk::jit
