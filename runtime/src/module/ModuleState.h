// ModuleState: a loaded .pyk module (the compiler service's SourceModule: its source through the
// front end, kept for specialization) and its kernels' states (module/KernelState.h).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/FunctionSignature.h"
#include "jit/CompilerService.h"
#include "module/KernelState.h"
#include "pyk/aot.hpp"
#include "pyk/kernel.hpp"

namespace pyk::detail {

// Made by std::make_shared (pyk::load): background compiles keep it alive by shared_from_this.
struct ModuleState : std::enable_shared_from_this<ModuleState> {
  explicit ModuleState(std::shared_ptr<const jit::SourceModule> s) : source(std::move(s)) {}
  std::shared_ptr<const jit::SourceModule> source; // never null
  const std::string& path() const { return source->path(); }
  // Each kernel's state, made at its first module["name"] and kept with the module, so that every
  // Kernel handle of one kernel shares its compiled specializations.
  std::mutex kernelsMutex;
  std::map<std::string, std::shared_ptr<KernelState>> kernels;
  // A module built ahead of time (pyk::load(aot::ModuleImage)): its image, which lives as long
  // as the program, each of its entries' parameters (parsed from their signatures, in the
  // image's order), and the signatures built ahead for each kernel (module/AheadOfTime).
  const aot::ModuleImage* aot = nullptr;
  std::vector<std::vector<types::NumbaType>> aheadCpuParams, aheadCudaParams;
  std::map<std::string, std::vector<types::FunctionSignature>> aheadSignatures;
};

} // namespace pyk::detail
