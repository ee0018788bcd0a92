// aot: kernels compiled ahead of time, with the program (`pykc build`, CMake's pyk_add_kernels).
// What `pykc build` generates for a .pyk file describes the module with these structures: its
// source (the module's front end runs from it at load; no file is read), and for each
// specialization built ahead its CPU entry points, linked into the program, and its CUDA fatbin
// (a CUBIN per architecture and PTX for newer devices). pyk::load(image) loads it as a Module: a
// launch whose specialization was built ahead runs it without a compiler; any other is compiled by
// the JIT where the host compiler or NVRTC is available, and is a pyk::Error saying what was built
// ahead where not.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pyk/kernel.hpp"

namespace pyk::cpu {
struct Block;  // the CPU backend's block and thread, as the generated code sees them
struct Thread; // (stdlib/cpu/engine_abi.h)
} // namespace pyk::cpu

namespace pyk::aot {

// One specialization's CPU code, linked into the program.
struct CpuKernel {
  const char* kernel;    // the kernel's qualified name (`saxpy`, `make.<locals>.k`)
  const char* signature; // its argument types, as numba spells them: `(float32, float32[::1])`
  const char* mode;      // how a block runs: `loop`, `split`, or `fiber (why)`
  void (*block_entry)(cpu::Block&, void**);   // loop and split modes; null for fibers only
  void (*thread_entry)(cpu::Thread&, void**); // fiber mode (every kernel has it)
  std::size_t static_shared_bytes;
  bool cooperative; // it synchronises the grid
};

// One specialization's CUDA images: a fatbin the driver picks the image for the device from.
struct CudaKernel {
  const char* kernel;
  const char* signature;
  bool index32; // the variant with 32-bit index arithmetic (launches whose arrays fit)
  const unsigned char* fatbin;
  std::size_t fatbin_size;
  const char* entry_point; // the extern "C" function in the images
  const char* targets;     // what the fatbin holds: `sm_80 sm_90 compute_90`
  bool cooperative;
};

// A module of the user's the file imports (`from helpers import clamp`), as it was at build time:
// loading the image reads no file.
struct ImportedSource {
  const char* module; // `helpers`
  const char* path;   // where pykc build read it, for messages and #line
  std::string_view source;
};

struct ModuleImage {
  const char* pyk_version;  // the pykc that built it; must be this runtime's (PYK_VERSION_STRING)
  unsigned cpu_abi_version; // the CPU support header's ABI (pyk::cpu::kAbiVersion)
  const char* path;         // the .pyk file it was built from, for messages
  std::string_view source;  // that file's text
  std::span<const CpuKernel> cpu;
  std::span<const CudaKernel> cuda;
  std::span<const ImportedSource> imports; // the modules of the user's it imports, at build time
};

// Each generated module registers its image when the program starts (a static initialiser), so
// that a program carrying CUDA images uses a GPU where NVRTC is missing (PYK_BACKEND=auto picks
// CUDA when the driver reports a device and NVRTC loads or such images are linked in).
bool register_image(const ModuleImage& image);
// Whether any registered image holds CUDA images.
bool has_cuda_images();

// The signatures of `kernel` built ahead of time in `image` (CPU or CUDA), as spelt there.
std::vector<std::string> signatures(const ModuleImage& image, const std::string& kernel);

} // namespace pyk::aot

namespace pyk {

// Loads a module built ahead of time. Throws pyk::Error (Compile) when its source has errors
// (it had none when it was built) or it was built by another version of pyk.
Module load(const aot::ModuleImage& image);

} // namespace pyk
