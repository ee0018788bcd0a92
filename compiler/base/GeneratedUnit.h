// GeneratedUnit: what code generation hands on for one specialization, the vocabulary the
// compiler and the runtime share about it: the CUDA C++ unit with its entry point, or the CPU C++
// unit with its two entry points and the mode its threads run in, and the options the runtime
// chooses the CPU unit's code by. The jit compiles the units; the runtime loads and launches them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pyk::base {

// The CUDA unit (codegen/emit/CudaEmitter.h).
// The lines around the CUDA C++ a unit links (numba's link=), which the emitters put first in the
// unit: `pykc build` moves them out of each CPU unit's namespace into the shared file.
inline constexpr const char* kLinkedSourcesBegin =
    "// The CUDA C++ linked with the kernel (numba's link=).\n";
inline constexpr const char* kLinkedSourcesEnd = "// End of the linked CUDA C++.\n";

struct EmittedUnit {
  std::string source;     // includes "pyk_support.h" (passed to NVRTC as an in-memory header)
  std::string entryPoint; // the extern "C" name of the entry kernel (empty for a device function)
  // The kernel calls `cuda.cg.this_grid().sync()`: it must be launched cooperatively (every
  // block resident at once), as numba launches such kernels.
  bool cooperative = false;
};

// How a CPU kernel's threads run (codegen/cpu/CpuExecutionPlan.h): a loop over the block's threads,
// split into regions between barriers, or fibers.
enum class CpuExecutionMode { Loop, Split, Fiber };
const char* nameOf(CpuExecutionMode mode); // "loop", "split", "fiber"

// The CPU unit (codegen/emit/CpuEmitter.h).
struct CpuUnit {
  std::string source; // includes "pyk_cpu_support.h" (stdlib/cpu/)
  std::string kernelName;
  std::string blockEntry;  // "" when the kernel can only run as fibers
  std::string threadEntry; // always present
  CpuExecutionMode mode = CpuExecutionMode::Loop;
  std::string fiberReason;
  std::string modeReason; // why this mode (describeMode), for pykc emit
  int64_t staticSharedBytes = 0;
  std::vector<std::string> parameterTypes; // C++ types, in order
  // It synchronises the grid (`this_grid().sync()`): every block runs at once, as fibers.
  bool cooperative = false;
};

// What the CPU unit is generated for: the runtime's settings (PYK_BOUNDSCHECK, fibers forced) and
// the launch's block shape.
struct CpuEmitOptions {
  bool lineDirectives = true;
  // Run every kernel as fibers (for measuring fibers against loops; tests of fiber mode).
  bool forceFibers = false;
  // Check every array index (PYK_BOUNDSCHECK=1): an access out of range stops the kernel with a
  // message naming the kernel, the array, the index and the thread.
  bool boundsCheck = false;
  // The launch's block shape, x, y, z: a split kernel is compiled for it (trip counts and
  // blockDim become constants the optimiser unrolls and vectorises with). Zero: any shape.
  uint32_t blockShape[3] = {0, 0, 0};
};

} // namespace pyk::base
