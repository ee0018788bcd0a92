// CompiledKernel: what the compiler compiles one specialization into, and for which target: the
// generated unit (base/GeneratedUnit.h) and the binary made from it (a CUBIN or PTX by NVRTC, a
// shared object by the host compiler), or why NVRTC made none. The compiler service's result
// (jit/CompilerService.h), which the runtime loads and launches; nothing in it is the compiler's
// internals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "base/GeneratedUnit.h"
#include "jit/CudaTarget.h"

namespace pyk::jit {

// The CPU backend: C++ compiled by the host compiler into a shared object.
struct CpuTarget {
  base::CpuEmitOptions options; // fibers forced, bounds checks, the launch's block shape
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

// Why NVRTC made no image, for the caller to word: pykc reports diagnostics, the runtime throws.
struct NvrtcFailure {
  enum class Kind {
    Unavailable,          // NVRTC cannot be loaded; `log` says why
    NoArchitecture,       // CudaDevice: NVRTC knows no architecture the device can run
    UnsupportedArch,      // NVRTC refused the target's architecture; `log` is its log
    Rejected,             // NVRTC rejected the generated code (a bug in pyk); `log` is its log
    LinkedSourceRejected, // NVRTC rejected CUDA C++ the user linked (link=); `generatedLines`
                          // names the file
    LinkRejected,         // nvJitLink could not link the GPU code the user linked (an undefined
                          // symbol, another architecture's CUBIN...); `generatedLines` names it,
                          // `log` is nvJitLink's
  };
  Kind kind = Kind::Rejected;
  std::string nvrtcVersion; // "13.0", or "none"
  std::string log;
  // Rejected: the generated lines the log names, quoted ("generated line N: ..."), from the unit
  // emitted and compiled once more without #line.
  std::string generatedLines;
};

struct CompiledKernel {
  std::string description; // `name(float32[::1], int64) -> none`
  base::EmittedUnit cuda;  // CUDA target (from Stage::Emitted): the unit, entry, cooperative
  base::CpuUnit cpu;       // CPU target: the unit, entry points, mode, shared bytes, parameters
  // Stage::Compiled: the image (CUBIN bytes or PTX text) or the shared object's bytes.
  std::string binary;
  std::string target;                       // "cubin sm_90", "ptx compute_90", or "cpu"
  bool fromCache = false;                   // the binary came from the disk cache
  std::optional<NvrtcFailure> nvrtcFailure; // CUDA, Stage::Compiled: why there is no binary
  std::string nvrtcWarnings; // CUDA, Stage::Compiled: NVRTC's warnings (CudaImage::warnings)
  // CUDA, a PTX image of a kernel that links GPU code (PTX, a CUBIN...: numba's link=), which
  // only nvJitLink's CUBIN carries: that code, named ("`f.ptx` (PTX)"). Such PTX is what numba's
  // compile_ptx gives (the kernel alone); it cannot be loaded or embedded as the kernel's image.
  std::string unlinkedCode;
};

} // namespace pyk::jit
