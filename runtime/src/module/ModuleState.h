// ModuleState: a loaded .pyk module (its source, syntax tree and resolved functions, kept alive
// for specialization) and its kernels' states (module/KernelState.h).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "diag/SourceFile.h"
#include "module/KernelState.h"
#include "pyk/aot.hpp"
#include "pyk/kernel.hpp"
#include "sema/FunctionSignature.h"
#include "sema/ResolvedModule.h"
#include "syntax/Parser.h"

namespace pyk::detail {

// Made by std::make_shared (pyk::load): background compiles keep it alive by shared_from_this.
struct ModuleState : std::enable_shared_from_this<ModuleState> {
  explicit ModuleState(SourceFile f) : file(std::move(f)) {}
  SourceFile file;
  ParseResult parsed;
  sema::ResolvedModule resolved;
  std::mutex compileMutex; // the front end and code generation run one at a time per module
  // Each kernel's state, made at its first module["name"] and kept with the module, so that every
  // Kernel handle of one kernel shares its compiled specializations.
  std::mutex kernelsMutex;
  std::map<std::string, std::shared_ptr<KernelState>> kernels;
  // A module built ahead of time (pyk::load(aot::ModuleImage)): its image, which lives as long
  // as the program, each of its entries' parameters (parsed from their signatures, in the
  // image's order), and the signatures built ahead for each kernel (module/AheadOfTime).
  const aot::ModuleImage* aot = nullptr;
  std::vector<std::vector<sema::NumbaType>> aheadCpuParams, aheadCudaParams;
  std::map<std::string, std::vector<sema::FunctionSignature>> aheadSignatures;
};

} // namespace pyk::detail
