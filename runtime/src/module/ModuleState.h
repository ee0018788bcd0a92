// ModuleState: a loaded .pyk module (its source, syntax tree and resolved functions, kept alive
// for specialization) and, per kernel, the specializations compiled so far.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "cpu/CpuEngine.h"
#include "cpu/SharedObject.h"
#include "cuda/CudaContext.h"
#include "diag/SourceFile.h"
#include "pyk/kernel.hpp"
#include "sema/ResolvedModule.h"
#include "syntax/Parser.h"

namespace pyk::detail {

struct KernelState;

struct ModuleState {
  explicit ModuleState(SourceFile f) : file(std::move(f)) {}
  SourceFile file;
  ParseResult parsed;
  sema::ResolvedModule resolved;
  std::mutex compileMutex; // the front end and code generation run one at a time per module
  // Each kernel's state, made at its first module["name"] and kept with the module, so that every
  // Kernel handle of one kernel shares its compiled specializations.
  std::mutex kernelsMutex;
  std::map<std::string, std::shared_ptr<KernelState>> kernels;
};

// One specialization, compiled and loaded for the CPU backend.
struct CpuKernelInstance {
  std::string description; // `name(float32[::1], int64)`
  std::string mode;        // loop, split, fiber (with the reason)
  cpu::SharedObject object;
  cpu::KernelEntry entry;
  std::size_t staticSharedBytes = 0;
  std::vector<sema::NumbaType> params;
};

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
  int staticSharedBytes = 0;
  std::atomic<int> dynamicSharedAllowed{48 * 1024}; // raised with cuFuncSetAttribute on demand
  std::vector<sema::NumbaType> params;              // what the entry point reads
};

// The argument types of a launch, packed: what finds a compiled specialization without building
// a string. Launches with more arguments than it holds take the slower, string-keyed path.
struct ArgumentSignature {
  static constexpr int kMaxArguments = 32;
  int count = 0;
  std::uint16_t codes[kMaxArguments]{};
  bool operator==(const ArgumentSignature& o) const {
    return count == o.count && std::equal(codes, codes + count, o.codes);
  }
};

struct KernelState {
  ModuleState* module = nullptr; // the module owns its kernels' states
  const sema::CompiledFunction* function = nullptr;
  std::mutex mutex; // guards instances and cudaInstances
  // By argument types (and environment flags), plus the block shape for split-mode kernels.
  std::map<std::string, std::shared_ptr<CpuKernelInstance>> instances;
  std::set<std::string> shapedTypes; // argument types whose kernel runs in split mode
  // CUDA: by device and argument types.
  std::map<std::string, std::shared_ptr<CudaKernelInstance>> cudaInstances;
  struct RecentCuda {
    ArgumentSignature signature;
    const cuda::DeviceContext* device;
    CudaKernelInstance* instance;
  };
  std::vector<RecentCuda> recentCuda; // the instances launched so far, found by signature
};

} // namespace pyk::detail
