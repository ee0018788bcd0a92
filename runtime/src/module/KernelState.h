// KernelState: one kernel of a loaded module and its specialization cache: the CPU and CUDA
// instances compiled and loaded so far, found by argument types (and the settings that change the
// generated code), CUDA's also by packed signature so a launch of a loaded one allocates nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/FunctionSignature.h"
#include "base/NumbaType.h"
#include "cpu/CpuEngine.h"
#include "cpu/SharedObject.h"
#include "cuda/CudaContext.h"
#include "jit/CompilerService.h"
#include "module/ArgumentTypes.h"

namespace pyk::detail {

struct ModuleState;

// One specialization, compiled and loaded for the CPU backend.
struct CpuKernelInstance {
  std::string description; // `name(float32[::1], int64)`
  std::string mode;        // loop, split, fiber (with the reason)
  cpu::SharedObject object;
  cpu::KernelEntry entry;
  std::size_t static_shared_bytes = 0;
  std::vector<types::NumbaType> params;
};

// How a launch lays out one argument of a signature it has seen: a scalar whose bytes are already
// its parameter's (passed where it lies, KernelArgument::value), an array as pyk::Array, or
// anything else through LaunchArguments::set.
enum class ArgumentWrite : std::uint8_t { InPlace, Array, General };

// One specialization, compiled and loaded on one CUDA device.
struct CudaKernelInstance {
  CudaKernelInstance() = default;
  CudaKernelInstance(const CudaKernelInstance&) = delete;
  CudaKernelInstance& operator=(const CudaKernelInstance&) = delete;
  ~CudaKernelInstance(); // unloads the module

  std::string description; // `name(float32[::1], int64)`
  std::string source;      // the CUDA C++ unit
  std::string target;      // "cubin sm_90" / "ptx compute_90"
  const cuda::DeviceContext* device = nullptr;
  cuda::CUmodule module = nullptr;
  cuda::CUfunction function = nullptr;
  bool cooperative = false;
  int maxThreadsPerBlock = 1024; // the function's own limit (registers may lower it)
  int static_shared_bytes = 0;
  std::atomic<int> dynamicSharedAllowed{48 * 1024}; // raised with cuFuncSetAttribute on demand
  // forall's block size chosen by occupancy, for the dynamic shared bytes of that launch:
  // (bytes << 16) | block, 0 before the first (Kernel::forall asks the driver only then).
  std::atomic<std::uint64_t> forallChoice{0};
  std::vector<types::NumbaType> params; // what the entry point reads
};

struct KernelState {
  ModuleState* module = nullptr; // the module owns its kernels' states
  const jit::FunctionInfo* function = nullptr;
  // Kernel::specialize: the only signature this state's launches take, and the instance compiled
  // for it then (on the CPU, or on CUDA with its device).
  std::optional<types::FunctionSignature> specialized;
  std::shared_ptr<CpuKernelInstance> specializedCpu;
  CudaKernelInstance* specializedCuda = nullptr;
  std::mutex mutex; // guards instances, shapedTypes, cudaInstances and recentCuda
  // By argument types (and the settings that change the code), plus the block shape for
  // split-mode kernels.
  std::map<std::string, std::shared_ptr<CpuKernelInstance>> instances;
  std::set<std::string> shapedTypes; // argument types whose kernel runs in split mode
  // Launches of a split kernel's generic instance, by the key of its instance for the launch's
  // block shape: the second asks for that instance in the background.
  std::map<std::string, unsigned> shapeLaunches;
  // CUDA: by device and argument types.
  std::map<std::string, std::shared_ptr<CudaKernelInstance>> cudaInstances;
  // CUDA: the images compiled, by architecture, argument types and index variant: a second device
  // of an architecture loads the first one's image, compiled once per process.
  std::map<std::string, std::shared_ptr<const jit::CompiledKernel>> cudaImages;
  struct RecentCuda {
    ArgumentSignature signature;
    bool index32; // the PYK_INDEX32 variant
    const cuda::DeviceContext* device;
    CudaKernelInstance* instance;
    std::vector<ArgumentWrite> writes; // how each argument of this signature is laid out
  };
  // The instances launched so far, found by signature (each entry stays where it is: launches
  // read its `writes` after the lock).
  std::vector<std::unique_ptr<const RecentCuda>> recentCuda;
  // The entry the last launch found, read without the mutex (launches in a loop repeat one).
  std::atomic<const RecentCuda*> lastCuda{nullptr};
};

// The state behind a pyk::Kernel.
struct KernelAccess {
  static KernelState& state(const Kernel& kernel) { return *kernel.state_; }
};

} // namespace pyk::detail
